"""Inputs of the notice operations: an address, a secret rotation, a test run."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlsplit, urlunsplit

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, field_validator
from pydantic_core import PydanticCustomError

from graphql_api.core.validation import HTTPS_URL_SCHEMA, linha
from graphql_api.evento.catalog import EVENT_TYPES

MAX_URL = 2048
CARENCIA_PADRAO_HORAS = 24
CARENCIA_MAX_HORAS = 7 * 24


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

    @field_validator("eventos", mode="after")
    @classmethod
    def _known(cls, eventos: list[str]) -> list[str]:
        unknown = [e for e in eventos if e not in EVENT_TYPES]
        if unknown:
            raise PydanticCustomError(
                "valor_invalido",
                "Eventos desconhecidos: {unknown}. Aceitos: {aceitos}.",
                {"unknown": ", ".join(unknown), "aceitos": ", ".join(EVENT_TYPES)},
            )
        return list(dict.fromkeys(eventos))


class Rotacao(BaseModel):
    model_config = ConfigDict(extra="forbid")

    carenciaHoras: StrictInt = Field(default=CARENCIA_PADRAO_HORAS, ge=0, le=CARENCIA_MAX_HORAS)


class PedidoTeste(BaseModel):
    model_config = ConfigDict(extra="forbid")

    avisoId: StrictStr | None = None
