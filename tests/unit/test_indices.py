"""Every list reads its page off an index, on both back ends: the query each list runs, with each
filter alone and in pairs, at the first page and deep, is EXPLAINed, and the plan may not scan a
table nor sort the tenant's rows. A plan that passes here costs `limite` index entries however
long the tenant's history is (bench/escala.py measures it at ten million calls).

PostgreSQL is asked with sequential scans, bitmap scans and sorts switched off: on a test's tiny
tables the planner would rightly prefer a scan, and what matters is that an index path exists.
SQLite has no such switch, and needs none: its planner prefers the index with the most
equalities that also gives the order."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import re
import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import pytest
from tortoise.functions import Count, Max
from tortoise.transactions import in_transaction

from graphql_api.aviso.entregas import consulta_entregas
from graphql_api.chamada import repository as chamadas_repo
from graphql_api.chamada.models import Chamada
from graphql_api.chamada.schemas import FiltroChamadas
from graphql_api.chamada.service import consulta_chamadas
from graphql_api.conta.models import Conta
from graphql_api.conta.schemas import FiltroContas
from graphql_api.conta.service import consulta_contas
from graphql_api.core.ids import new_id
from graphql_api.core.pagination import PageRequest, consulta_da_pagina
from graphql_api.core.principal import Ambiente, CredentialKind, Principal
from graphql_api.core.transactions import MAIN_CONNECTION
from graphql_api.creditos.schemas import FiltroExtrato
from graphql_api.creditos.service import consulta_extrato
from graphql_api.geracao import repository as geracoes_repo
from graphql_api.produto.service import consulta_produtos
from tests.harness import migrated_sqlite_database

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("client")  # the app is up: the run's database, migrated

INTEGRADOR = "int_" + "0" * 26


def principal() -> Principal:
    return Principal(CredentialKind.API_KEY, Ambiente.TESTE, frozenset(), integrador_id=INTEGRADOR, chave_id="a" * 12)


# The plans are asked of a database of their own, migrated and never analyzed: the run's database
# holds the other tests' rows, and PostgreSQL's statistics of a few hundred rows rightly prefer
# walking them; what is checked here is that the index path exists and orders the page.
_VAZIO: dict[str, str] = {}


@pytest.fixture(scope="module", autouse=True)
def banco_vazio(tmp_path_factory):
    env = dict(os.environ, VITRINE_DATA_DIR=str(tmp_path_factory.mktemp("planos")))
    url = os.environ.get("VITRINE_DATABASE_URL", "")
    if url.startswith("postgres"):
        base, nome = url.rsplit("/", 1)
        env["VITRINE_DATABASE_URL"] = _VAZIO["postgres"] = f"{base}/{nome}_planos"
        _a_parte(_pg(f"{base}/postgres", f'CREATE DATABASE "{nome}_planos"'))
        subprocess.run([sys.executable, "-m", "vitrine", "migrate"], env=env, check=True, capture_output=True, cwd=ROOT)
    else:
        _VAZIO["sqlite"] = str(migrated_sqlite_database(Path(env["VITRINE_DATA_DIR"])) / "vitrine.sqlite3")
    yield
    if "postgres" in _VAZIO:
        _a_parte(_pg(f"{base}/postgres", f'DROP DATABASE IF EXISTS "{nome}_planos" WITH (FORCE)'))


def _a_parte(corrotina) -> None:
    """Run it on a thread of its own: asyncio.run here would unset the loop the tests share."""
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, corrotina).result()


async def _pg(url: str, sql: str, *valores):
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        return await conn.fetch(sql, *valores)
    finally:
        await conn.close()


async def plano(query, valores: list | None = None, *, sem_ordenar: bool = True, vazio: bool = True) -> list[str]:
    """One line per plan node: 'SCAN t', 'SEARCH t USING INDEX i (a=? AND b=?)', 'SORT', ... in
    both dialects' words mapped onto SQLite's. `query`: a query set, or SQL with its `valores`.
    `vazio`: asked of the never-analyzed database (False: the run's own, with its rows)."""
    if not isinstance(query, str):  # the very SQL and values the query set would send
        query._choose_db_if_not_chosen()
        query._make_query()
        query, valores = query.query.get_parameterized_sql()
    sql, valores = query, list(valores or [])
    if vazio and "sqlite" in _VAZIO:
        with sqlite3.connect(_VAZIO["sqlite"]) as conn:
            valores = [str(v) if isinstance(v, datetime) else v for v in valores]
            return [row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql, valores)]
    if vazio and "postgres" in _VAZIO:
        import asyncpg

        conn = await asyncpg.connect(_VAZIO["postgres"])
        try:
            async with conn.transaction():
                for switch in ("enable_seqscan", "enable_bitmapscan", *(["enable_sort"] if sem_ordenar else [])):
                    await conn.execute(f"SET LOCAL {switch} = off")
                document = await conn.fetchval("EXPLAIN (FORMAT JSON) " + sql, *valores)
        finally:
            await conn.close()
        return list(_nodes((json.loads(document) if isinstance(document, str) else document)[0]["Plan"]))
    async with in_transaction(MAIN_CONNECTION) as conn:
        if conn.capabilities.dialect == "sqlite":
            _, rows = await conn.execute_query("EXPLAIN QUERY PLAN " + sql, valores)
            return [row["detail"] for row in rows]
        for switch in ("enable_seqscan", "enable_bitmapscan", *(["enable_sort"] if sem_ordenar else [])):
            await conn.execute_script(f"SET LOCAL {switch} = off")
        _, rows = await conn.execute_query("EXPLAIN (FORMAT JSON) " + sql, valores)
    document = rows[0]["QUERY PLAN"]
    return list(_nodes((json.loads(document) if isinstance(document, str) else document)[0]["Plan"]))


