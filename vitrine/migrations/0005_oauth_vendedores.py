from tortoise import migrations
from tortoise.migrations import operations as ops
from orjson import loads
from tortoise.fields.base import OnDelete
from tortoise.fields.data import JSON_DUMPS
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('vitrine', '0004_email_proxima_tentativa')]

    initial = False

    operations = [
        ops.CreateModel(
            name='AppOAuth',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=30)),
                ('integrador', fields.ForeignKeyField('vitrine.Integrador', source_field='integrador_id', db_constraint=True, to_field='id', related_name='apps_oauth', on_delete=OnDelete.CASCADE)),
                ('ambiente', fields.CharField(max_length=10)),
                ('nome', fields.CharField(max_length=100)),
                ('tipo', fields.CharField(max_length=12)),
                ('hash_segredo', fields.CharField(null=True, max_length=64)),
                ('final_segredo', fields.CharField(null=True, max_length=4)),
                ('redirect_uris', fields.JSONField(default=list, encoder=JSON_DUMPS, decoder=loads)),
                ('escopos', fields.JSONField(default=list, encoder=JSON_DUMPS, decoder=loads)),
                ('situacao', fields.CharField(default='ativo', max_length=12)),
                ('bloqueado_ate', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('segredo_rotacionado_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('desativado_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('criado_em', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('atualizado_em', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'apps_oauth', 'app': 'vitrine', 'pk_attr': 'id', 'table_description': 'An OAuth app (client) of an integrator. A confidential app keeps only the SHA-256 of its secret.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='FalhaClienteOAuth',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('app_id', fields.CharField(db_index=True, max_length=30)),
                ('criado_em', fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'falhas_cliente_oauth', 'app': 'vitrine', 'pk_attr': 'id', 'table_description': 'A failed client authentication at the token endpoint, counted per app.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Vendedor',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('nome', fields.CharField(max_length=200)),
                ('email', fields.CharField(unique=True, max_length=254)),
                ('hash_senha', fields.CharField(max_length=200)),
                ('criado_em', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('ultimo_acesso_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'vendedores', 'app': 'vitrine', 'pk_attr': 'id', 'table_description': 'A seller: signs in with e-mail and password and authorises apps on the store.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Autorizacao',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('app', fields.ForeignKeyField('vitrine.AppOAuth', source_field='app_id', db_constraint=True, to_field='id', related_name='autorizacoes', on_delete=OnDelete.CASCADE)),
                ('vendedor', fields.ForeignKeyField('vitrine.Vendedor', source_field='vendedor_id', db_constraint=True, to_field='id', related_name='autorizacoes', on_delete=OnDelete.CASCADE)),
                ('conta', fields.ForeignKeyField('vitrine.Conta', source_field='conta_id', db_constraint=True, to_field='id', related_name='autorizacoes', on_delete=OnDelete.CASCADE)),
                ('integrador_id', fields.CharField(db_index=True, max_length=40)),
                ('ambiente', fields.CharField(max_length=10)),
                ('escopos', fields.JSONField(default=list, encoder=JSON_DUMPS, decoder=loads)),
                ('criado_em', fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=False)),
                ('revogada_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('motivo_revogacao', fields.CharField(null=True, max_length=30)),
            ],
            options={'table': 'autorizacoes_oauth', 'app': 'vitrine', 'indexes': [Index(fields=['vendedor_id', 'app_id', 'criado_em'])], 'pk_attr': 'id', 'table_description': 'One consent of a seller to an app: the code it gave and every token issued from that code'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='CodigoAutorizacao',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=64)),
                ('autorizacao', fields.ForeignKeyField('vitrine.Autorizacao', source_field='autorizacao_id', db_constraint=True, to_field='id', related_name='codigos', on_delete=OnDelete.CASCADE)),
                ('redirect_uri', fields.CharField(max_length=2000)),
                ('code_challenge', fields.CharField(max_length=64)),
                ('escopos', fields.JSONField(default=list, encoder=JSON_DUMPS, decoder=loads)),
                ('expira_em', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('usado_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'codigos_oauth', 'app': 'vitrine', 'pk_attr': 'id', 'table_description': 'An authorisation code (oac_): 60 seconds, single use. Only its SHA-256 is kept.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='SessaoVendedor',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=64)),
                ('vendedor', fields.ForeignKeyField('vitrine.Vendedor', source_field='vendedor_id', db_constraint=True, to_field='id', related_name='sessoes', on_delete=OnDelete.CASCADE)),
                ('criado_em', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('ultimo_uso_em', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('expira_em', fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=False)),
                ('ip', fields.CharField(default='', max_length=64)),
                ('agente', fields.CharField(default='', max_length=200)),
            ],
            options={'table': 'sessoes_vendedor', 'app': 'vitrine', 'pk_attr': 'id', 'table_description': 'A signed-in browser of a seller. Only the SHA-256 of the cookie value is kept.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='TokenOAuth',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=64)),
                ('autorizacao', fields.ForeignKeyField('vitrine.Autorizacao', source_field='autorizacao_id', db_constraint=True, to_field='id', related_name='tokens', on_delete=OnDelete.CASCADE)),
                ('tipo', fields.CharField(max_length=10)),
                ('escopos', fields.JSONField(default=list, encoder=JSON_DUMPS, decoder=loads)),
                ('criado_em', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('expira_em', fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=False)),
                ('usado_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'tokens_oauth', 'app': 'vitrine', 'pk_attr': 'id', 'table_description': 'An access (oat_) or refresh (ort_) token. Only its SHA-256 is kept.'},
            bases=['Model'],
        ),
        ops.AddField(
            model_name='Chamada',
            name='client_id',
            field=fields.CharField(null=True, max_length=30),
        ),
        ops.AddField(
            model_name='Conta',
            name='vendedor',
            field=fields.ForeignKeyField('vitrine.Vendedor', source_field='vendedor_id', null=True, db_constraint=True, to_field='id', related_name='contas', on_delete=OnDelete.CASCADE),
        ),
    ]
