"""The single-package catalogue, loaded from graphql_api/recarga/pacotes.json (data, not code)."""

from tortoise import migrations
from tortoise.migrations import operations as ops

from graphql_api.recarga import catalogo


async def carregar_pacotes(apps, schema_editor) -> None:
    await catalogo.carregar(schema_editor.client)


class Migration(migrations.Migration):
    dependencies = [("vitrine", "0007_cobranca")]

    initial = False

    operations = [ops.RunPython(carregar_pacotes, ops.RunPython.noop)]