def dialeto() -> str:
    return Chamada._meta.db.capabilities.dialect


def _nodes(node: dict):
    kind = node["Node Type"]
    if kind in ("Index Scan", "Index Only Scan"):
        yield f"SEARCH {node['Relation Name']} USING INDEX {node['Index Name']} ({node.get('Index Cond', '')})"
    elif kind in ("Seq Scan", "Bitmap Heap Scan"):
        yield f"SCAN {node['Relation Name']}"
    elif kind in ("Sort", "Incremental Sort"):
        yield "SORT"
    for child in node.get("Plans", []):
        yield from _nodes(child)


def exigir_indice(linhas: list[str], tabela: str, colunas: tuple[str, ...], *, ordena: bool = True) -> None:
    """The plan reads `tabela` off an index whose conditions name every column of `colunas`, and
    scans no table; `ordena`: the rows come in the index's order (no sort, no temporary b-tree)."""
    texto = "\n".join(linhas)
    assert not [linha for linha in linhas if linha.startswith("SCAN ")], texto
    if ordena:
        assert not [linha for linha in linhas if linha == "SORT" or "TEMP B-TREE" in linha], texto
    buscas = [linha for linha in linhas if re.match(rf"SEARCH {tabela} USING (COVERING )?INDEX", linha)]
    assert buscas, texto
    condicoes = buscas[0].split("(", 1)[1] if "(" in buscas[0] else ""
    faltam = [c for c in colunas if not re.search(rf"\b{c}\b", condicoes)]
    assert not faltam, f"{faltam} not in the index conditions:\n{texto}"


# The call log's filters, each with the column its index adds after the tenant.
FILTROS_CHAMADAS = {
    "de": ({"de": "2026-11-01"}, "id"),
    "ate": ({"ate": "2026-11-20"}, "id"),
    "status": ({"status": "422"}, "status"),
    "classe": ({"status": "5xx"}, "classe_status"),
    "metodo": ({"metodo": "DELETE"}, "metodo"),
    "endpoint": ({"endpoint": "/galerias"}, "endpoint"),
    "codigoErro": ({"codigoErro": "INTERNAL_ERROR"}, "codigo_erro"),
    "contaId": ({"contaId": new_id("cta_")}, "conta_id"),
    "chave": ({"chave": "sk_test_" + "b" * 12}, "chave_id"),
    "clientId": ({"clientId": new_id("app_")}, "client_id"),
}
PAGINAS = {"primeira": PageRequest(50), "funda": PageRequest(50, new_id("req_"))}


