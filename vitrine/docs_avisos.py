"""The payload section of docs/avisos.md, generated from the notice models and their samples
(graphql_api/evento/payloads.py, graphql_api/evento/amostras.py): the envelope's table, then per
event a table of `data` (field, type, description) and a JSON example. Tables come from the same
JSON Schema the OpenAPI document publishes under `webhooks`, so the guide, the document and what is
sent are one thing.

The text is committed between two marker lines of the guide (so the guide reads the same on the
docs site, in its search and in the repository); tests/unit/test_docs_avisos.py fails when it
differs from what the models give. After changing a model or a sample:

    .venv/bin/python -m vitrine.docs_avisos
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from graphql_api.evento import amostras, payloads
from graphql_api.evento.catalog import EVENT_TYPES, TEST_EVENT
from vitrine.settings import DOCS_DIR

GUIA = DOCS_DIR / "avisos.md"
INICIO = "<!-- payloads:inicio (gerado por vitrine/docs_avisos.py: não edite à mão) -->"
FIM = "<!-- payloads:fim -->"

# JSON types as the guide names them: (one, many)
_TIPOS = {
    "string": ("string", "strings"),
    "integer": ("inteiro", "inteiros"),
    "number": ("número", "números"),
    "boolean": ("booleano", "booleanos"),
    "object": ("objeto", "objetos"),
    "null": ("`null`", "`null`"),
}


def _schema(modelo: type[payloads.BaseModel]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A model's serialisation schema (what is sent) and its definitions."""
    schema = modelo.model_json_schema(mode="serialization")
    return schema, schema.pop("$defs", {})


def _resolve(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in schema:
        return defs[schema["$ref"].rsplit("/", 1)[1]] | {k: v for k, v in schema.items() if k != "$ref"}
    return schema


def _tipo(schema: dict[str, Any], defs: dict[str, Any], *, varios: bool = False) -> str:
    """How the guide names a field's type: JSON types in Portuguese, the values of an enumeration."""
    schema = _resolve(schema, defs)
    if "const" in schema:
        return f"`{json.dumps(schema['const'], ensure_ascii=False)}`"
    if "enum" in schema:
        return " ou ".join(f"`{json.dumps(v, ensure_ascii=False)}`" for v in schema["enum"])
    if "anyOf" in schema:
        return " ou ".join(_tipo(s, defs, varios=varios) for s in schema["anyOf"])
    if schema.get("type") == "array":
        return f"lista de {_tipo(schema['items'], defs, varios=True)}"
    if schema.get("format") == "date-time":
        return "string (data e hora, ISO 8601 em UTC)"
    return _TIPOS[schema["type"]][varios]


def _linhas(schema: dict[str, Any], defs: dict[str, Any], prefixo: str = "") -> list[str]:
    """One table row per field, nested objects (and objects in lists) field by field after theirs."""
    linhas = []
    for nome, campo in schema["properties"].items():
        caminho = f"{prefixo}{nome}"
        interno = _resolve(campo, defs)
        descricao = " ".join(interno.get("description", "").split())
        linhas.append(f"| `{caminho}` | {_tipo(campo, defs)} | {descricao} |")
        if interno.get("type") == "array":
            interno, caminho = _resolve(interno["items"], defs), caminho + "[]"
        if interno.get("type") == "object":
            linhas += _linhas(interno, defs, caminho + ".")
    return linhas


def _exemplo(tipo: str) -> str:
    return "```json\n" + json.dumps(amostras.exemplo(tipo), ensure_ascii=False, indent=2) + "\n```"


def secao() -> str:
    """The generated text between the markers (markers excluded)."""
    envelope, defs = _schema(payloads.CorpoEvento)
    partes = [
        "Corpo de toda entrega (JSON, UTF-8):",
        "| Campo | Tipo | Descrição |\n|---|---|---|\n" + "\n".join(_linhas(envelope, defs)),
    ]
    for tipo in [*EVENT_TYPES, TEST_EVENT]:
        dados, defs = _schema(payloads.DADOS[tipo])
        partes += [
            f"### `{tipo}`",
            " ".join((payloads.DADOS[tipo].__doc__ or "").split()),
            "| Campo de `data` | Tipo | Descrição |\n|---|---|---|\n" + "\n".join(_linhas(dados, defs)),
            _exemplo(tipo),
        ]
    return "\n\n".join(partes)


def substituir(texto: str) -> str:
    """The guide's text with the section between the markers generated anew."""
    if texto.count(INICIO) != 1 or texto.count(FIM) != 1:
        raise ValueError(f"the guide needs the lines {INICIO} and {FIM}, once each")
    antes, resto = texto.split(INICIO, 1)
    _, depois = resto.split(FIM, 1)
    return f"{antes}{INICIO}\n{secao()}\n{FIM}{depois}"


def main(guia: Path = GUIA) -> None:
    guia.write_text(substituir(guia.read_text()))
    print(f"{guia}: seção dos avisos gerada dos modelos")


if __name__ == "__main__":
    main()
