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
            name='Conferencia',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('produto', fields.ForeignKeyField('vitrine.Produto', source_field='produto_id', db_constraint=True, to_field='id', related_name='conferencias', on_delete=OnDelete.CASCADE)),
                ('integrador_id', fields.CharField(max_length=40)),
                ('ambiente', fields.CharField(max_length=10)),
                ('conta_id', fields.CharField(max_length=40)),
                ('versao_produto', fields.IntField()),
                ('origem', fields.CharField(max_length=12)),
                ('situacao', fields.CharField(max_length=20)),
                ('tentativas', fields.SmallIntField(default=0)),
                ('admitida_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('executar_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('reservada_ate', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('resultados', fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('fotos', fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('erro', fields.TextField(null=True, unique=False)),
                ('criado_em', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('concluida_em', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('atualizado_em', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'conferencias', 'app': 'vitrine', 'indexes': [Index(fields=['produto_id', 'admitida_em']), Index(fields=['situacao', 'executar_em'])], 'pk_attr': 'id', 'table_description': 'One quality check of one version of a ficha. The row is the queued work itself: a lost'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Foto',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('produto', fields.ForeignKeyField('vitrine.Produto', source_field='produto_id', db_constraint=True, to_field='id', related_name='fotos_originais', on_delete=OnDelete.CASCADE)),
                ('url', fields.TextField(unique=False)),
                ('url_hash', fields.CharField(max_length=64)),
                ('sha256', fields.CharField(max_length=64)),
                ('arquivo', fields.CharField(max_length=200)),
                ('bytes', fields.IntField()),
                ('medidas', fields.JSONField(encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('etag', fields.CharField(null=True, max_length=200)),
                ('ultima_modificacao', fields.CharField(null=True, max_length=100)),
                ('criado_em', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('verificada_em', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'fotos', 'app': 'vitrine', 'unique_together': (('produto', 'url_hash', 'sha256'),), 'indexes': [Index(fields=['produto_id', 'url_hash'])], 'pk_attr': 'id', 'table_description': 'An original photo of a product as downloaded, kept in media storage with its measures,'},
            bases=['Model'],
        ),
        ops.AddField(
            model_name='Produto',
            name='codigo_excluido',
            field=fields.CharField(null=True, max_length=100),
        ),
        ops.AddField(
            model_name='Produto',
            name='excluido_em',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
        ops.AddField(
            model_name='Produto',
            name='fotos',
            field=fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads),
        ),
    ]
