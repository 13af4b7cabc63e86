"""What the portal shows when inspecting a call or a notice delivery (response headers, headers
sent, why no answer came), the last use of each key, and deliveries filtered by event."""

from tortoise import migrations
from tortoise.migrations import operations as ops
from orjson import loads
from tortoise.fields.data import JSON_DUMPS
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('vitrine', '0009_indices_das_listas')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Chamada',
            name='cabecalhos_resposta',
            field=fields.JSONField(null=True, encoder=JSON_DUMPS, decoder=loads),
        ),
        ops.AddField(
            model_name='ChaveApi',
            name='ultimo_uso_em',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
        ops.AddIndex(
            model_name='Entrega',
            index=Index(fields=['aviso_id', 'tipo', 'id']),
        ),
        ops.AddField(
            model_name='Tentativa',
            name='cabecalhos_enviados',
            field=fields.JSONField(null=True, encoder=JSON_DUMPS, decoder=loads),
        ),
        ops.AddField(
            model_name='Tentativa',
            name='cabecalhos_resposta',
            field=fields.JSONField(null=True, encoder=JSON_DUMPS, decoder=loads),
        ),
        ops.AddField(
            model_name='Tentativa',
            name='falha',
            field=fields.CharField(null=True, max_length=20),
        ),
        ops.AddField(
            model_name='TesteAviso',
            name='cabecalhos_resposta',
            field=fields.JSONField(null=True, encoder=JSON_DUMPS, decoder=loads),
        ),
        ops.AddField(
            model_name='TesteAviso',
            name='falha',
            field=fields.CharField(null=True, max_length=20),
        ),
    ]
