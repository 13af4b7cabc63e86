"""The call log's sparse columns (error code, account, key, app) get indexes of their filled rows
only; method with endpoint get an index of their own; PostgreSQL gets extended statistics on the
tenant with the account, key and app columns (docs/desenvolvimento.md, "Listas em escala")."""

from tortoise import migrations
from tortoise.migrations import operations as ops
from graphql_api.core.indices import IndiceDosPreenchidos
from tortoise.indexes import Index

# Each account, key and app belongs to one tenant: estimated as independent columns, the rows of
# (tenant, account) come out a tenant's share too low and the planner joins and sorts two
# indexes where walking one would stop after a page. SQLite has no such statistics.
ESTATISTICAS = {
    "chamadas_inquilino_conta": "conta_id",
    "chamadas_inquilino_chave": "chave_id",
    "chamadas_inquilino_app": "client_id",
}


async def criar_estatisticas(apps, schema_editor) -> None:
    if schema_editor.client.capabilities.dialect != "postgres":
        return
    for nome, coluna in ESTATISTICAS.items():
        await schema_editor.client.execute_script(
            f'CREATE STATISTICS IF NOT EXISTS "{nome}" (dependencies, mcv) '
            f'ON "integrador_id", "{coluna}" FROM "chamadas"'
        )
    await schema_editor.client.execute_script('ANALYZE "chamadas"')


async def apagar_estatisticas(apps, schema_editor) -> None:
    if schema_editor.client.capabilities.dialect != "postgres":
        return
    for nome in ESTATISTICAS:
        await schema_editor.client.execute_script(f'DROP STATISTICS IF EXISTS "{nome}"')


class Migration(migrations.Migration):
    dependencies = [("vitrine", "0010_inspecao_do_portal")]

    initial = False

    operations = [
        ops.RemoveIndex(
            model_name="Chamada",
            name=None,
            fields=["integrador_id", "ambiente", "codigo_erro", "id"],
        ),
        ops.RemoveIndex(
            model_name="Chamada",
            name=None,
            fields=["integrador_id", "ambiente", "conta_id", "id"],
        ),
        ops.RemoveIndex(
            model_name="Chamada",
            name=None,
            fields=["integrador_id", "ambiente", "chave_id", "id"],
        ),
        ops.RemoveIndex(
            model_name="Chamada",
            name=None,
            fields=["integrador_id", "ambiente", "client_id", "id"],
        ),
        ops.AddIndex(
            model_name="Chamada",
            index=IndiceDosPreenchidos(fields=["integrador_id", "ambiente", "codigo_erro", "id"], coluna="codigo_erro"),
        ),
        ops.AddIndex(
            model_name="Chamada",
            index=IndiceDosPreenchidos(fields=["integrador_id", "ambiente", "conta_id", "id"], coluna="conta_id"),
        ),
        ops.AddIndex(
            model_name="Chamada",
            index=IndiceDosPreenchidos(fields=["integrador_id", "ambiente", "chave_id", "id"], coluna="chave_id"),
        ),
        ops.AddIndex(
            model_name="Chamada",
            index=IndiceDosPreenchidos(fields=["integrador_id", "ambiente", "client_id", "id"], coluna="client_id"),
        ),
        ops.AddIndex(
            model_name="Chamada",
            index=Index(fields=["integrador_id", "ambiente", "endpoint", "metodo", "id"]),
        ),
        ops.RunPython(criar_estatisticas, apagar_estatisticas),
    ]
