"""OAuth on a real `vitrine serve`: (a) throughput of POST /oauth/token with the refresh_token
grant, each call rotating the pair (the next call of a chain presents the refresh token the
previous one returned), many independent authorisations at once; (b) GET /v1/geracoes/{id} with an
oat_ token against the same read with the integrator's sk_ key, side by side.

    .venv/bin/python bench/oauth.py                     # SQLite, then PostgreSQL + Redis
    .venv/bin/python bench/oauth.py --backends sqlite

Target: oat_/sk_ >= 90% of the key's throughput on each back end. Load comes from wrk (Debian
package `wrk`); the refresh chains are a Lua script that queues each answer's new refresh token.

The token endpoint allows 60 calls a minute per app (contract, Limits), so every chain is an
authorisation of an app of its own, and each round uses chains no earlier round touched: no call
meets that limit, and any non-2xx answer stops the bench."""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import math
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api_overhead import backends, free_port, reference_loop_ns, wait_for_port, wrk  # noqa: E402

DURATION = int(os.environ.get("BENCH_SECONDS", "6"))  # per measure and round (reads: two slices of half)
# The figures are the medians of the rounds, and every round is printed.
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
READ_CONNECTIONS = 20
REFRESH_CONNECTIONS = 16
WARMUP_SECONDS = 2
# Refresh chains (one app each) per run of wrk: enough that none passes 55 calls in a run below
# this many refreshes per second.
MAX_REFRESH_RATE = 1000
CHAINS = math.ceil(MAX_REFRESH_RATE * DURATION / 55)
APPS_PER_INTEGRATOR = 10  # the contract's ceiling of active apps
TARGET = 0.90

REFRESH_LUA = """
-- One queue of chains "conta_id basic refresh_token"; a chain is in the queue or in flight, once.
local queue, head, tail, basic_of = {}, 1, 0, {}
function init(args)
  for _, entry in ipairs(args) do
    local conta, basic = entry:match("^(%S+) (%S+) ")
    basic_of[conta] = basic
    tail = tail + 1
    queue[tail] = entry
  end
end
function request()
  local entry = queue[head]
  queue[head] = nil
  head = head + 1
  local conta, basic, token = entry:match("^(%S+) (%S+) (%S+)$")
  return wrk.format("POST", "/oauth/token", {
    ["Authorization"] = "Basic " .. basic,
    ["Content-Type"] = "application/x-www-form-urlencoded",
  }, "grant_type=refresh_token&refresh_token=" .. token)
end
function response(status, headers, body)
  local token = body:match('"refresh_token"%s*:%s*"(ort_%w+)"')
  local conta = body:match('"conta_id"%s*:%s*"(cta_%w+)"')
  if token and conta then
    tail = tail + 1
    queue[tail] = conta .. " " .. basic_of[conta] .. " " .. token
  end
end
"""


