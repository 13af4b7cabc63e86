"""The product record (ficha) as the contract defines it, with the limits Vitrine enforces.

Only `nome` is required: a sparse ficha is accepted and the quality check says what each media
type still needs. Every limit here is documented in docs/ficha.md."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    WithJsonSchema,
)
from pydantic.config import JsonDict
from pydantic_core import PydanticCustomError

from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.validation import HTTPS_URL_SCHEMA, linha, numero, sem_controle, texto_livre, validate

MAX_FOTOS = 20


Number = Annotated[StrictInt | StrictFloat, numero(0, 1_000_000)]


def _https_url(value: str) -> str:
    if not value.lower().startswith("https://"):
        raise PydanticCustomError("url_nao_https", "A URL precisa começar com https://.")
    host = value[8:].split("/", 1)[0]
    if not host or " " in value:
        raise PydanticCustomError("formato_invalido", "URL inválida.")
    return value


# What the OpenAPI document says of a GTIN: the digits and lengths as a pattern, the check digit
# (which no pattern can say) as the format "gtin" (tests/api/schemathesis_hooks.py generates it).
GTIN_SCHEMA: JsonDict = {
    "type": "string",
    "pattern": "^([0-9]{8}|[0-9]{12,14})$",
    "format": "gtin",
    "description": "GTIN-8, -12, -13 ou -14 (EAN/UPC), com o dígito verificador certo.",
}


def _gtin(value: str) -> str:
    if not value.isdigit() or len(value) not in (8, 12, 13, 14):
        raise PydanticCustomError("formato_invalido", "GTIN deve ter 8, 12, 13 ou 14 dígitos.")
    digits = [int(d) for d in value]
    check = digits.pop()
    total = sum(d * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(digits)))
    if (10 - total % 10) % 10 != check:
        raise PydanticCustomError("formato_invalido", "Dígito verificador do GTIN não confere.")
    return value


def _iso_date(value: str) -> str:
    try:
        parsed = date.fromisoformat(value)
    except ValueError:
        raise PydanticCustomError("formato_invalido", "Data inválida: use AAAA-MM-DD.") from None
    if len(value) != 10:
        raise PydanticCustomError("formato_invalido", "Data inválida: use AAAA-MM-DD.")
    if parsed > date.today():
        raise PydanticCustomError("fora_do_intervalo", "A data não pode estar no futuro.")
    return value


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class Categoria(_Strict):
    codigo: Annotated[StrictStr, linha(100)] | None = None
    nome: Annotated[StrictStr, linha(200)] | None = None
    caminho: Annotated[StrictStr, linha(500)] | None = None


class Atributo(_Strict):
    nome: Annotated[StrictStr, linha(100, 1)]
    valor: Annotated[StrictStr, linha(500, 1)]


class Imagem(_Strict):
    url: Annotated[
        StrictStr,
        Field(max_length=2000, json_schema_extra=HTTPS_URL_SCHEMA),
        AfterValidator(sem_controle),
        AfterValidator(_https_url),
    ]
    ordem: Annotated[StrictInt, Field(ge=1, le=1000)]
    principal: StrictBool | None = None


class Dimensoes(_Strict):
    largura: Number | None = None
    altura: Number | None = None
    profundidade: Number | None = None
    unidade: Literal["mm", "cm", "m"] | None = None
    pesoLiquido: Number | None = None
    pesoBruto: Number | None = None
    unidadePeso: Literal["g", "kg"] | None = None


class ItemComposicao(_Strict):
    item: Annotated[StrictStr, linha(200, 1)]
    quantidade: Annotated[StrictInt, Field(ge=1, le=10_000)]


class Avaliacao(_Strict):
    nota: Annotated[StrictInt, Field(ge=1, le=5)]
    texto: Annotated[StrictStr, texto_livre(2000)] | None = None
    data: Annotated[StrictStr, AfterValidator(_iso_date), Field(json_schema_extra={"format": "date"})] | None = None


class Pergunta(_Strict):
    pergunta: Annotated[StrictStr, texto_livre(500, 1)]
    resposta: Annotated[StrictStr, texto_livre(2000, 1)]


class ProvaSocial(_Strict):
    totalAvaliacoes: Annotated[StrictInt, Field(ge=0)] | None = None
    notaMedia: Annotated[StrictInt | StrictFloat, numero(0, 5)] | None = None
    vendidos: Annotated[StrictInt, Field(ge=0)] | None = None


class Anuncio(_Strict):
    marketplace: Annotated[StrictStr, linha(50, 1)]
    id: Annotated[StrictStr, linha(100, 1)]


class Ficha(_Strict):
    nome: Annotated[StrictStr, linha(200, 1)]
    descricao: Annotated[StrictStr, texto_livre(5000)] | None = None
    descricaoComplementar: Annotated[StrictStr, texto_livre(5000)] | None = None
    marca: Annotated[StrictStr, linha(100)] | None = None
    modelo: Annotated[StrictStr, linha(100)] | None = None
    gtin: Annotated[StrictStr, AfterValidator(_gtin), WithJsonSchema(GTIN_SCHEMA)] | None = None
    categoria: Categoria | None = None
    atributos: Annotated[list[Atributo], Field(max_length=100)] | None = None
    imagens: Annotated[list[Imagem], Field(max_length=MAX_FOTOS)] | None = None
    dimensoes: Dimensoes | None = None
    composicaoOferta: Annotated[list[ItemComposicao], Field(max_length=50)] | None = None
    garantia: Annotated[StrictStr, texto_livre(500)] | None = None
    avaliacoes: Annotated[list[Avaliacao], Field(max_length=50)] | None = None
    perguntas: Annotated[list[Pergunta], Field(max_length=50)] | None = None
    provaSocial: ProvaSocial | None = None
    anuncio: Anuncio | None = None

    def normalised(self) -> dict:
        """Canonical content: what the version hash is computed from and what is stored."""
        content = self.model_dump(mode="json", exclude_none=True)
        if "imagens" in content:
            content["imagens"].sort(key=lambda im: im["ordem"])
        return content


def parse_ficha(dados: object) -> Ficha:
    """Validate a ficha; VALIDATION_FAILED lists every problem with its field path."""
    ficha = validate(Ficha, dados)
    problems: list[FieldError] = []
    first_at: dict[int, int] = {}
    for i, imagem in enumerate(ficha.imagens or []):
        if imagem.ordem in first_at:
            problems.append(
                FieldError(
                    f"imagens[{i}].ordem",
                    "duplicado",
                    f"ordem {imagem.ordem} já usada em imagens[{first_at[imagem.ordem]}].",
                )
            )
        first_at.setdefault(imagem.ordem, i)
    principais = [i for i, im in enumerate(ficha.imagens or []) if im.principal]
    for i in principais[1:]:
        problems.append(
            FieldError(
                f"imagens[{i}].principal",
                "duplicado",
                f"Só uma imagem pode ser principal; imagens[{principais[0]}] já é.",
            )
        )
    if problems:
        raise ApiError("VALIDATION_FAILED", fields=problems)
    return ficha
