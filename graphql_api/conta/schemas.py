"""Inputs of the account operations: their shapes and rules (validated by the service, turned
into GraphQL inputs by the schema)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, StrictStr

from graphql_api.core.validation import linha


class NovaConta(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    codigoExterno: Annotated[StrictStr, linha(100, 1)]
    nome: Annotated[StrictStr, linha(200, 1)]


Origem = Literal["subconta", "vinculada"]
SituacaoConta = Literal["ativa", "pausada"]


class FiltroContas(BaseModel):
    """Filters of the account list (GET /contas)."""

    model_config = ConfigDict(extra="forbid")

    codigoExterno: Annotated[StrictStr, linha(100, 1)] | None = None
    origem: Origem | None = None
    situacao: SituacaoConta | None = None