async def seed(env: dict[str, str]) -> dict:
    """An integrator without practical limits (its key reading a finished gallery of one of its
    sub-accounts, an app's token reading the same kind of gallery of the linked account: a key
    does not reach a linked account's content) and, per run of the refresh load, CHAINS fresh authorisations
    of as many apps, each exchanged once for its first pair of tokens."""
    from graphql_api.conta.models import Conta
    from graphql_api.core.ids import new_id
    from graphql_api.core.principal import OAUTH_SCOPES, Ambiente, CredentialKind, Principal
    from graphql_api.geracao.models import Geracao
    from graphql_api.integrador import service as integradores
    from graphql_api.integrador.models import Integrador
    from graphql_api.oauth import autorizacoes, escopos, segredos, tokens
    from graphql_api.oauth.models import AppOAuth
    from graphql_api.vendedor.models import Vendedor
    from tests.factories import pkce_pair
    from vitrine import db
    from vitrine.infra.ratelimit import RateLimiter
    from vitrine.settings import Settings

    settings = Settings(**{k.removeprefix("VITRINE_").lower(): v for k, v in env.items() if k.startswith("VITRINE_")})
    await db.migrate(settings)
    ctx = await db.connect(settings)
    redirect_uri = "https://app.bench.test/callback"
    scope = escopos.como_texto(OAUTH_SCOPES)

    async def integrador() -> tuple[str, str]:
        created = await integradores.criar_integrador(nome="Bench OAuth", email="bench@example.com")
        await Integrador.filter(id=created.integrador.id).update(
            limite_por_minuto_chave=10_000_000, limite_por_minuto_integrador=10_000_000
        )
        return created.integrador.id, created.chave_teste

    async def autorizado(integrador_id: str) -> tuple[str, str, dict]:
        """A confidential app, a seller's consent and the code exchanged: (client_id, secret, tokens)."""
        segredo, resumo = segredos.novo(segredos.SEGREDO_CLIENTE[Ambiente.TESTE])
        app = await AppOAuth.create(
            id=new_id("app_"),
            integrador_id=integrador_id,
            ambiente="teste",
            nome="App de bench",
            tipo="confidencial",
            hash_segredo=resumo,
            final_segredo=segredo[-4:],
            redirect_uris=[redirect_uri],
            escopos=sorted(OAUTH_SCOPES),
        )
        vendedor = await Vendedor.create(
            id=new_id("vnd_"), nome="Loja de bench", email=f"{new_id('b')}@bench.test", hash_senha="-"
        )
        verifier, challenge = pkce_pair()
        pedido = autorizacoes.Pedido(
            {
                "response_type": "code",
                "client_id": app.id,
                "redirect_uri": redirect_uri,
                "scope": scope,
                "state": "bench",
                "code_challenge": challenge,
                "code_challenge_method": "S256",
            }
        )
        seller = Principal(
            kind=CredentialKind.VENDEDOR, ambiente=Ambiente.TESTE, scopes=frozenset(), ator_id=vendedor.id
        )
        destino = await autorizacoes.autorizar(seller, pedido, issuer=settings.base_url)
        code = re.search(r"[?&]code=([^&]+)", destino).group(1)
        troca = {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": redirect_uri,
            "code_verifier": verifier,
        }
        chamador = tokens.Chamador(RateLimiter(None, "bench"), "127.0.0.1", settings.rate_limit_unauthenticated_per_ip)
        return app.id, segredo, await tokens.emitir(troca, app, chamador, bus=None)

    try:
        reader_id, key = await integrador()
        _, _, reader = await autorizado(reader_id)
        subconta = await Conta.create(
            id=new_id("cta_"), integrador_id=reader_id, ambiente="teste", codigo_externo="bench", nome="Subconta"
        )

        async def galeria(conta_id: str) -> str:
            geracao = await Geracao.create(
                id=new_id("ger_"),
                integrador_id=reader_id,
                ambiente="teste",
                conta_id=conta_id,
                tipo="galeria",
                situacao="concluida",
                creditos_reservados=0,
                etapa="entregue",
                percentual=100,
                resultados={
                    "imagens": [
                        {"id": new_id("img_"), "posicao": i, "arquivo": f"bench/{i}.jpg", "largura": 600, "altura": 600}
                        for i in (1, 2, 3)
                    ]
                },
            )
            return geracao.id

        runs = []
        integrador_id = None
        for run in range(ROUNDS + 1):  # the warm-up, then each round
            chains = []
            for n in range(CHAINS):
                if (run * CHAINS + n) % APPS_PER_INTEGRATOR == 0:
                    integrador_id, _ = await integrador()
                client_id, segredo, pair = await autorizado(integrador_id)
                basic = base64.b64encode(f"{client_id}:{segredo}".encode()).decode()
                chains.append(f"{pair['conta_id']} {basic} {pair['refresh_token']}")
            runs.append(chains)
        return {
            "key": key,
            "token": reader["access_token"],
            "runs": runs,
            "geracao_chave": await galeria(subconta.id),
            "geracao_token": await galeria(reader["conta_id"]),
        }
    finally:
        await ctx.close_connections()


