"""Inputs of the media orders: a gallery, a video, and an image edit (a list of operations
applied in order to one source image, a generated image or an approved product photo):

    {"operacoes": [
        {"tipo": "fundo_branco", "tolerancia": 24},
        {"tipo": "enquadrar", "formato": "quadrado_1200", "modo": "produto", "margem": 6},
        {"tipo": "ajuste", "brilho": 10, "contraste": 5},
        {"tipo": "texto", "texto": "Frete grátis", "posicao": "rodape"},
        {"tipo": "selo", "texto": "-20%", "posicao": "superior_direito"}
    ]}
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictInt, StrictStr
from pydantic_core import PydanticCustomError

from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.validation import linha, validate, valores_aceitos
from graphql_api.geracao.render.edits import FORMATS
from graphql_api.geracao.render.video import AVATARES

MAX_OPERATIONS = 10


class _Pedido(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class NovaGaleria(_Pedido):
    produtoId: Annotated[StrictStr, linha(40, 1)]
    quantidadeImagens: Annotated[StrictInt, Field(ge=1, le=12)]


class NovoVideo(_Pedido):
    produtoId: Annotated[StrictStr, linha(40, 1)]
    tipo: Literal["apresentacao", "cinepremium"]
    avatar: Literal[AVATARES] = "automatico"  # type: ignore[valid-type]


def _hex_colour(value: str) -> str:
    if not re.fullmatch(r"#[0-9A-Fa-f]{6}", value):
        raise PydanticCustomError("formato_invalido", "Cor em hexadecimal: #RRGGBB (por exemplo #16324F).")
    return value


Hex = Annotated[StrictStr, AfterValidator(_hex_colour)]
Percent = Annotated[StrictInt, Field(ge=-100, le=100)]


class _Op(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, frozen=True)


class FundoBranco(_Op):
    """The product cut out onto pure white (graphql_api.midia.recorte finds it); the image as it
    was, with a note, when the product cannot be told apart from its background."""

    tipo: Literal["fundo_branco"]
    # Still accepted, no longer used: it was the colour keying's tolerance, and the product's mask
    # replaced the keying (requests that send it keep working).
    tolerancia: Annotated[StrictInt, Field(ge=1, le=80)] = 24


class Enquadrar(_Op):
    """Reframe to a marketplace size. conter: the whole image, white around it; preencher: fill
    the frame, cropping the edges; produto: the product cut out through its mask onto white,
    contained with `margem` percent around (the whole image, with a note, when it cannot be)."""

    tipo: Literal["enquadrar"]
    formato: Literal[tuple(FORMATS)]  # type: ignore[valid-type]
    modo: Literal["conter", "preencher", "produto"] = "conter"
    margem: Annotated[StrictInt, Field(ge=0, le=30)] = 5


class Ajuste(_Op):
    """Brightness, contrast and saturation, each from -100 (none) to 100 (double); 0 keeps it."""

    tipo: Literal["ajuste"]
    brilho: Percent = 0
    contraste: Percent = 0
    saturacao: Percent = 0


class Texto(_Op):
    """A band across the top or bottom with a short text (wrapped, shrunk to fit, two lines)."""

    tipo: Literal["texto"]
    texto: Annotated[StrictStr, linha(80, 1)]
    posicao: Literal["topo", "rodape"] = "rodape"
    cor: Hex = "#FFFFFF"
    fundo: Hex = "#16324F"


class Selo(_Op):
    """A round badge in a corner ("-20%", "Novo", "Frete grátis")."""

    tipo: Literal["selo"]
    texto: Annotated[StrictStr, linha(24, 1)]
    posicao: Literal["superior_esquerdo", "superior_direito", "inferior_esquerdo", "inferior_direito"] = (
        "superior_direito"
    )
    cor: Hex = "#F2A541"
    corTexto: Hex = "#16324F"


Operacao = FundoBranco | Enquadrar | Ajuste | Texto | Selo
OPERATIONS: dict[str, type[Operacao]] = {
    "fundo_branco": FundoBranco,
    "enquadrar": Enquadrar,
    "ajuste": Ajuste,
    "texto": Texto,
    "selo": Selo,
}


class _Envelope(BaseModel):
    model_config = ConfigDict(extra="forbid")
    operacoes: Annotated[list[dict], Field(min_length=1, max_length=MAX_OPERATIONS)]


# The validated edit (parse_edicao builds it), and what the OpenAPI document says of the body: the
# same bounds as _Envelope, each operation told apart by its `tipo`.
class EdicaoRequest(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    operacoes: Annotated[
        list[Annotated[Operacao, Field(discriminator="tipo")]], Field(min_length=1, max_length=MAX_OPERATIONS)
    ]


def parse_edicao(dados: object) -> EdicaoRequest:
    """Validate an edit request; VALIDATION_FAILED lists every problem with its field path
    (operacoes[2].formato, …). Each operation is checked against the model of its `tipo`, so
    errors name the operation's own fields."""
    envelope = validate(_Envelope, dados)
    problems: list[FieldError] = []
    operations: list[Operacao] = []
    for i, item in enumerate(envelope.operacoes):
        tipo = item.get("tipo")
        if tipo is None:
            problems.append(FieldError(f"operacoes[{i}].tipo", "obrigatorio", "Campo obrigatório."))
            continue
        if not isinstance(tipo, str) or tipo not in OPERATIONS:
            problems.append(FieldError(f"operacoes[{i}].tipo", "valor_invalido", valores_aceitos(tuple(OPERATIONS))))
            continue
        try:
            operations.append(validate(OPERATIONS[tipo], item, prefix=f"operacoes[{i}]"))
        except ApiError as exc:
            problems.extend(exc.fields)
    if problems:
        raise ApiError("VALIDATION_FAILED", fields=problems)
    return EdicaoRequest(operacoes=operations)
