from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.fields.base import OnDelete
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('vitrine', '0002_integracao_e_equipe')]

    initial = False

    operations = [
        ops.CreateModel(
            name='Lancamento',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('carteira', fields.ForeignKeyField('vitrine.Carteira', source_field='carteira_id', db_constraint=True, to_field='id', related_name='lancamentos', on_delete=OnDelete.CASCADE)),
                ('tipo', fields.CharField(max_length=12)),
                ('disponiveis', fields.IntField()),
                ('reservados', fields.IntField()),
                ('geracao_id', fields.CharField(null=True, db_index=True, max_length=40)),
                ('descricao', fields.CharField(max_length=300)),
                ('criado_em', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'lancamentos', 'app': 'vitrine', 'pk_attr': 'id', 'table_description': 'One movement of a wallet (the ledger): a reservation, a capture, a release, a refill.'},
            bases=['Model'],
        ),
    ]
