"""The OpenAPI document tells the truth: schemathesis (`st run`, every check) calls every operation
of /v1/openapi.json on the real app with a real test key, and finds nothing. Seeded and bounded, so
a failure reproduces (docs/desenvolvimento.md, "Conformidade com o OpenAPI")."""

import asyncio
import os
import sys
from collections import Counter
from pathlib import Path

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
        str(Path(sys.executable).with_name("st")), "--config-file", str(config), "run", f"{base}/openapi.json", "--url", base,
        "--checks", "all", "--seed", str(SEED), "--generation-deterministic",
        "--max-examples", str(MAX_EXAMPLES), "--workers", "1", "--no-color",
        "--report", "junit", "--report-dir", str(tmp_path),
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
