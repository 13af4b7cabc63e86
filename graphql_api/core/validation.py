"""Payload validation with pydantic, reported as VALIDATION_FAILED with one field entry per problem."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import AfterValidator, BaseModel, Field, ValidationError, WithJsonSchema
from pydantic.config import JsonDict
from pydantic.fields import FieldInfo
from pydantic_core import ErrorDetails, PydanticCustomError

from graphql_api.core.errors import FIELD_CODES, ApiError, FieldError

M = TypeVar("M", bound=BaseModel)

# One rule for every text an integrator sends (docs/limites.md, codigo caractere_invalido): no control
# characters (C0, DEL, C1). Free text (descriptions, answers) may also hold tab and line breaks;
# identifiers, names and URLs are one line. A NUL byte would also be refused by PostgreSQL.
_CONTROLE_CHARS = r"\x00-\x1f\x7f-\x9f"
_CONTROLE_EM_TEXTO_LIVRE_CHARS = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
_CONTROLE = re.compile(f"[{_CONTROLE_CHARS}]")
_CONTROLE_EM_TEXTO_LIVRE = re.compile(f"[{_CONTROLE_EM_TEXTO_LIVRE_CHARS}]")


def _schema_pattern(chars: str) -> str:
    """The same rule for the OpenAPI document (JSON Schema patterns spell code points \\uXXXX)."""
    return "^[^" + re.sub(r"\\x([0-9a-f]{2})", r"\\u00\1", chars) + "]*$"


SEM_CONTROLE_PATTERN = _schema_pattern(_CONTROLE_CHARS)
SEM_CONTROLE_SCHEMA: JsonDict = {"pattern": SEM_CONTROLE_PATTERN}
TEXTO_LIVRE_SCHEMA: JsonDict = {"pattern": _schema_pattern(_CONTROLE_EM_TEXTO_LIVRE_CHARS)}


def tem_controle(value: str) -> bool:
    return _CONTROLE.search(value) is not None


def sem_controle(value: str) -> str:
    if tem_controle(value):
        raise PydanticCustomError(
            "caractere_invalido",
            "Caracteres de controle (como tabulação, quebra de linha ou NUL) não são aceitos neste campo.",
        )
    return value


def _sem_controle_em_texto_livre(value: str) -> str:
    if _CONTROLE_EM_TEXTO_LIVRE.search(value):
        raise PydanticCustomError(
            "caractere_invalido", "Caracteres de controle não são aceitos; só tabulação e quebra de linha."
        )
    return value


def _texto(max_length: int, min_length: int, extra: JsonDict, rule: Callable[[str], str]) -> FieldInfo:
    # One FieldInfo carrying the lengths, the schema pattern and the rule, so a field reads
    # `Annotated[StrictStr, linha(200, 1)]` (a call cannot be a type annotation of its own).
    info = Field(min_length=min_length, max_length=max_length, json_schema_extra=extra)
    info.metadata.append(AfterValidator(rule))
    return info


def linha(max_length: int, min_length: int = 0) -> FieldInfo:
    """A one-line text: identifiers, names, URLs. Use as `Annotated[StrictStr, linha(...)]`."""
    return _texto(max_length, min_length, SEM_CONTROLE_SCHEMA, sem_controle)


def numero(minimo: float, maximo: float) -> FieldInfo:
    """A JSON number, whole or not, from `minimo` to `maximo`. Use as
    `Annotated[StrictInt | StrictFloat, numero(0, 5)]`: the bounds stay one rule over the union (one
    error on the field), and the OpenAPI document gets them as JSON Schema's minimum and maximum
    (pydantic would write them as "ge"/"le", which no schema reader knows)."""
    info = Field(ge=minimo, le=maximo)
    info.metadata.append(WithJsonSchema({"type": "number", "minimum": minimo, "maximum": maximo}))
    return info


def texto_livre(max_length: int, min_length: int = 0) -> FieldInfo:
    """Free text: tab and line breaks allowed, no other control character. Use as
    `Annotated[StrictStr, texto_livre(...)]`."""
    return _texto(max_length, min_length, TEXTO_LIVRE_SCHEMA, _sem_controle_em_texto_livre)


# pydantic error types -> the field codes of the catalog (graphql_api.core.errors.FIELD_CODES)
_CODES = {
    "missing": "obrigatorio",
    "extra_forbidden": "desconhecido",
    "string_too_long": "muito_longo",
    "too_long": "muito_longo",
    "string_too_short": "muito_curto",
    "too_short": "muito_curto",
    "greater_than": "fora_do_intervalo",
    "greater_than_equal": "fora_do_intervalo",
    "less_than": "fora_do_intervalo",
    "less_than_equal": "fora_do_intervalo",
    "literal_error": "valor_invalido",
    "value_error": "valor_invalido",
    "enum": "valor_invalido",
    "string_pattern_mismatch": "formato_invalido",
    "url_parsing": "formato_invalido",
    "url_scheme": "url_nao_https",
    "date_from_datetime_parsing": "formato_invalido",
    "date_parsing": "formato_invalido",
}

# What the OpenAPI document shows for an https URL field: a plain one the validators accept (their
# rules stay the authority; a schema cannot say "resolvable" or "not private").
HTTPS_URL_SCHEMA: JsonDict = {"pattern": "^https://([a-z0-9-]{1,30}\\.){1,3}[a-z]{2,10}(/[A-Za-z0-9/_.-]*)?$"}


def field_path(loc: tuple[Any, ...]) -> str:
    """('imagens', 2, 'url') -> 'imagens[2].url'"""
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path else str(part)
    return path


_TYPE_NAMES = {
    "string": "esperado texto.",
    "int": "esperado número inteiro.",
    "float": "esperado número.",
    "bool": "esperado true ou false.",
    "list": "esperada uma lista.",
    "dict": "esperado um objeto.",
    "model": "esperado um objeto.",
}


def _message(code: str, err: ErrorDetails) -> str:
    ctx = err.get("ctx") or {}
    if code == "obrigatorio":
        return "Campo obrigatório."
    if code == "desconhecido":
        return "Campo desconhecido: remova-o ou confira o nome."
    if code == "muito_longo":
        limit = ctx.get("max_length")
        return f"Máximo de {limit}." if limit is not None else "Tamanho acima do máximo."
    if code == "muito_curto":
        limit = ctx.get("min_length")
        return f"Mínimo de {limit}." if limit is not None else "Tamanho abaixo do mínimo."
    if code == "fora_do_intervalo":
        for key, text in (("gt", "maior que"), ("ge", "no mínimo"), ("lt", "menor que"), ("le", "no máximo")):
            if key in ctx:
                return f"O valor deve ser {text} {ctx[key]}."
    if code == "valor_invalido" and "expected" in ctx:
        # pydantic lists them as "'a', 'b' or 'c'": the values alone, in Portuguese
        return valores_aceitos(re.findall(r"'((?:[^'\\]|\\.)*)'", str(ctx["expected"])) or [str(ctx["expected"])])
    if code == "valor_invalido" and err["type"] == "value_error":  # a validator's own ValueError
        return _frase(str(err["msg"]).removeprefix("Value error, "))
    if code == "formato_invalido" and err["type"].startswith("date"):
        return "Data inválida: use AAAA-MM-DD."
    return err["msg"]


def _field_error(err: ErrorDetails, prefix: str) -> FieldError:
    kind = err["type"]
    campo = field_path(((prefix,) if prefix else ()) + tuple(err["loc"])) or "corpo"
    if kind in _CODES:
        code = _CODES[kind]
        return FieldError(campo, code, _message(code, err))
    if kind in FIELD_CODES:  # raised by our own validators as PydanticCustomError(code, message)
        return FieldError(campo, kind, err["msg"])
    expected = next((t for n, t in _TYPE_NAMES.items() if kind.startswith(n)), "confira a referência.")
    return FieldError(campo, "tipo_invalido", f"Tipo inválido: {expected}")


def validate(model: type[M], data: Any, *, prefix: str = "") -> M:
    """Validate `data` against `model`, raising VALIDATION_FAILED with every problem found."""
    if not isinstance(data, dict):
        raise ApiError(
            "VALIDATION_FAILED",
            fields=[FieldError(prefix or "corpo", "tipo_invalido", "Esperado um objeto JSON.")],
        )
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        errors = [_field_error(e, prefix) for e in exc.errors(include_url=False)]
        raise ApiError("VALIDATION_FAILED", fields=errors) from None


def valores_aceitos(aceitos: list[str] | tuple[str, ...]) -> str:
    """The message of a value outside a fixed set, naming each value as the contract spells it."""
    if len(aceitos) == 1:
        return f"Use o valor {aceitos[0]}."
    return f"Use um destes valores: {', '.join(aceitos)}."


def _frase(texto: str) -> str:
    texto = texto.strip()
    return (texto[:1].upper() + texto[1:] + ("" if texto.endswith(".") else ".")) if texto else texto


def exigir_aceito(campo: str, valor: str, aceitos: tuple[str, ...]) -> None:
    """A listing filter sent as plain text: VALIDATION_FAILED unless it is one of the accepted values."""
    if valor not in aceitos:
        raise ApiError("VALIDATION_FAILED", fields=[FieldError(campo, "valor_invalido", valores_aceitos(aceitos))])
