"""Inputs of the purchase operations: their shapes and rules (validated by the service, turned
into GraphQL inputs by the schema), and the body of a payment provider's confirmation."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, StrictStr

from graphql_api.core.validation import linha

SituacaoRecarga = Literal["pendente", "paga", "recusada", "expirada"]
ResultadoPagamento = Literal["paga", "recusada"]


class NovaRecarga(BaseModel):
    """Body of POST /recargas: the package to buy, by its codigo (GET /pacotes)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    pacote: Annotated[StrictStr, linha(40, 1)]


class FiltroRecargas(BaseModel):
    """Filters of the purchase list (GET /recargas)."""

    model_config = ConfigDict(extra="forbid")

    situacao: SituacaoRecarga | None = None


class ConfirmacaoDoProvedor(BaseModel):
    """Body of POST /pagamentos/confirmacao, the payment provider's signed message."""

    model_config = ConfigDict(extra="forbid")

    recargaId: Annotated[StrictStr, linha(40, 1)]
    resultado: ResultadoPagamento
    # The provider's own id of the payment (PIX end-to-end id, card transaction), kept for reconciliation.
    referencia: Annotated[StrictStr, linha(200, 1)] | None = None


class ConfirmacaoDaEquipe(BaseModel):
    """What staff add when confirming an offline payment: its reference (PIX id, bank slip number)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    referencia: Annotated[StrictStr, linha(200, 1)] | None = None