@pytest.mark.parametrize("pagina", PAGINAS)
@pytest.mark.parametrize("nome", [None, *FILTROS_CHAMADAS])
async def test_chamadas_com_um_filtro_leem_o_indice_do_filtro(nome, pagina):
    filtros, coluna = FILTROS_CHAMADAS[nome] if nome else ({}, None)
    query = consulta_da_pagina(consulta_chamadas(principal(), FiltroChamadas(**filtros)), PAGINAS[pagina])
    linhas = await plano(query)
    colunas = ("integrador_id", "ambiente", *filter(None, [coluna]), *(["id"] if pagina == "funda" else []))
    exigir_indice(linhas, "chamadas", colunas)


PARES = [
    (a, b)
    for a, b in itertools.combinations(FILTROS_CHAMADAS, 2)
    if {a, b} != {"status", "classe"}  # one filter, two forms
    and {a, b} != {"chave", "clientId"}  # never both: an empty range (below)
]


async def test_chave_e_app_juntos_sao_uma_busca_vazia():
    filtros = FiltroChamadas(chave="sk_test_" + "b" * 12, clientId=new_id("app_"))
    linhas = await plano(consulta_da_pagina(consulta_chamadas(principal(), filtros), PAGINAS["primeira"]))
    exigir_indice(linhas, "chamadas", ("integrador_id", "ambiente", "id"))


async def test_erros_recentes_contam_so_a_janela_pelo_indice_do_codigo():
    since = datetime(2026, 11, 1, tzinfo=UTC)
    query = chamadas_repo.of_tenant(INTEGRADOR, "teste").filter(codigo_erro__in=["INTERNAL_ERROR", "NOT_FOUND"])
    query = query.filter(id__gte=new_id("req_"), criado_em__gte=since)
    grouped = (
        query.annotate(total=Count("id"), ultimo_id=Max("id"), ultima_em=Max("criado_em"))
        .group_by("codigo_erro")
        .values("codigo_erro", "total", "ultimo_id", "ultima_em")
    )
    linhas = await plano(grouped)
    # The window's errors by their code, or the window's calls: which one, the statistics decide.
    exigir_indice(linhas, "chamadas", ("integrador_id", "ambiente", "(codigo_erro|id)"))


async def test_juizes_contam_so_a_janela():
    since = datetime(2026, 11, 1, tzinfo=UTC)
    janela = chamadas_repo.janela(INTEGRADOR, "teste", since)
    for query in (janela, janela.filter(classe_status__in=(4, 5))):
        linhas = await plano(query.count())
        exigir_indice(linhas, "chamadas", ("integrador_id", "ambiente", "id"), ordena=False)


async def test_endpoints_do_registro_saltam_pelo_indice():
    linhas = await plano(*chamadas_repo.consulta_endpoints(dialeto(), INTEGRADOR, "teste"))
    # The first seek, then one per value, each past the previous one.
    assert not [linha for linha in linhas if re.match(r"SCAN (chamadas|c)\b", linha)], linhas
    buscas = [linha for linha in linhas if re.match(r"SEARCH (chamadas|c)\b", linha)]
    assert len(buscas) == 2 and re.search(r"endpoint ?> ?", buscas[1]), linhas


@pytest.mark.parametrize("pagina", PAGINAS)
@pytest.mark.parametrize(
    ("filtros", "colunas"), [({}, ()), ({"origem": "vinculada"}, ("origem",)), ({"situacao": "pausada"}, ("situacao",))]
)
async def test_contas_leem_o_indice_do_filtro(filtros, colunas, pagina):
    page = PageRequest(50, new_id("cta_") if pagina == "funda" else None)
    linhas = await plano(consulta_da_pagina(consulta_contas(principal(), FiltroContas(**filtros)), page))
    exigir_indice(linhas, "contas", ("integrador_id", "ambiente", *colunas, *(["id"] if page.cursor else [])))


