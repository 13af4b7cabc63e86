"""The OpenAPI document tells the truth: schemathesis (`st run`, every check) calls every operation
of /v1/openapi.json on the real app with a real test key, and finds nothing. Seeded and bounded, so
a failure reproduces (docs/desenvolvimento.md, "Conformidade com o OpenAPI")."""

import asyncio
import json
import os
import sys
from collections import Counter
from pathlib import Path

import pytest
from referencing.jsonschema import DRAFT202012

from graphql_api.aviso.schemas import ResultadoEscuta
from graphql_api.core.errors import ApiError
from graphql_api.core.validation import validate
from graphql_api.geracao.schemas import parse_edicao
from graphql_api.produto.schemas import Dimensoes, Ficha
from tests.harness import BACKEND

SEED = 20261115
# The key goes through the document's security scheme, so schemathesis can also leave it out.
# Rules no JSON Schema can state make a schema-valid request a 422 on two operations, and only
# there is 422 an accepted answer to valid data: a notice address must be a public, reachable
# host (an IP literal like https://0 is refused); a ficha's images have distinct `ordem` and at
# most one `principal` (uniqueness of a field across list items).
CONFIG = """
[auth.openapi.chaveDeApi]
bearer = "${VITRINE_CONFORMANCE_KEY}"

[[operations]]
include-path-regex = "^/avisos$"
include-method = ["PUT", "POST"]
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "409", "422", "429"]

[[operations]]
include-path = "/contas/{contaId}/produtos/{codigo}"
include-method = "PUT"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "409", "422", "429"]
"""
MAX_EXAMPLES = 5  # per operation and phase: about a minute per back end on two shared cores


async def test_every_operation_of_the_document_conforms(client, factory, tmp_path):
    # Limits high enough that the run is not answered 429 all along.
    integrator = await factory.integrator(limite_chave=100_000, limite_integrador=100_000)
    document = await (await client.get("/v1/openapi.json")).json()
    operations = {f"{method.upper()} {path}" for path, ops in document["paths"].items() for method in ops}
    # The document itself is what `st` loads first; it does not always call it again as a case.
    operations.discard("GET /openapi.json")

    base = str(client.make_url("/v1"))
    log = tmp_path / "calls.log"
    # The key through the document's security scheme, so schemathesis can also leave it out.
    config = tmp_path / "schemathesis.toml"
    config.write_text(CONFIG)
    command = [
        str(Path(sys.executable).with_name("st")),
        "--config-file",
        str(config),
        "run",
        f"{base}/openapi.json",
        "--url",
        base,
        "--checks",
        "all",
        "--seed",
        str(SEED),
        "--generation-deterministic",
        "--max-examples",
        str(MAX_EXAMPLES),
        "--workers",
        "1",
        "--no-color",
        "--report",
        "junit",
        "--report-dir",
        str(tmp_path),
    ]
    env = os.environ | {
        "SCHEMATHESIS_HOOKS": "tests.api.schemathesis_hooks",
        "VITRINE_CONFORMANCE_LOG": str(log),
        "VITRINE_CONFORMANCE_KEY": integrator.key,
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
    }
    # A separate process: the app runs on this test's event loop, which must stay free to answer.
    process = await asyncio.create_subprocess_exec(
        *command, env=env, cwd=tmp_path, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )
    output = (await process.communicate())[0].decode()
    report = f"back end {BACKEND}; VITRINE_CONFORMANCE_KEY={integrator.key} {' '.join(command)}\n{output}"

    calls = Counter(line.rsplit(" ", 1)[0] for line in log.read_text().splitlines()) if log.exists() else Counter()
    assert set(calls) == operations, report  # every operation of the document was called
    assert all(count >= MAX_EXAMPLES for count in calls.values()), (calls, report)
    assert process.returncode == 0, report
    assert "No issues found" in output or " passed" in output, report


def _gtin_with_check_digit(body: str) -> str:
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(body)))
    return body + str((10 - total % 10) % 10)


GTIN_OK = _gtin_with_check_digit("789100031550")
GTIN_WRONG_CHECK = GTIN_OK[:-1] + str((int(GTIN_OK[-1]) + 1) % 10)
OPERACAO = {"tipo": "ajuste", "brilho": 10}


@pytest.mark.parametrize(
    "component, model, instance",
    [
        ("EdicaoRequest", parse_edicao, {"operacoes": []}),
        ("EdicaoRequest", parse_edicao, {"operacoes": [OPERACAO] * 11}),
        ("EdicaoRequest", parse_edicao, {"operacoes": [OPERACAO], "extra": 1}),
        ("ResultadoEscuta", ResultadoEscuta, {"duracaoMs": 3_600_001}),
        ("ResultadoEscuta", ResultadoEscuta, {"duracaoMs": -0.5}),
        ("Dimensoes", Dimensoes, {"largura": 1_000_001}),
        ("Ficha", Ficha, {"nome": "P", "gtin": "12345"}),
        ("Ficha", Ficha, {"nome": "P", "gtin": "78910003155X"}),
    ],
)
async def test_the_document_refuses_what_the_server_refuses(client, component, model, instance):
    # the same pydantic model gives the rule and the document: what one refuses, the other says
    document = await (await client.get("/v1/openapi.json")).json()
    with pytest.raises(ApiError):
        parse_edicao(instance) if model is parse_edicao else validate(model, instance)
    assert not _valid(document, component, instance), f"{component} accepts {instance}"


async def test_the_document_tells_a_gtin_by_its_format_and_the_server_checks_its_digit(client):
    document = await (await client.get("/v1/openapi.json")).json()
    gtin = document["components"]["schemas"]["Ficha"]["properties"]["gtin"]["anyOf"][0]
    assert gtin["format"] == "gtin" and "verificador" in gtin["description"]
    assert _valid(document, "Ficha", {"nome": "P", "gtin": GTIN_OK})
    validate(Ficha, {"nome": "P", "gtin": GTIN_OK})
    with pytest.raises(ApiError):  # what no pattern can say: the format names it
        validate(Ficha, {"nome": "P", "gtin": GTIN_WRONG_CHECK})
    assert _valid(document, "ResultadoEscuta", {"duracaoMs": 12.5})
    assert _valid(document, "EdicaoRequest", {"operacoes": [OPERACAO, {"tipo": "fundo_branco"}]})


def test_no_schema_of_the_document_uses_words_json_schema_does_not_know():
    from rest_v1 import openapi

    document = json.dumps(openapi.build("http://x", "http://x/v1", "http://x/docs"))
    assert '"ge":' not in document and '"le":' not in document


def _valid(document: dict, component: str, instance: object) -> bool:
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    resource = Resource.from_contents(document, default_specification=DRAFT202012)
    validator = Draft202012Validator(
        {"$ref": f"urn:openapi#/components/schemas/{component}"},
        registry=Registry().with_resource("urn:openapi", resource),
    )
    return validator.is_valid(instance)
