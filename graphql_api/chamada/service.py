"""The call log: every /v1 call, searchable by the integrator, with cause and fix of each error.
Bodies are kept 30 days and metadata 90 days (purged by the periodic task chamadas.expurgar)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from typing import Any

from pydantic import BaseModel, ConfigDict, StrictStr, field_validator
from pydantic_core import PydanticCustomError

from graphql_api.core.relogio import agora
from graphql_api.chamada import repository
from graphql_api.chamada.models import Chamada
from graphql_api.core.ids import encontrar, pode_existir
from graphql_api.core.errors import CATALOG, FieldError
from graphql_api.core.pagination import PageRequest, paginate
from graphql_api.core.principal import CredentialKind, Principal
from graphql_api.core.validation import tem_controle, validate

BODY_RETENTION = timedelta(days=30)
ROW_RETENTION = timedelta(days=90)
RECENT_ERRORS_WINDOW = timedelta(days=7)

STATUS_PATTERN = re.compile(r"^([1-5][0-9][0-9]|[1-5]xx)$")
CHAVE_PATTERN = re.compile(r"^(?:sk_(?:test|live)_)?([A-Za-z0-9]{12})$")
METODOS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")


def _parse_moment(value: str, *, end_of_day: bool) -> datetime:
    if len(value) == 10:
        day = date.fromisoformat(value)
        return datetime.combine(day, time.max if end_of_day else time.min, tzinfo=timezone.utc)
    moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


class FiltroChamadas(BaseModel):
    """Query filters of GET /integracao/chamadas, as strings straight from the URL."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    de: StrictStr | None = None
    ate: StrictStr | None = None
    status: StrictStr | None = None
    metodo: StrictStr | None = None
    endpoint: StrictStr | None = None
    codigoErro: StrictStr | None = None
    contaId: StrictStr | None = None
    chave: StrictStr | None = None
    ambiente: StrictStr | None = None

    @field_validator("de", "ate")
    @classmethod
    def _moment(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                _parse_moment(value, end_of_day=False)
            except ValueError:
                raise ValueError("use AAAA-MM-DD ou um timestamp ISO 8601") from None
        return value

    @field_validator("status")
    @classmethod
    def _status(cls, value: str | None) -> str | None:
        if value is not None and not STATUS_PATTERN.match(value.lower()):
            raise ValueError("use um código exato (422) ou uma classe (2xx, 4xx, 5xx)")
        return value.lower() if value else value

    @field_validator("chave")
    @classmethod
    def _chave(cls, value: str | None) -> str | None:
        if value is not None and not CHAVE_PATTERN.match(value):
            raise ValueError("use o identificador da chave, com ou sem o prefixo sk_test_/sk_live_")
        return value

    @field_validator("metodo")
    @classmethod
    def _metodo(cls, value: str | None) -> str | None:
        if value is not None and value.upper() not in METODOS:
            raise PydanticCustomError("valor_invalido", "Valores aceitos: {aceitos}.", {"aceitos": ", ".join(METODOS)})
        return value.upper() if value else value

    @field_validator("endpoint")
    @classmethod
    def _endpoint(cls, value: str | None) -> str | None:
        if value is not None and (len(value) > 200 or not value.startswith("/") or tem_controle(value)):
            raise PydanticCustomError("formato_invalido", "Use o modelo do caminho, como /galerias ou /contas/{contaId}.")
        return value

    @field_validator("codigoErro")
    @classmethod
    def _codigo_erro(cls, value: str | None) -> str | None:
        if value is not None and value not in CATALOG:
            raise PydanticCustomError("valor_invalido", "Use um tipo de erro do catálogo, como VALIDATION_FAILED.")
        return value

    @field_validator("contaId")
    @classmethod
    def _conta_id(cls, value: str | None) -> str | None:
        if value is not None and not pode_existir(value, "cta_"):
            raise PydanticCustomError("formato_invalido", "Use o id de uma conta (cta_…).")
        return value

    @field_validator("ambiente")
    @classmethod
    def _ambiente(cls, value: str | None) -> str | None:
        if value is not None and value not in ("teste", "producao"):
            raise ValueError("use teste ou producao")
        return value


def parse_filtros(raw: dict[str, Any]) -> FiltroChamadas:
    return validate(FiltroChamadas, raw)


async def listar_chamadas(
    principal: Principal, filtros: FiltroChamadas, page: PageRequest
) -> tuple[list[Chamada], str | None]:
    query = repository.of_tenant(principal.integrador_id, principal.ambiente.value)
    if filtros.ambiente and filtros.ambiente != principal.ambiente.value:
        # Each environment sees only its own calls (docs/ambientes.md).
        return [], None
    if filtros.de:
        query = query.filter(criado_em__gte=_parse_moment(filtros.de, end_of_day=False))
    if filtros.ate:
        query = query.filter(criado_em__lte=_parse_moment(filtros.ate, end_of_day=True))
    if filtros.status:
        if filtros.status.endswith("xx"):
            base = int(filtros.status[0]) * 100
            query = query.filter(status__gte=base, status__lt=base + 100)
        else:
            query = query.filter(status=int(filtros.status))
    if filtros.metodo:
        query = query.filter(metodo=filtros.metodo)
    if filtros.endpoint:
        query = query.filter(endpoint=filtros.endpoint.removeprefix("/v1"))
    if filtros.codigoErro:
        query = query.filter(codigo_erro=filtros.codigoErro)
    if filtros.contaId:
        query = query.filter(conta_id=filtros.contaId)
    if filtros.chave:
        query = query.filter(chave_id=CHAVE_PATTERN.match(filtros.chave).group(1))
    return await paginate(query, page)


async def endpoints_chamadas(principal: Principal) -> list[str]:
    """The endpoint templates the tenant's call log holds: what its endpoint filter can match,
    whichever door took the calls."""
    return await repository.endpoints(repository.of_tenant(principal.integrador_id, principal.ambiente.value))


async def obter_chamada(principal: Principal, request_id: str) -> Chamada:
    return await encontrar(request_id, "req_", repository.of_tenant(principal.integrador_id, principal.ambiente.value).filter(id=request_id).first,
                           f"Chamada {request_id} não encontrada neste ambiente.")


@dataclass(frozen=True, slots=True)
class ErroRecente:
    tipo: str
    total: int
    ultima_ocorrencia: datetime
    ultimo_request_id: str


async def erros_recentes(principal: Principal, *, now: datetime | None = None) -> list[ErroRecente]:
    """The caller's own errors of the last 7 days grouped by type. An OAuth token sees only the
    calls made with its grant on its linked account."""
    since = (now or agora()) - RECENT_ERRORS_WINDOW
    query = repository.of_tenant(principal.integrador_id, principal.ambiente.value).filter(criado_em__gte=since)
    if principal.kind is CredentialKind.OAUTH:
        query = query.filter(credencial=CredentialKind.OAUTH.value, conta_id=principal.conta_id)
    rows = await repository.errors_grouped(query)
    return [
        ErroRecente(r["codigo_erro"], r["total"], r["ultima_em"], r["ultimo_id"])
        for r in rows
        if r["codigo_erro"] in CATALOG
    ]


async def expurgar(now: datetime | None = None) -> tuple[int, int]:
    """Drop bodies older than 30 days and whole records older than 90 days."""
    now = now or agora()
    return await repository.purge(now - BODY_RETENTION, now - ROW_RETENTION)


def body_as_json(text: str | None) -> Any:
    """A stored body as JSON when it parses (it was cut otherwise), else the text itself."""
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return text
