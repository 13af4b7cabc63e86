"""OAuth: client authentication failures counted per app and source address (blocks per source),
an authorisation active only once its code was exchanged (concedida_em), and linked accounts
named by an opaque id per integrator instead of the seller's global id."""

import secrets

from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields
from tortoise.indexes import Index
from tortoise.migrations.constraints import UniqueConstraint

from vitrine.infra.migration_ops import DropColumn

# Granted = its code was exchanged: the first use of one of its codes, or else its first token.
CONCEDIDAS = """
UPDATE autorizacoes_oauth SET concedida_em = COALESCE(
    (SELECT MIN(c.usado_em) FROM codigos_oauth c WHERE c.autorizacao_id = autorizacoes_oauth.id),
    (SELECT MIN(t.criado_em) FROM tokens_oauth t WHERE t.autorizacao_id = autorizacoes_oauth.id)
)
"""
# A linked account is active only while an exchanged authorisation is.
PAUSADAS = """
UPDATE contas SET situacao = 'pausada'
WHERE origem = 'vinculada' AND situacao = 'ativa' AND NOT EXISTS (
    SELECT 1 FROM autorizacoes_oauth a
    WHERE a.conta_id = contas.id AND a.concedida_em IS NOT NULL AND a.revogada_em IS NULL
)
"""
_CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz"


def codigo_de_vendedor() -> str:
    """The same form as graphql_api.oauth.autorizacoes.codigo_de_vendedor (kept here: a migration
    must not change when the code does)."""
    return "vdr_" + "".join(secrets.choice(_CROCKFORD) for _ in range(26))


async def renomear_vinculadas(apps, schema_editor) -> None:
    client = schema_editor.client
    marca = "$1" if client.capabilities.dialect == "postgres" else "?"
    outra = "$2" if client.capabilities.dialect == "postgres" else "?"
    for linha in await client.execute_query_dict("SELECT id FROM contas WHERE origem = 'vinculada'"):
        await client.execute_query(
            f"UPDATE contas SET codigo_externo = {marca} WHERE id = {outra}", [codigo_de_vendedor(), linha["id"]]
        )


class Migration(migrations.Migration):
    dependencies = [('vitrine', '0014_amostras_de_avisos')]

    initial = False

    operations = [
        ops.CreateModel(
            name='BloqueioClienteOAuth',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('app_id', fields.CharField(max_length=30)),
                ('origem', fields.CharField(max_length=45)),
                ('ate', fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'bloqueios_cliente_oauth', 'app': 'vitrine', 'unique_together': (('app_id', 'origem'),), 'pk_attr': 'id', 'table_description': 'An app blocked for one source address (20 authentication failures from it in 10 minutes).'},
            bases=['Model'],
        ),
        # In place: rebuilding apps_oauth on SQLite would cascade to every authorisation.
        DropColumn(model_name='AppOAuth', name='bloqueado_ate'),
        ops.AddField(
            model_name='Autorizacao',
            name='concedida_em',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
        ops.AddConstraint(
            model_name='Conta',
            constraint=UniqueConstraint(fields=('integrador', 'ambiente', 'vendedor'), name=None),
        ),
        ops.AlterModelOptions(
            name='FalhaClienteOAuth',
            options={'table': 'falhas_cliente_oauth', 'app': 'vitrine', 'indexes': [Index(fields=['app_id', 'origem', 'criado_em'])], 'pk_attr': 'id', 'table_description': 'A failed client authentication of an app from one source address.'},
        ),
        ops.AlterField(
            model_name='FalhaClienteOAuth',
            name='app_id',
            field=fields.CharField(max_length=30),
        ),
        ops.AddField(
            model_name='FalhaClienteOAuth',
            name='origem',
            field=fields.CharField(default='', max_length=45),
        ),
        ops.AddIndex(
            model_name='FalhaClienteOAuth',
            index=Index(fields=['app_id', 'origem', 'criado_em']),
        ),
        ops.RunSQL(CONCEDIDAS, ops.RunSQL.noop),
        ops.RunSQL(PAUSADAS, ops.RunSQL.noop),
        ops.RunPython(renomear_vinculadas, ops.RunPython.noop),
    ]
