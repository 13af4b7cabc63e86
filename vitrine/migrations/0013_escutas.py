"""Listening sessions of `vitrine-cli listen` and their deliveries (docs/avisos.md, "Escutar no seu
computador"), and the flag of sample events emitted by POST /avisos/disparos."""

from tortoise import migrations
from tortoise.migrations import operations as ops
from orjson import loads
from tortoise.fields.base import OnDelete
from tortoise.fields.data import JSON_DUMPS
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('vitrine', '0012_indice_conta_app')]

    initial = False

    operations = [
        ops.CreateModel(
            name='Escuta',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('integrador_id', fields.CharField(max_length=40)),
                ('ambiente', fields.CharField(max_length=10)),
                ('eventos', fields.JSONField(encoder=JSON_DUMPS, decoder=loads)),
                ('situacao', fields.CharField(default='aberta', max_length=12)),
                ('sinal_em', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('criado_em', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('conectada_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('encerrada_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'aviso_escutas', 'app': 'vitrine', 'indexes': [Index(fields=['integrador_id', 'ambiente', 'situacao'])], 'pk_attr': 'id', 'table_description': 'A listening session of the vitrine-cli listen command, test environment only. While its stream is'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='EntregaEscuta',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('escuta', fields.ForeignKeyField('vitrine.Escuta', source_field='escuta_id', db_constraint=True, to_field='id', related_name='entregas', on_delete=OnDelete.CASCADE)),
                ('evento_id', fields.CharField(max_length=40)),
                ('tipo', fields.CharField(max_length=60)),
                ('corpo', fields.TextField(unique=False)),
                ('situacao', fields.CharField(default='pendente', max_length=10)),
                ('status', fields.SmallIntField(null=True)),
                ('resposta', fields.TextField(null=True, unique=False)),
                ('erro', fields.CharField(null=True, max_length=300)),
                ('duracao_ms', fields.FloatField(null=True)),
                ('criado_em', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('enviada_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('respondida_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'aviso_escuta_entregas', 'app': 'vitrine', 'indexes': [Index(fields=['escuta_id', 'situacao', 'id']), Index(fields=['escuta_id', 'id'])], 'pk_attr': 'id', 'table_description': 'One event for one listening session. Its id is the webhook-id the command signs with, and the'},
            bases=['Model'],
        ),
        ops.AddField(
            model_name='Evento',
            name='amostra',
            field=fields.BooleanField(default=False, db_default=False),
        ),
    ]
