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
            name='AcaoEquipe',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('membro_id', fields.CharField(max_length=12)),
                ('acao', fields.CharField(max_length=40)),
                ('alvo', fields.CharField(null=True, max_length=40)),
                ('motivo', fields.TextField(null=True, unique=False)),
                ('em', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'acoes_equipe', 'app': 'vitrine', 'pk_attr': 'id', 'table_description': 'An action of the staff on an integrator or on the contract: who, what, when and why.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='AceiteContrato',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('integrador', fields.ForeignKeyField('vitrine.Integrador', source_field='integrador_id', db_constraint=True, to_field='id', related_name='aceites', on_delete=OnDelete.CASCADE)),
                ('versao', fields.IntField()),
                ('aceito_por', fields.CharField(max_length=100)),
                ('aceito_em', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'aceites_contrato', 'app': 'vitrine', 'unique_together': (('integrador', 'versao'),), 'pk_attr': 'id', 'table_description': 'Who accepted which contract version for an integrator, and when.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Alerta',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('integrador', fields.ForeignKeyField('vitrine.Integrador', source_field='integrador_id', db_constraint=True, to_field='id', related_name='alertas', on_delete=OnDelete.CASCADE)),
                ('ambiente', fields.CharField(max_length=10)),
                ('tipo', fields.CharField(max_length=40)),
                ('chave', fields.CharField(max_length=200)),
                ('mensagem', fields.TextField(unique=False)),
                ('evidencia', fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('aberto_em', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('fechado_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'alertas', 'app': 'vitrine', 'indexes': [Index(fields=['integrador_id', 'fechado_em'])], 'pk_attr': 'id', 'table_description': 'An open (or closed) alert of an integrator: shown in the integration status and e-mailed'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='ContratoVersao',
            fields=[
                ('versao', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('titulo', fields.CharField(max_length=200)),
                ('texto', fields.TextField(unique=False)),
                ('publicado_em', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('publicado_por', fields.CharField(max_length=40)),
            ],
            options={'table': 'contrato_versoes', 'app': 'vitrine', 'pk_attr': 'versao', 'table_description': 'A published version of the integration contract (only the latest is current).'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='EmailAlertaEnviado',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('integrador_id', fields.CharField(max_length=40)),
                ('tipo', fields.CharField(max_length=40)),
                ('enviado_em', fields.DatetimeField(auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'emails_alerta', 'app': 'vitrine', 'unique_together': (('integrador_id', 'tipo'),), 'pk_attr': 'id', 'table_description': 'When the last e-mail of each alert kind went to an integrator (at most 1 per 6 hours).'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Espera429',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('integrador_id', fields.CharField(max_length=40)),
                ('chave_id', fields.CharField(unique=True, max_length=12)),
                ('ate', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('request_id', fields.CharField(max_length=40)),
            ],
            options={'table': 'esperas_429', 'app': 'vitrine', 'pk_attr': 'id', 'table_description': 'A 429 answered to a test key: the next call with that key must come after `ate`.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='EtapaIntegracao',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('integrador', fields.ForeignKeyField('vitrine.Integrador', source_field='integrador_id', db_constraint=True, to_field='id', related_name='etapas', on_delete=OnDelete.CASCADE)),
                ('codigo', fields.CharField(max_length=40)),
                ('situacao', fields.CharField(default='pendente', max_length=10)),
                ('verificado_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('evidencia', fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('ultima_falha', fields.TextField(null=True, unique=False)),
                ('falhou_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('estado', fields.JSONField(default=dict, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('atualizado_em', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'etapas_integracao', 'app': 'vitrine', 'unique_together': (('integrador', 'codigo'),), 'pk_attr': 'id', 'table_description': 'One of the 8 integration steps of an integrator, as last verified from real test calls.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='MembroEquipe',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=12)),
                ('nome', fields.CharField(max_length=100)),
                ('hash_segredo', fields.CharField(max_length=64)),
                ('criado_em', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('revogado_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'membros_equipe', 'app': 'vitrine', 'pk_attr': 'id', 'table_description': 'A member of the service staff, who uses the internal GraphQL API with a staff token.'},
            bases=['Model'],
        ),
        ops.AddField(
            model_name='Integrador',
            name='producao_liberacao',
            field=fields.CharField(null=True, max_length=12),
        ),
        ops.AddField(
            model_name='Integrador',
            name='producao_liberada_em',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
        ops.AddField(
            model_name='Integrador',
            name='producao_motivo',
            field=fields.TextField(null=True, unique=False),
        ),
        ops.AddField(
            model_name='Integrador',
            name='producao_situacao',
            field=fields.CharField(default='bloqueada', max_length=12),
        ),
    ]
