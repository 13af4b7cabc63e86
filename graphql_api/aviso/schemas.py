"""Inputs of the notice operations: an address, a secret rotation, a test run."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlsplit, urlunsplit

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, StrictStr, field_validator
from pydantic_core import PydanticCustomError

from graphql_api.core.validation import HTTPS_URL_SCHEMA, linha, numero, texto_livre
from graphql_api.evento.catalog import EVENT_TYPES

MAX_URL = 2048
CARENCIA_PADRAO_HORAS = 24
CARENCIA_MAX_HORAS = 7 * 24


def _conhecidos(eventos: list[str]) -> list[str]:
    """Known event names, each once, in the order given."""
    unknown = [e for e in eventos if e not in EVENT_TYPES]
    if unknown:
        raise PydanticCustomError(
            "valor_invalido",
            "Eventos desconhecidos: {unknown}. Aceitos: {aceitos}.",
            {"unknown": ", ".join(unknown), "aceitos": ", ".join(EVENT_TYPES)},
        )
    return list(dict.fromkeys(eventos))


class NovoAviso(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    url: Annotated[StrictStr, linha(MAX_URL, 1), Field(json_schema_extra=HTTPS_URL_SCHEMA)]
    eventos: list[Annotated[StrictStr, Field(json_schema_extra={"enum": list(EVENT_TYPES)})]] = Field(
        min_length=1, max_length=len(EVENT_TYPES)
    )

    @field_validator("url")
    @classmethod
    def _https(cls, url: str) -> str:
        try:
            parts = urlsplit(url)
        except ValueError:
            raise PydanticCustomError("formato_invalido", "URL inválida.") from None
        if parts.scheme.lower() != "https":
            raise PydanticCustomError("url_nao_https", "A URL precisa usar https://.")
        if not parts.hostname or parts.username or parts.password or parts.fragment:
            raise PydanticCustomError(
                "formato_invalido", "Use https://servidor/caminho, sem usuário, senha nem #fragmento."
            )
        # Scheme and host are case-insensitive: normalise them so a url is registered once.
        host = parts.hostname.lower()
        netloc = (f"[{host}]" if ":" in host else host) + (f":{parts.port}" if parts.port else "")
        return urlunsplit(("https", netloc, parts.path or "/", parts.query, ""))

    _known = field_validator("eventos", mode="after")(_conhecidos)


class Rotacao(BaseModel):
    model_config = ConfigDict(extra="forbid")

    carenciaHoras: StrictInt = Field(default=CARENCIA_PADRAO_HORAS, ge=0, le=CARENCIA_MAX_HORAS)


class PedidoTeste(BaseModel):
    model_config = ConfigDict(extra="forbid")

    avisoId: StrictStr | None = None


# -- listening sessions (vitrine-cli listen) and sample events (vitrine-cli trigger) -------------

EventoNome = Annotated[StrictStr, Field(json_schema_extra={"enum": list(EVENT_TYPES)})]
RESPOSTA_MAX = 1024  # characters of a local answer kept, as for a registered address


class NovaEscuta(BaseModel):
    """Opening a listening session: the event types it receives (none listed: every one)."""

    model_config = ConfigDict(extra="forbid")

    eventos: list[EventoNome] = Field(default_factory=list, max_length=len(EVENT_TYPES))

    _known = field_validator("eventos", mode="after")(_conhecidos)


class ResultadoEscuta(BaseModel):
    """What the local address answered to one forwarded delivery, as the command saw it."""

    model_config = ConfigDict(extra="forbid")

    status: Annotated[StrictInt, Field(ge=100, le=599)] | None = None  # None: no answer came
    duracaoMs: Annotated[StrictInt | StrictFloat, numero(0, 3_600_000)]
    resposta: Annotated[StrictStr, texto_livre(RESPOSTA_MAX)] | None = None
    erro: Annotated[StrictStr, linha(300)] | None = None


class Disparo(BaseModel):
    """A sample event to emit in the test environment."""

    model_config = ConfigDict(extra="forbid")

    tipo: EventoNome

    @field_validator("tipo", mode="after")
    @classmethod
    def _known(cls, tipo: str) -> str:
        return _conhecidos([tipo])[0]
