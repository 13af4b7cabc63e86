"""Filters of the statement (GET /extrato), as strings straight from the URL, and their rules."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, StrictStr, field_validator
from pydantic_core import PydanticCustomError

from graphql_api.core.ids import pode_existir
from graphql_api.core.momentos import momento_valido, parse_moment

# Every kind of ledger entry (docs/creditos.md). `recarga`: free play credits of teste and
# entries older than plans.
TipoLancamento = Literal[
    "concessao_plano",
    "expiracao_plano",
    "compra_pacote",
    "reserva",
    "captura",
    "liberacao",
    "ajuste",
    "recarga",
]
TIPOS_LANCAMENTO: tuple[str, ...] = TipoLancamento.__args__  # type: ignore[attr-defined]  # Literal's values


class FiltroExtrato(BaseModel):
    """Query filters of GET /extrato: `de`/`ate` (a date or a timestamp), the entry's `tipo`, a generation."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    de: StrictStr | None = None
    ate: StrictStr | None = None
    tipo: TipoLancamento | None = None
    geracaoId: StrictStr | None = None

    @field_validator("de", "ate")
    @classmethod
    def _momento(cls, value: str | None) -> str | None:
        return momento_valido(value)

    @field_validator("geracaoId")
    @classmethod
    def _geracao(cls, value: str | None) -> str | None:
        if value is not None and not pode_existir(value, "ger_"):
            raise PydanticCustomError("formato_invalido", "Use o id de uma geração (ger_…).")
        return value

    @property
    def inicio(self) -> datetime | None:
        return parse_moment(self.de, end_of_day=False) if self.de else None

    @property
    def fim(self) -> datetime | None:
        return parse_moment(self.ate, end_of_day=True) if self.ate else None
