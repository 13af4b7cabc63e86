"""The call log: every /v1 call, searchable by the integrator, with cause and fix of each error.
Bodies are kept 30 days and metadata 90 days (purged by the periodic task chamadas.expurgar)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from tortoise.expressions import RawSQL
from tortoise.queryset import QuerySet

from graphql_api.chamada import repository
from graphql_api.chamada.models import Chamada
from graphql_api.chamada.schemas import CHAVE_PATTERN, FiltroChamadas, parse_moment
from graphql_api.core.errors import CATALOG
from graphql_api.core.ids import FOLGA_DO_MOMENTO, encontrar, id_do_momento
from graphql_api.core.pagination import PageRequest, paginate
from graphql_api.core.principal import CredentialKind, Principal
from graphql_api.core.purge import Purge
from graphql_api.core.relogio import agora
from graphql_api.core.validation import validate

BODY_RETENTION = timedelta(days=30)
ROW_RETENTION = timedelta(days=90)
RECENT_ERRORS_WINDOW = timedelta(days=7)


def parse_filtros(raw: dict[str, Any]) -> FiltroChamadas:
    return validate(FiltroChamadas, raw)


async def listar_chamadas(
    principal: Principal, filtros: FiltroChamadas, page: PageRequest
) -> tuple[list[Chamada], str | None]:
    if filtros.ambiente and filtros.ambiente != principal.ambiente.value:
        # Each environment sees only its own calls (docs/ambientes.md).
        return [], None
    termos = _termos(filtros)
    guiar = len(termos) > 1 and Chamada._meta.db.capabilities.dialect == "sqlite"
    ordem = await _ordem_medida(principal, filtros, termos) if guiar else None
    return await paginate(consulta_chamadas(principal, filtros, ordem=ordem), page)


# On SQLite, with two filters or more, each is counted on its own index up to this many rows, and
# the one that keeps fewest drives the page. Bounded work (a count stops here), whatever the history.
CONTAGEM_MAXIMA = 300


async def _ordem_medida(principal: Principal, filtros: FiltroChamadas, termos: dict[str, object]) -> list[str]:
    base = consulta_chamadas(principal, filtros.model_copy(update={c: None for c in _CAMPOS.values()}))
    contagens = {}
    for coluna, valor in termos.items():
        linhas = await base.filter(**{coluna: valor}).limit(CONTAGEM_MAXIMA).only("id")
        contagens[coluna] = len(linhas)
    return sorted(termos, key=lambda coluna: (contagens[coluna], _seletividade(coluna, termos[coluna])))


# How much of a tenant's log a filter keeps, as traffic goes (lower: fewer rows): one account, an
# error type or an app is a sliver; a method or a 2xx answer is most of it. The most selective
# filter of a query drives the page off its own index; no database's statistics can tell that a
# column nearly all NULL (codigo_erro) is selective, or that two filters rarely meet.
_DENSOS = {"status": (200, 201, 204), "classe_status": (2,), "metodo": ("GET", "POST", "PUT")}
_ORDEM = ("conta_id", "codigo_erro", "client_id", "status", "classe_status", "metodo", "endpoint", "chave_id")
# The others are checked on the rows the driving index yields, written as expressions (a column
# inside an expression has no index, in either database), so no planner walks their index instead.
_SEM_INDICE = {
    "status": '"status" + 0',
    "classe_status": '"classe_status" + 0',
    **{
        coluna: f"\"{coluna}\" || ''"
        for coluna in ("metodo", "endpoint", "codigo_erro", "conta_id", "chave_id", "client_id")
    },
}


def _seletividade(coluna: str, valor: object) -> tuple[int, int]:
    return (valor in _DENSOS.get(coluna, ()), _ORDEM.index(coluna))


# The filter fields of FiltroChamadas that are equalities on a column (dates are ranges).
_CAMPOS = {
    "status": "status",
    "metodo": "metodo",
    "endpoint": "endpoint",
    "codigoErro": "codigo_erro",
    "contaId": "conta_id",
    "chave": "chave_id",
    "clientId": "client_id",
}


def _termos(filtros: FiltroChamadas) -> dict[str, object]:
    termos: dict[str, object] = {}
    if filtros.status:
        if filtros.status.endswith("xx"):
            termos["classe_status"] = int(filtros.status[0])
        else:
            termos["status"] = int(filtros.status)
    if filtros.metodo:
        termos["metodo"] = filtros.metodo
    if filtros.endpoint:
        termos["endpoint"] = filtros.endpoint.removeprefix("/v1")
    if filtros.codigoErro:
        termos["codigo_erro"] = filtros.codigoErro
    if filtros.contaId:
        termos["conta_id"] = filtros.contaId
    if filtros.chave:
        chave = CHAVE_PATTERN.match(filtros.chave)
        assert chave is not None  # FiltroChamadas accepted only what the pattern matches
        termos["chave_id"] = chave.group(1)
    if filtros.clientId:
        termos["client_id"] = filtros.clientId
    return termos


def consulta_chamadas(
    principal: Principal, filtros: FiltroChamadas, *, ordem: list[str] | None = None
) -> QuerySet[Chamada]:
    """The call log's list query, before its page. Each filter is an equality on one column that
    has its own index (tenant, column, id), and a date is an id range: the page is read in id
    order off the most selective filter's index, and stops after `limite` rows
    (tests/unit/test_indices.py checks every filter and pair with EXPLAIN; bench/escala.py times
    them at ten million calls)."""
    query = repository.of_tenant(principal.integrador_id, principal.ambiente.value)
    if filtros.de:
        inicio = parse_moment(filtros.de, end_of_day=False)
        query = query.filter(id__gte=id_do_momento("req_", inicio, -FOLGA_DO_MOMENTO), criado_em__gte=inicio)
    if filtros.ate:
        fim = parse_moment(filtros.ate, end_of_day=True)
        query = query.filter(id__lt=id_do_momento("req_", fim, FOLGA_DO_MOMENTO), criado_em__lte=fim)
    termos = _termos(filtros)
    if "chave_id" in termos and "client_id" in termos:
        # A call is made with a key or by an app, never both: an empty id range, one index seek.
        return query.filter(id__lt="req_")
    if Chamada._meta.db.capabilities.dialect != "sqlite":
        # PostgreSQL combines two filters' indexes (a bitmap AND) and reads only their common
        # rows: bench/escala.py measured it far better than steering it (a forced walk of one
        # index cost 1-2 s at ten million calls when the two filters rarely meet).
        return query.filter(**termos)
    # SQLite uses one index per query, chosen by statistics that cannot tell a column nearly all
    # NULL is selective: the service names the index. `ordem`: measured by listar_chamadas;
    # without it, the typical order of traffic.
    ordem = ordem or sorted(termos, key=lambda coluna: _seletividade(coluna, termos[coluna]))
    for n, coluna in enumerate(ordem):
        if n == 0:
            query = query.filter(**{coluna: termos[coluna]})
        else:
            query = query.annotate(**{f"_{coluna}": RawSQL(_SEM_INDICE[coluna])}).filter(
                **{f"_{coluna}": termos[coluna]}
            )
    return query


async def endpoints_chamadas(principal: Principal) -> list[str]:
    """The endpoint templates the tenant's call log holds: what its endpoint filter can match,
    whichever door took the calls."""
    return await repository.endpoints(principal.integrador_id, principal.ambiente.value)


async def apps_chamadas(principal: Principal) -> list[AppDoRegistro]:
    """The integrator's OAuth apps of the environment, disabled ones too (their calls stay in
    the log): what the call log's filter by app offers."""
    rows = await repository.apps(principal.integrador_exigido, principal.ambiente.value)
    return [AppDoRegistro(client_id=r["id"], nome=r["nome"], ativo=r["situacao"] == "ativo") for r in rows]