def _measure(server: subprocess.Popen, port: int, data: dict, script: Path) -> list[dict]:
    """The warm-up, then each round: both reads side by side, then the refresh chains."""
    rounds = []
    wait_for_port(port)
    base = f"http://127.0.0.1:{port}"
    # (url, headers) of each read: the key's of a sub-account's gallery, the token's of the linked one's
    reads = {
        "sk": (f"{base}/v1/geracoes/{data['geracao_chave']}", {"Authorization": f"Bearer {data['key']}"}),
        "oat": (f"{base}/v1/geracoes/{data['geracao_token']}", {"Authorization": f"Bearer {data['token']}"}),
    }
    # warm both reads and the token endpoint (connections, caches, prepared statements)
    for url, headers in reads.values():
        wrk(url, connections=4, seconds=WARMUP_SECONDS, headers=headers)
    wrk(
        f"{base}/oauth/token",
        connections=REFRESH_CONNECTIONS,
        seconds=WARMUP_SECONDS,
        script=script,
        args=data["runs"][0],
    )
    for chains in data["runs"][1:]:
        one = {}
        # Key and token in slices of half a measure, A B B A: a busy spell of the shared machine
        # (seconds long) and the database growing (call log) weigh on both alike.
        slices: dict[str, list[tuple[float, float, float]]] = {"sk": [], "oat": []}
        for name in ("sk", "oat", "oat", "sk"):
            url, headers = reads[name]
            slices[name].append(
                wrk(url, connections=READ_CONNECTIONS, seconds=DURATION // 2, headers=headers, pids=[server.pid])
            )
        for name, measured in slices.items():
            one[f"{name}_rps"] = statistics.fmean(m[0] for m in measured)
            one[f"{name}_p99_ms"] = max(m[1] for m in measured)
            one[f"{name}_cpu_us"] = statistics.fmean(m[2] for m in measured)
        one["ratio"] = one["oat_rps"] / one["sk_rps"]
        one["refresh_rps"], one["refresh_p99_ms"], one["refresh_cpu_us"] = wrk(
            f"{base}/oauth/token",
            connections=REFRESH_CONNECTIONS,
            seconds=DURATION,
            script=script,
            args=chains,
            pids=[server.pid],
        )
        rounds.append(one)
    return rounds


def run_backend(env: dict[str, str], workdir: Path) -> dict:
    from tests.processes import start_vitrine

    seeded = subprocess.run(
        [sys.executable, __file__, "--seed"],
        env={**os.environ, **env},
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if seeded.returncode != 0:
        raise SystemExit(seeded.stderr)
    data = json.loads(seeded.stdout.strip().splitlines()[-1])
    port = free_port()
    script = workdir / "refresh.lua"
    script.write_text(REFRESH_LUA)
    with open(workdir / "serve.log", "w") as log:
        server = start_vitrine("serve", env={**os.environ, **env, "VITRINE_PORT": str(port)}, log=log)
        try:
            rounds = _measure(server, port, data, script)
        finally:
            os.killpg(server.pid, signal.SIGINT)  # a clean stop: the call log is flushed
            server.wait(timeout=30)
    summary = {k: statistics.median(r[k] for r in rounds) for k in rounds[0]}
    summary["rounds"] = rounds
    return summary


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", action="store_true")
    parser.add_argument("--backends", default="sqlite,postgres")
    args = parser.parse_args()
    if args.seed:
        print(json.dumps(asyncio.run(seed(dict(os.environ)))))
        return
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is needed: apt-get install -y wrk")
    print(
        f"one `vitrine serve`; {ROUNDS} rounds of {DURATION} s per measure, medians. GET /v1/geracoes/{{id}} with "
        f"{READ_CONNECTIONS} clients (key and token in slices of {DURATION // 2} s, sk oat oat sk); "
        f"POST /oauth/token (refresh_token) with {REFRESH_CONNECTIONS} clients over {CHAINS} authorisations per round"
    )
    print(f"machine speed: sum(range(50)) in {reference_loop_ns():.0f} ns (lower is faster)\n")
    failed = False
    for name, env in backends(args.backends.split(","), "bench_oauth"):
        workdir = Path(env["VITRINE_DATA_DIR"])
        started = time.monotonic()
        r = run_backend(env, workdir)
        ok = r["ratio"] >= TARGET
        failed |= not ok
        print(name)
        for n, one in enumerate(r["rounds"], 1):
            print(
                f"    round {n}: sk {one['sk_rps']:6.0f} req/s ({one['sk_cpu_us']:.0f} µs CPU), "
                f"oat {one['oat_rps']:6.0f} req/s ({one['oat_cpu_us']:.0f} µs CPU), ratio {one['ratio']:.0%}; "
                f"refresh {one['refresh_rps']:5.0f} req/s (p99 {one['refresh_p99_ms']:.1f} ms)"
            )
        for label, name in (("sk_ key   ", "sk"), ("oat_ token", "oat")):
            print(
                f"  GET /geracoes, {label}: {r[f'{name}_rps']:7.0f} req/s  (p99 {r[f'{name}_p99_ms']:.1f} ms, "
                f"{r[f'{name}_cpu_us']:.0f} µs of server CPU per request)"
            )
        print(f"  ratio oat/sk              : {r['ratio']:.0%}  (target >= {TARGET:.0%}: {'ok' if ok else 'MISSED'})")
        print(
            f"  token endpoint, refresh   : {r['refresh_rps']:7.0f} req/s  (p99 {r['refresh_p99_ms']:.1f} ms, "
            f"{r['refresh_cpu_us']:.0f} µs of server CPU per request)"
        )
        print(f"  ({time.monotonic() - started:.0f} s with seeding)\n")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
