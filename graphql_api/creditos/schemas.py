"""Inputs of the credits domain: the filters of the statement (GET /extrato), as strings straight
from the URL, and their rules; a plan of the catalogue (the data file and staff publishing), a
plan change, a staff credit adjustment."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, field_validator
from pydantic_core import PydanticCustomError

from graphql_api.core.ids import pode_existir
from graphql_api.core.momentos import momento_valido, parse_moment
from graphql_api.core.validation import linha

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


CODIGO_PATTERN = r"^[a-z][a-z0-9_]{1,39}$"
Codigo = Annotated[StrictStr, Field(pattern=CODIGO_PATTERN, description="Código do plano, como essencial.")]
Limite = Annotated[StrictInt, Field(ge=1, le=1_000_000)]


class DadosPlano(BaseModel):
    """One plan of the catalogue: its price, monthly credits and per-minute limits."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    codigo: Codigo
    nome: Annotated[StrictStr, linha(100, 1)]
    precoCentavos: Annotated[StrictInt, Field(ge=0, le=100_000_000)]
    creditosMensais: Annotated[StrictInt, Field(ge=0, le=10_000_000)]
    limitePorMinutoChave: Limite
    limitePorMinutoIntegrador: Limite


class NovaVersaoPlano(BaseModel):
    """A new version of a plan (or a new plan): fields left out keep the current version's."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    codigo: Codigo
    nome: Annotated[StrictStr, linha(100, 1)] | None = None
    precoCentavos: Annotated[StrictInt, Field(ge=0, le=100_000_000)] | None = None
    creditosMensais: Annotated[StrictInt, Field(ge=0, le=10_000_000)] | None = None
    limitePorMinutoChave: Limite | None = None
    limitePorMinutoIntegrador: Limite | None = None


class Catalogo(BaseModel):
    """The catalogue data file (graphql_api/creditos/catalogo.json)."""

    model_config = ConfigDict(extra="ignore")

    planoInicial: Codigo
    planos: list[DadosPlano]


class MudancaPlano(BaseModel):
    """A plan change: an upgrade applies at once, a downgrade at the next cycle."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    plano: Codigo


Bolso = Literal["plano", "pacote"]


class AjusteCreditos(BaseModel):
    """A staff adjustment of a wallet: credits in (positive) or out (negative) of one pool, with
    the reason the integrator reads in its statement."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    integradorId: Annotated[StrictStr, linha(40, 1)]
    ambiente: Literal["teste", "producao"]
    creditos: Annotated[StrictInt, Field(ge=-10_000_000, le=10_000_000)]
    motivo: Annotated[StrictStr, linha(200, 3)]
    bolso: Bolso = "pacote"
