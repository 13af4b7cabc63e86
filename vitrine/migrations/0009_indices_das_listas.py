"""Indexes that let every list read one page straight off an index, whatever the history
(docs/desenvolvimento.md, "Listas em escala"), and the call log's status class."""

from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('vitrine', '0008_pacotes')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Chamada',
            name='classe_status',
            field=fields.SmallIntField(db_default=0),
        ),
        # Calls logged before the column existed get their class from their status.
        ops.RunSQL('UPDATE "chamadas" SET "classe_status" = "status" / 100', ops.RunSQL.noop),
        ops.AddIndex(
            model_name='Chamada',
            index=Index(fields=['integrador_id', 'ambiente', 'classe_status', 'id']),
        ),
        ops.AddIndex(
            model_name='Chamada',
            index=Index(fields=['integrador_id', 'ambiente', 'status', 'id']),
        ),
        ops.AddIndex(
            model_name='Chamada',
            index=Index(fields=['integrador_id', 'ambiente', 'metodo', 'id']),
        ),
        ops.AddIndex(
            model_name='Chamada',
            index=Index(fields=['integrador_id', 'ambiente', 'endpoint', 'id']),
        ),
        ops.AddIndex(
            model_name='Chamada',
            index=Index(fields=['integrador_id', 'ambiente', 'codigo_erro', 'id']),
        ),
        ops.AddIndex(
            model_name='Chamada',
            index=Index(fields=['integrador_id', 'ambiente', 'conta_id', 'id']),
        ),
        ops.AddIndex(
            model_name='Chamada',
            index=Index(fields=['integrador_id', 'ambiente', 'chave_id', 'id']),
        ),
        ops.AddIndex(
            model_name='Chamada',
            index=Index(fields=['integrador_id', 'ambiente', 'client_id', 'id']),
        ),
        ops.AddIndex(
            model_name='Conta',
            index=Index(fields=['integrador_id', 'ambiente', 'id']),
        ),
        ops.AddIndex(
            model_name='Conta',
            index=Index(fields=['integrador_id', 'ambiente', 'origem', 'id']),
        ),
        ops.AddIndex(
            model_name='Conta',
            index=Index(fields=['integrador_id', 'ambiente', 'situacao', 'id']),
        ),
        ops.AddIndex(
            model_name='Entrega',
            index=Index(fields=['aviso_id', 'situacao', 'id']),
        ),
        ops.AddIndex(
            model_name='Geracao',
            index=Index(fields=['integrador_id', 'ambiente', 'id']),
        ),
        ops.AddIndex(
            model_name='Geracao',
            index=Index(fields=['integrador_id', 'ambiente', 'produto_id', 'id']),
        ),
        ops.AlterField(
            model_name='Lancamento',
            name='geracao_id',
            field=fields.CharField(null=True, max_length=40),
        ),
        ops.AddIndex(
            model_name='Lancamento',
            index=Index(fields=['carteira_id', 'id']),
        ),
        ops.AddIndex(
            model_name='Lancamento',
            index=Index(fields=['carteira_id', 'tipo', 'id']),
        ),
        ops.AddIndex(
            model_name='Lancamento',
            index=Index(fields=['carteira_id', 'geracao_id', 'id']),
        ),
        ops.AddIndex(
            model_name='Produto',
            index=Index(fields=['conta_id', 'id']),
        ),
        ops.AddIndex(
            model_name='Produto',
            index=Index(fields=['conta_id', 'situacao', 'id']),
        ),
    ]
