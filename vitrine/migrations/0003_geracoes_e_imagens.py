from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields
from tortoise.indexes import Index
from tortoise.migrations.constraints import UniqueConstraint

class Migration(migrations.Migration):
    dependencies = [('vitrine', '0002_avisos_integracao_creditos_portal_conferencia')]

    initial = False

    operations = [
        ops.CreateModel(
            name='Imagem',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('integrador_id', fields.CharField(max_length=40)),
                ('ambiente', fields.CharField(max_length=10)),
                ('conta_id', fields.CharField(null=True, max_length=40)),
                ('produto_id', fields.CharField(null=True, db_index=True, max_length=40)),
                ('geracao_id', fields.CharField(null=True, db_index=True, max_length=40)),
                ('origem', fields.CharField(max_length=12)),
                ('arquivo', fields.CharField(max_length=300)),
                ('largura', fields.IntField()),
                ('altura', fields.IntField()),
                ('criado_em', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'imagens', 'app': 'vitrine', 'unique_together': (('produto_id', 'origem', 'arquivo'),), 'pk_attr': 'id', 'table_description': 'An image an integrator can refer to by id (img_): a delivered image of a generation, or'},
            bases=['Model'],
        ),
        ops.AddField(
            model_name='Geracao',
            name='chave_idempotencia',
            field=fields.CharField(null=True, max_length=120),
        ),
        ops.AddField(
            model_name='Geracao',
            name='concluida_em',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
        ops.AddField(
            model_name='Geracao',
            name='enfileirada_em',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
        ops.AddField(
            model_name='Geracao',
            name='iniciada_em',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
        ops.AddField(
            model_name='Geracao',
            name='reservada_ate',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
        ops.AddField(
            model_name='Geracao',
            name='tentativas',
            field=fields.SmallIntField(default=0),
        ),
        ops.AddIndex(
            model_name='Geracao',
            index=Index(fields=['situacao', 'reservada_ate']),
        ),
        ops.AddConstraint(
            model_name='Geracao',
            constraint=UniqueConstraint(fields=('integrador', 'ambiente', 'chave_idempotencia'), name=None),
        ),
    ]
