from tortoise import migrations
from tortoise.migrations import operations as ops
from orjson import loads
from tortoise.fields.base import OnDelete
from tortoise.fields.data import JSON_DUMPS
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('vitrine', '0006_vendedores')]

    initial = False

    operations = [
        ops.CreateModel(
            name='Pacote',
            fields=[
                ('codigo', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('nome', fields.CharField(max_length=100)),
                ('creditos', fields.IntField()),
                ('preco_centavos', fields.IntField()),
                ('ativo', fields.BooleanField(default=True)),
                ('ordem', fields.IntField(default=0)),
            ],
            options={'table': 'pacotes', 'app': 'vitrine', 'pk_attr': 'codigo', 'table_description': 'A single package of credits for sale. Package credits never expire with the cycle.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Plano',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('codigo', fields.CharField(max_length=40)),
                ('versao', fields.IntField()),
                ('nome', fields.CharField(max_length=100)),
                ('preco_centavos', fields.IntField()),
                ('creditos_mensais', fields.IntField()),
                ('limite_por_minuto_chave', fields.IntField()),
                ('limite_por_minuto_integrador', fields.IntField()),
                ('vigente', fields.BooleanField(default=True)),
                ('ordem', fields.IntField(default=0)),
                ('criado_em', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'planos', 'app': 'vitrine', 'unique_together': (('codigo', 'versao'),), 'pk_attr': 'id', 'table_description': 'One version of a plan of the catalogue. A change is a new version (the previous one stops'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Assinatura',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('integrador', fields.ForeignKeyField('vitrine.Integrador', source_field='integrador_id', db_constraint=True, to_field='id', related_name='assinaturas', on_delete=OnDelete.CASCADE)),
                ('ambiente', fields.CharField(max_length=10)),
                ('plano', fields.ForeignKeyField('vitrine.Plano', source_field='plano_id', db_constraint=True, to_field='id', related_name='assinaturas', on_delete=OnDelete.CASCADE)),
                ('ciclo_inicio_em', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('ciclo_fim_em', fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=False)),
                ('plano_agendado', fields.ForeignKeyField('vitrine.Plano', source_field='plano_agendado_id', null=True, db_constraint=True, to_field='id', related_name='agendamentos', on_delete=OnDelete.CASCADE)),
                ('cota_ciclo', fields.IntField(default=0)),
                ('alertas_cota', fields.JSONField(default=list, encoder=JSON_DUMPS, decoder=loads)),
                ('criado_em', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('atualizado_em', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'assinaturas', 'app': 'vitrine', 'unique_together': (('integrador', 'ambiente'),), 'pk_attr': 'id', 'table_description': 'The plan of an integrator in one environment, and its current monthly cycle.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Recarga',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('integrador', fields.ForeignKeyField('vitrine.Integrador', source_field='integrador_id', db_constraint=True, to_field='id', related_name='recargas', on_delete=OnDelete.CASCADE)),
                ('ambiente', fields.CharField(max_length=10)),
                ('pacote', fields.ForeignKeyField('vitrine.Pacote', source_field='pacote_id', db_constraint=True, to_field='codigo', related_name='recargas', on_delete=OnDelete.CASCADE)),
                ('creditos', fields.IntField()),
                ('preco_centavos', fields.IntField()),
                ('situacao', fields.CharField(default='pendente', max_length=12)),
                ('provedor', fields.CharField(default='checkout', max_length=20)),
                ('referencia_provedor', fields.CharField(null=True, max_length=200)),
                ('expira_em', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('paga_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('encerrada_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('criado_em', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('atualizado_em', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'recargas', 'app': 'vitrine', 'indexes': [Index(fields=['integrador_id', 'ambiente', 'id'])], 'pk_attr': 'id', 'table_description': 'A purchase of a package: pendente until the payment provider says paga or recusada, or'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='ConfirmacaoPagamento',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=120)),
                ('recarga', fields.ForeignKeyField('vitrine.Recarga', source_field='recarga_id', db_constraint=True, to_field='id', related_name='confirmacoes', on_delete=OnDelete.CASCADE)),
                ('resultado', fields.CharField(max_length=12)),
                ('origem', fields.CharField(max_length=20)),
                ('recebida_em', fields.DatetimeField(auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'confirmacoes_pagamento', 'app': 'vitrine', 'pk_attr': 'id', 'table_description': 'A payment confirmation received (inbound webhook, checkout or staff), kept by its own id so'},
            bases=['Model'],
        ),
        ops.AddField(
            model_name='Carteira',
            name='creditos_baixos',
            field=fields.BooleanField(default=False, db_default=False),
        ),
        ops.AddField(
            model_name='Carteira',
            name='creditos_pacote',
            field=fields.IntField(default=0, db_default=0),
        ),
        ops.AddField(
            model_name='Carteira',
            name='creditos_plano',
            field=fields.IntField(default=0, db_default=0),
        ),
        ops.AlterField(
            model_name='Lancamento',
            name='tipo',
            field=fields.CharField(max_length=20),
        ),
        ops.AddField(
            model_name='Lancamento',
            name='disponiveis_apos',
            field=fields.IntField(null=True),
        ),
        ops.AddField(
            model_name='Lancamento',
            name='pacote',
            field=fields.IntField(default=0, db_default=0),
        ),
        ops.AddField(
            model_name='Lancamento',
            name='plano',
            field=fields.IntField(default=0, db_default=0),
        ),
        ops.AddField(
            model_name='Lancamento',
            name='recarga_id',
            field=fields.CharField(null=True, db_index=True, max_length=40),
        ),
        # Credits held before plans existed (test play credits, refills) never expire: the package pool.
        ops.RunSQL("UPDATE carteiras SET creditos_pacote = creditos_disponiveis"),
        ops.RunSQL("UPDATE lancamentos SET pacote = disponiveis"),
    ]
