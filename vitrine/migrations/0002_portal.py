from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.fields.base import OnDelete
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('vitrine', '0001_inicial')]

    initial = False

    operations = [
        ops.CreateModel(
            name='TentativaEntrada',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('email', fields.CharField(db_index=True, max_length=254)),
                ('ip', fields.CharField(db_index=True, max_length=64)),
                ('criado_em', fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'tentativas_entrada', 'app': 'vitrine', 'pk_attr': 'id', 'table_description': 'A failed sign-in, counted per e-mail and per address to slow down password guessing.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Usuario',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('integrador', fields.ForeignKeyField('vitrine.Integrador', source_field='integrador_id', db_constraint=True, to_field='id', related_name='usuarios', on_delete=OnDelete.CASCADE)),
                ('nome', fields.CharField(max_length=200)),
                ('email', fields.CharField(unique=True, max_length=254)),
                ('papel', fields.CharField(max_length=20)),
                ('hash_senha', fields.CharField(null=True, max_length=200)),
                ('criado_em', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('ultimo_acesso_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'usuarios', 'app': 'vitrine', 'pk_attr': 'id', 'table_description': 'A person of an integrator who signs in to the portal, with one role.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='LinkSenha',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=64)),
                ('usuario', fields.ForeignKeyField('vitrine.Usuario', source_field='usuario_id', db_constraint=True, to_field='id', related_name='links_senha', on_delete=OnDelete.CASCADE)),
                ('motivo', fields.CharField(max_length=12)),
                ('criado_em', fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=True)),
                ('expira_em', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('usado_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'links_senha', 'app': 'vitrine', 'pk_attr': 'id', 'table_description': 'A single-use link that sets a password: a reset or an invite. Only its SHA-256 is kept.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Sessao',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=64)),
                ('usuario', fields.ForeignKeyField('vitrine.Usuario', source_field='usuario_id', db_constraint=True, to_field='id', related_name='sessoes', on_delete=OnDelete.CASCADE)),
                ('ambiente', fields.CharField(default='teste', max_length=10)),
                ('reautenticado_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('criado_em', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('ultimo_uso_em', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('expira_em', fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=False)),
                ('ip', fields.CharField(default='', max_length=64)),
                ('agente', fields.CharField(default='', max_length=200)),
            ],
            options={'table': 'sessoes', 'app': 'vitrine', 'pk_attr': 'id', 'table_description': 'A signed-in browser. Only the SHA-256 of the cookie value is kept.'},
            bases=['Model'],
        ),
    ]
