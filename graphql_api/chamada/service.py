"""The call log: every /v1 call, searchable by the integrator, with cause and fix of each error.
Bodies are kept 30 days and metadata 90 days (purged by the periodic task chamadas.expurgar)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from tortoise.queryset import QuerySet

from graphql_api.chamada import repository
from graphql_api.chamada.models import Chamada
from graphql_api.chamada.schemas import CHAVE_PATTERN, FiltroChamadas, parse_moment
from graphql_api.core.errors import CATALOG
from graphql_api.core.ids import FOLGA_DO_MOMENTO, encontrar, id_do_momento
from graphql_api.core.json_body import MAX_DEPTH
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
    return await paginate(consulta_chamadas(principal, filtros), page)


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


def consulta_chamadas(principal: Principal, filtros: FiltroChamadas) -> QuerySet[Chamada]:
    """The call log's list query, before its page. Each filter is an equality on one column that
    has its own index (tenant, column, id), and a date is an id range: the page is read in id
    order off a filter's index, and stops after `limite` rows
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
    # Each filter has its index; with two, the planner picks one (SQLite) or combines both
    # (PostgreSQL's bitmap AND). bench/escala.py measures the pairs this leaves slow.
    return query.filter(**termos)


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
    """A stored body as JSON when it parses (it was cut otherwise) and any JSON writer can write
    it back, else the text itself: a hostile body the facade refused (nested past MAX_DEPTH, a
    lone surrogate \ud800) is shown as it was sent."""
    if text is None:
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return text
    return value if _writable(value) else text


def _writable(value: Any) -> bool:
    """Nested at most MAX_DEPTH levels, and every string is text (encodable as UTF-8). Iterative."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)) and depth >= MAX_DEPTH:
            return False
        if isinstance(item, dict):
            stack.extend((k, depth + 1) for k in item)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
        elif isinstance(item, str) and not item.isascii():
            try:
                item.encode()
            except UnicodeEncodeError:
                return False
    return True
