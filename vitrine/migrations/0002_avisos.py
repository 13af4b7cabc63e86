from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('vitrine', '0001_inicial')]

    initial = False

    operations = [
        ops.CreateModel(
            name='Aviso',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('integrador', fields.ForeignKeyField('vitrine.Integrador', source_field='integrador_id', db_constraint=True, to_field='id', related_name='avisos', on_delete=OnDelete.CASCADE)),
                ('ambiente', fields.CharField(max_length=10)),
                ('url', fields.CharField(max_length=2048)),
                ('eventos', fields.JSONField(encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('situacao', fields.CharField(default='ativo', max_length=12)),
                ('segredo_cifrado', fields.TextField(unique=False)),
                ('segredo_anterior_cifrado', fields.TextField(null=True, unique=False)),
                ('segredo_anterior_expira_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('falhando_desde', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('alerta_falha_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('desativado_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('motivo_desativacao', fields.CharField(null=True, max_length=300)),
                ('criado_em', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('atualizado_em', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'avisos', 'app': 'vitrine', 'unique_together': (('integrador', 'ambiente', 'url'),), 'pk_attr': 'id', 'table_description': 'A notice address of an integrator in one environment: an https url and the events it'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Entrega',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('aviso', fields.ForeignKeyField('vitrine.Aviso', source_field='aviso_id', db_constraint=True, to_field='id', related_name='entregas', on_delete=OnDelete.CASCADE)),
                ('evento_id', fields.CharField(db_index=True, max_length=40)),
                ('tipo', fields.CharField(max_length=60)),
                ('corpo', fields.TextField(unique=False)),
                ('situacao', fields.CharField(default='pendente', max_length=10)),
                ('tentativas', fields.SmallIntField(default=0)),
                ('proxima_tentativa_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('enfileirada_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('em_voo_desde', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('reserva', fields.CharField(null=True, max_length=32)),
                ('ultimo_status', fields.SmallIntField(null=True)),
                ('criado_em', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('entregue_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'aviso_entregas', 'app': 'vitrine', 'indexes': [Index(fields=['situacao', 'proxima_tentativa_em']), Index(fields=['aviso_id', 'id'])], 'pk_attr': 'id', 'table_description': 'One event for one address (the outbox of notices). Its id is the webhook-id header, the'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='RodadaTeste',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('integrador_id', fields.CharField(max_length=40)),
                ('ambiente', fields.CharField(max_length=10)),
                ('aviso', fields.ForeignKeyField('vitrine.Aviso', source_field='aviso_id', null=True, db_constraint=True, to_field='id', related_name='rodadas', on_delete=OnDelete.SET_NULL)),
                ('url', fields.CharField(max_length=2048)),
                ('situacao', fields.CharField(default='pendente', max_length=10)),
                ('execucoes', fields.SmallIntField(default=0)),
                ('iniciada_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('criado_em', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('concluida_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'aviso_rodadas_teste', 'app': 'vitrine', 'indexes': [Index(fields=['integrador_id', 'ambiente', 'id'])], 'pk_attr': 'id', 'table_description': 'One run of POST /avisos/teste: three test deliveries to one address. The latest run of an'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Tentativa',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('entrega', fields.ForeignKeyField('vitrine.Entrega', source_field='entrega_id', db_constraint=True, to_field='id', related_name='registro', on_delete=OnDelete.CASCADE)),
                ('numero', fields.SmallIntField()),
                ('iniciada_em', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('duracao_ms', fields.FloatField(null=True)),
                ('status', fields.SmallIntField(null=True)),
                ('resposta', fields.TextField(null=True, unique=False)),
                ('erro', fields.CharField(null=True, max_length=300)),
            ],
            options={'table': 'aviso_tentativas', 'app': 'vitrine', 'pk_attr': 'id', 'table_description': 'One attempt of a delivery: when, how long, what the address answered (or why it could not).'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='TesteAviso',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('rodada', fields.ForeignKeyField('vitrine.RodadaTeste', source_field='rodada_id', db_constraint=True, to_field='id', related_name='testes', on_delete=OnDelete.CASCADE)),
                ('integrador_id', fields.CharField(max_length=40)),
                ('ambiente', fields.CharField(max_length=10)),
                ('caso', fields.CharField(max_length=20)),
                ('situacao', fields.CharField(default='pendente', max_length=10)),
                ('cabecalhos_enviados', fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('corpo_enviado', fields.TextField(null=True, unique=False)),
                ('status', fields.SmallIntField(null=True)),
                ('resposta', fields.TextField(null=True, unique=False)),
                ('erro', fields.CharField(null=True, max_length=300)),
                ('duracao_ms', fields.FloatField(null=True)),
                ('veredito', fields.CharField(null=True, max_length=10)),
                ('criado_em', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('concluido_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'aviso_testes', 'app': 'vitrine', 'pk_attr': 'id', 'table_description': 'One of the three test deliveries: what was sent, what the address answered, the verdict.'},
            bases=['Model'],
        ),
    ]
