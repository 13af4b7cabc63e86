"""Filters of the call log, as strings straight from the URL, and their rules."""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, StrictStr, field_validator
from pydantic_core import PydanticCustomError

from graphql_api.core.errors import CATALOG
from graphql_api.core.ids import pode_existir
from graphql_api.core.momentos import momento_valido, parse_moment
from graphql_api.core.validation import tem_controle, valores_aceitos

STATUS_PATTERN = re.compile(r"^([1-5][0-9][0-9]|[1-5]xx)$")
CHAVE_PATTERN = re.compile(r"^(?:sk_(?:test|live)_)?([A-Za-z0-9]{12})$")
METODOS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")


__all__ = ["CHAVE_PATTERN", "METODOS", "STATUS_PATTERN", "FiltroChamadas", "parse_moment"]


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
    clientId: StrictStr | None = None

    @field_validator("de", "ate")
    @classmethod
    def _moment(cls, value: str | None) -> str | None:
        return momento_valido(value)

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
            raise PydanticCustomError("valor_invalido", valores_aceitos(METODOS))
        return value.upper() if value else value

    @field_validator("endpoint")
    @classmethod
    def _endpoint(cls, value: str | None) -> str | None:
        if value is not None and (len(value) > 200 or not value.startswith("/") or tem_controle(value)):
            raise PydanticCustomError(
                "formato_invalido", "Use o modelo do caminho, como /galerias ou /contas/{contaId}."
            )
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

    @field_validator("clientId")
    @classmethod
    def _client_id(cls, value: str | None) -> str | None:
        if value is not None and not pode_existir(value, "app_"):
            raise PydanticCustomError("formato_invalido", "Use o client_id de um aplicativo OAuth (app_…).")
        return value

    @field_validator("ambiente")
    @classmethod
    def _ambiente(cls, value: str | None) -> str | None:
        if value is not None and value not in ("teste", "producao"):
            raise ValueError("use teste ou producao")
        return value