async def obter_chamada(principal: Principal, request_id: str) -> Chamada:
    return await encontrar(
        request_id,
        "req_",
        repository.of_tenant(principal.integrador_id, principal.ambiente.value).filter(id=request_id).first,
        f"Chamada {request_id} não encontrada neste ambiente.",
    )


@dataclass(frozen=True, slots=True)
class AppDoRegistro:
    client_id: str
    nome: str
    ativo: bool


@dataclass(frozen=True, slots=True)
class ErroRecente:
    tipo: str
    total: int
    ultima_ocorrencia: datetime
    ultimo_request_id: str


async def erros_recentes(principal: Principal, *, now: datetime | None = None) -> list[ErroRecente]:
    """The caller's own errors of the last 7 days grouped by type. An OAuth token sees only the
    calls its app made on its linked account. Read off the (tenant, codigo_erro, id) index, one
    range per error type of the catalog: the cost is the window's errors, not the history."""
    since = (now or agora()) - RECENT_ERRORS_WINDOW
    query = repository.of_tenant(principal.integrador_id, principal.ambiente.value).filter(
        codigo_erro__in=sorted(CATALOG), id__gte=id_do_momento("req_", since, -FOLGA_DO_MOMENTO), criado_em__gte=since
    )
    if principal.kind is CredentialKind.OAUTH:
        query = query.filter(
            credencial=CredentialKind.OAUTH.value, client_id=principal.client_id, conta_id=principal.conta_id
        )
    rows = await repository.errors_grouped(query)
    return [ErroRecente(r["codigo_erro"], r["total"], r["ultima_em"], r["ultimo_id"]) for r in rows]


async def expurgar(now: datetime | None = None, purge: Purge | None = None) -> tuple[int, int]:
    """Drop bodies older than 30 days and whole records older than 90 days, in bounded batches
    (graphql_api/core/purge.py); (bodies emptied, records removed). A run that reaches its
    budget leaves `purge.finished` false, and the next one goes on from there."""
    now = now or agora()
    return await repository.purge(purge or Purge(), now - BODY_RETENTION, now - ROW_RETENTION)


def body_as_json(text: str | None) -> Any:
    """A stored body as JSON when it parses (it was cut otherwise), else the text itself."""
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return text
