"""Inputs of the plan operations: a plan of the catalogue (the data file and staff publishing),
a plan change, a staff credit adjustment."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from graphql_api.core.validation import linha

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
    """The catalogue data file (graphql_api/creditos/plano/catalogo.json)."""

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