async def test_conta_por_codigo_externo_e_uma_busca(integrator):
    # The unique (tenant, codigo_externo) index finds the one row; sorting it is free. On empty
    # tables PostgreSQL cannot tell that from walking the tenant's ids: it is asked with a few
    # hundred accounts and fresh statistics, sorting allowed.
    await Conta.bulk_create(
        [
            Conta(
                id=new_id("cta_"),
                integrador_id=integrator.id,
                ambiente="teste",
                codigo_externo=f"loja-{n}",
                nome="Loja",
            )
            for n in range(300)
        ]
    )
    await Conta._meta.db.execute_script("ANALYZE contas")
    dono = Principal(CredentialKind.API_KEY, Ambiente.TESTE, frozenset(), integrador_id=integrator.id)
    query = consulta_da_pagina(consulta_contas(dono, FiltroContas(codigoExterno="loja-7")), PageRequest(50))
    linhas = await plano(query, sem_ordenar=False, vazio=False)
    exigir_indice(linhas, "contas", ("integrador_id", "ambiente", "codigo_externo"), ordena=False)


@pytest.mark.parametrize("pagina", PAGINAS)
@pytest.mark.parametrize("situacao", [None, "aprovado"])
async def test_produtos_de_uma_conta_leem_o_indice(situacao, pagina):
    page = PageRequest(50, new_id("prd_") if pagina == "funda" else None)
    query = consulta_da_pagina(consulta_produtos(principal(), new_id("cta_"), situacao), page)
    linhas = await plano(query)
    colunas = ("conta_id", *([situacao and "situacao"] if situacao else []), *(["id"] if page.cursor else []))
    exigir_indice(linhas, "produtos", colunas)


EXTRATO = {
    "nenhum": ({}, "carteira_id"),
    "tipo": ({"tipo": "captura"}, "tipo"),
    "de": ({"de": "2026-11-01"}, "id"),
    "ate": ({"ate": "2026-11-20"}, "id"),
    "tipo_e_datas": ({"tipo": "reserva", "de": "2026-11-01", "ate": "2026-11-20"}, "(tipo|id)"),
    "geracao": ({"geracaoId": new_id("ger_")}, "geracao_id"),
}


@pytest.mark.parametrize("pagina", PAGINAS)
@pytest.mark.parametrize("nome", EXTRATO)
async def test_extrato_le_o_indice_do_filtro(nome, pagina):
    filtros, coluna = EXTRATO[nome]
    page = PageRequest(50, new_id("lan_") if pagina == "funda" else None)
    query = consulta_da_pagina(consulta_extrato(1, FiltroExtrato(**filtros)), page)
    linhas = await plano(query)
    exigir_indice(linhas, "lancamentos", ("carteira_id", coluna))


@pytest.mark.parametrize("pagina", PAGINAS)
@pytest.mark.parametrize("situacao", [None, "falhou"])
async def test_entregas_de_um_endereco_leem_o_indice(situacao, pagina):
    page = PageRequest(50, new_id("ent_") if pagina == "funda" else None)
    linhas = await plano(consulta_da_pagina(consulta_entregas(new_id("avs_"), situacao), page))
    exigir_indice(linhas, "aviso_entregas", ("aviso_id",) + (("situacao",) if situacao else ()))


@pytest.mark.parametrize("produto", [False, True])
async def test_geracoes_leem_o_indice(produto):
    query = geracoes_repo.of_caller(principal(), produto_id=new_id("prd_") if produto else None)
    linhas = await plano(consulta_da_pagina(query, PageRequest(50, new_id("ger_"))))
    exigir_indice(linhas, "geracoes", ("integrador_id", "ambiente", *(["produto_id"] if produto else [])))
