"""End to end: a new integrator walks from zero to production using only the public API
(and the CLI for its keys and the contract), every step turning ok from real calls."""

import asyncio
import json
import os
import subprocess
import sys

from tests.api.test_auth import assert_error
from tests.factories import auth, eventually
from tests.fichas import RICA, fotos
from tests.receptor import Receptor


def cli(*args: str) -> dict:
    result = subprocess.run(
        [sys.executable, "-m", "vitrine", *args], capture_output=True, text=True, env=os.environ.copy(), timeout=60
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


async def test_from_zero_to_production(client, factory, https_server, photo_site):
    # the CLI gives the integrator and its test key (same database as the running service)
    created = await asyncio.to_thread(
        cli, "integrator", "create", "--nome", "Jornada Integra", "--email", "ops@jornada.test"
    )
    key, integrador_id = created["chaveTeste"], created["integradorId"]

    async def call(method, path, **kwargs):
        headers = auth(key, **kwargs.pop("headers", {}))
        response = await client.request(method, path, headers=headers, **kwargs)
        return response

    async def steps() -> dict:
        data = (await (await call("GET", "/v1/integracao/status")).json())["data"]
        return {e["codigo"]: e for e in data["etapas"]}

    async def until(codigo):
        async def check():
            etapa = (await steps())[codigo]
            assert etapa["situacao"] == "ok", etapa
            return etapa

        return await eventually(check, timeout=90, interval=0.3)

    # 1. a first authenticated call
    await call("GET", "/v1/saldo")
    await until("CHAVE_E_PRIMEIRA_CHAMADA")
    # production is refused while steps are missing, one field per missing step
    response = await call("POST", "/v1/integracao/pedido-producao")
    assert response.status == 409
    body = await response.json()
    assert_error(body, "INTEGRATION_STEPS_PENDING")
    assert len(body["error"]["fields"]) == 7
    # 2. a sub-account
    conta = (await (await call("POST", "/v1/contas", json={"codigoExterno": "loja-1", "nome": "Loja 1"})).json())[
        "data"
    ]
    await until("SUBCONTA_CRIADA")
    # 3. a product whose check approves it
    put = await call(
        "PUT", f"/v1/contas/{conta['id']}/produtos/SKU-1", json=RICA | {"imagens": fotos(photo_site, 1, 2, 3, 4, 5, 6)}
    )
    produto = (await put.json())["data"]
    await until("PRODUTO_APROVADO")
    # 4 and 7. a gallery, repeated safely with the same Idempotency-Key
    pedido = {"produtoId": produto["id"], "quantidadeImagens": 3}
    first = await call("POST", "/v1/galerias", json=pedido, headers={"Idempotency-Key": "jornada-galeria-1"})
    assert first.status == 201
    again = await call("POST", "/v1/galerias", json=pedido, headers={"Idempotency-Key": "jornada-galeria-1"})
    assert again.headers["Idempotent-Replayed"] == "true"
    await until("IDEMPOTENCIA")
    await until("GALERIA_TESTE")
    # 5. a video
    video = await call(
        "POST",
        "/v1/videos",
        json={"produtoId": produto["id"], "tipo": "apresentacao"},
        headers={"Idempotency-Key": "jornada-video-1"},
    )
    assert video.status == 201
    await until("VIDEO_TESTE")
    # 6. a notice address whose receiver verifies signatures, and the three test deliveries
    receptor = Receptor()
    receptor.url = await https_server(receptor.app()) + "/avisos"
    aviso = (
        await (await call("PUT", "/v1/avisos", json={"url": receptor.url, "eventos": ["geracao.concluida"]})).json()
    )["data"]
    receptor.segredos.append(aviso["segredo"])
    assert (await call("POST", "/v1/avisos/teste")).status == 202
    await until("AVISOS_ASSINATURA")
    # 8. a 429, and the next call only after Retry-After
    forced = await call("GET", "/v1/saldo", headers={"X-Vitrine-Teste": "forcar-429"})
    assert forced.status == 429
    await asyncio.sleep(int(forced.headers["Retry-After"]) + 0.5)
    await call("GET", "/v1/saldo")
    await until("LIMITE_429")
    # every step ok: production is released at once, automatically, and stays released
    response = await call("POST", "/v1/integracao/pedido-producao")
    assert response.status == 200
    data = (await response.json())["data"]
    assert (
        data["etapasConcluidas"] == 8
        and data["producao"]["situacao"] == "liberada"
        and data["producao"]["liberacao"] == "automatica"
    )
    assert all(e["evidencia"] for e in data["etapas"])
    assert (await call("POST", "/v1/integracao/pedido-producao")).status == 200
    # a live key needs the contract: refused, then accepted through the CLI, then created
    refused = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "vitrine", "key", "create", "--integrador", integrador_id, "--ambiente", "producao"],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
    )
    assert refused.returncode != 0 and "CONTRACT_NOT_ACCEPTED" in refused.stderr
    await asyncio.to_thread(cli, "contract", "accept", "--integrador", integrador_id, "--por", "Responsável Jornada")
    live = (await asyncio.to_thread(cli, "key", "create", "--integrador", integrador_id, "--ambiente", "producao"))[
        "chave"
    ]
    saldo = (await (await client.get("/v1/saldo", headers=auth(live))).json())["data"]
    assert live.startswith("sk_live_") and saldo["ambiente"] == "producao"
    # and production sees none of the test data
    assert (await (await client.get("/v1/contas", headers=auth(live))).json())["data"] == []
