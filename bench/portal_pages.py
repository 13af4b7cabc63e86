"""Server time of every portal page with 1,000 calls in the log and 100 products (and a notice
address with 100 deliveries, a finished test run, 120 statement entries, and one product checked
for real — photos fetched from a local HTTPS host — with a gallery rendered by the real renderer),
read from the Server-Timing header the portal sets (handler start to response, session lookup
included).

    .venv/bin/python bench/portal_pages.py                      # SQLite, and PostgreSQL + Redis if reachable
    .venv/bin/python bench/portal_pages.py --backends sqlite

Target: every page under 150 ms server time; the slowest page's p95 is compared."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from api_overhead import PG_ADMIN, backends, free_port, wait_for_port  # noqa: E402

from tests.tls import make_tls_files  # noqa: E402

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "30"))
TARGET_MS = 150.0
CALLS, PRODUCTS = 1000, 100
DELIVERIES, LEDGER = 100, 120
EMAIL, SENHA = "bench@portal.test", "senha do bench portal"


async def seed() -> dict:
    """An owner, 1,000 logged calls (a fifth with errors, bodies included), 100 products in one
    account, a few e-mails, a notice address with its deliveries and test run, and a ledger, all
    in the test environment."""
    from graphql_api.aviso import assinatura
    from graphql_api.aviso.models import Aviso, Entrega, RodadaTeste, Tentativa, TesteAviso
    from graphql_api.chamada.models import Chamada
    from graphql_api.conta import service as contas
    from graphql_api.core import tarefas
    from graphql_api.core.ids import new_id
    from graphql_api.core.principal import ALL_SCOPES, Ambiente, CredentialKind, Principal
    from graphql_api.creditos import service as creditos
    from graphql_api.email import service as emails
    from graphql_api.produto import service as produtos
    from graphql_api.usuario import cadastro
    from vitrine import db
    from vitrine.settings import Settings

    async def sem_tarefas(nome: str, *args) -> None:
        """The seeded products are data for the pages: their checks are not run."""

    tarefas.instalar(sem_tarefas)
    settings = Settings()
    await db.migrate(settings)
    ctx = await db.connect(settings)
    try:
        usuario = await cadastro.cadastrar(
            {
                "empresa": "Bench Portal",
                "emailAlertas": "alertas@portal.test",
                "nome": "Bench",
                "email": EMAIL,
                "senha": SENHA,
            }
        )
        principal = Principal(CredentialKind.API_KEY, Ambiente.TESTE, ALL_SCOPES, integrador_id=usuario.integrador_id)
        conta = await contas.criar_conta(principal, {"codigoExterno": "bench-1", "nome": "Loja Bench"})
        for n in range(PRODUCTS):
            await produtos.salvar_ficha(
                principal,
                conta.id,
                f"SKU-{n:03d}",
                {
                    "nome": f"Produto {n}",
                    "descricao": "Descrição de bancada " * 5,
                    "imagens": [{"url": f"https://fotos.exemplo.com/{n}/{i}.jpg", "ordem": i} for i in (1, 2, 3)],
                },
            )
        now = datetime.now(UTC)
        rng = random.Random(7)
        body = json.dumps(
            {"codigoExterno": "x" * 20, "nome": "Loja", "atributos": [{"nome": "a", "valor": "b" * 40}] * 10}
        )
        rows = []
        for n in range(CALLS):
            failed = n % 5 == 0
            rows.append(
                Chamada(
                    id=new_id("req_"),
                    integrador_id=usuario.integrador_id,
                    ambiente="teste",
                    chave_id="abcdefghijkl",
                    credencial="api_key",
                    conta_id=conta.id,
                    metodo="POST" if failed else "GET",
                    endpoint="/contas" if failed else "/contas/{contaId}",
                    caminho="/v1/contas" if failed else f"/v1/contas/{conta.id}",
                    status=422 if failed else 200,
                    duracao_ms=rng.uniform(2, 40),
                    codigo_erro="VALIDATION_FAILED" if failed else None,
                    mensagem_erro="Alguns campos são inválidos." if failed else None,
                    replay=False,
                    cabecalhos={"Authorization": "Bearer sk_test_abcdefghijkl_****"},
                    corpo_enviado=body if failed else None,
                    corpo_recebido=body,
                    criado_em=now - timedelta(seconds=CALLS - n),
                )
            )
        await Chamada.bulk_create(rows, batch_size=200)
        for n in range(5):
            await emails.enviar(
                para=EMAIL,
                assunto=f"Alerta {n}",
                texto="texto " * 50,
                tipo="alerta",
                integrador_id=usuario.integrador_id,
                smtp_url=None,
            )
        email = await emails.enviar(
            para=EMAIL,
            assunto="Alerta final",
            texto="texto",
            tipo="alerta",
            integrador_id=usuario.integrador_id,
            smtp_url=None,
        )
        aviso, entrega = await _seed_avisos(
            usuario.integrador_id, settings, now, Aviso, Entrega, Tentativa, RodadaTeste, TesteAviso, assinatura
        )
        for n in range(LEDGER):
            await creditos.recarregar_teste(principal, creditos=n + 1)
        geracao = await _seed_media(principal, conta.id, settings)
        return {
            "conta": conta.id,
            "chamada": rows[0].id,
            "email": email.id,
            "aviso": aviso,
            "entrega": entrega,
            "geracao": geracao,
        }
    finally:
        await ctx.close_connections()


async def _seed_media(principal, conta_id: str, settings) -> str:
    """SKU MIDIA-1: a rich ficha whose three photos come from a local HTTPS photo host, checked
    by the real check, and a 6-image gallery of it rendered by the real renderer, both run by the
    in-process broker as in `vitrine serve`. Returns the generation id."""
    from aiohttp import web

    from graphql_api.conferencia.models import Conferencia
    from graphql_api.geracao import service as geracoes
    from graphql_api.geracao.models import Geracao
    from graphql_api.produto import service as produtos
    from tasks.broker import broker, wire_task_port
    from tests.fichas import RICA
    from tests.photos import PhotoHost
    from tests.tls import server_context
    from vitrine.runtime import Runtime

    tls = Path(os.environ["BENCH_TLS_DIR"])
    runner = web.AppRunner(PhotoHost().app, access_log=None)
    await runner.setup()
    port = free_port()
    await web.TCPSite(
        runner, "127.0.0.1", port, ssl_context=server_context(tls / "server.pem", tls / "server.key")
    ).start()
    runtime = Runtime.build(settings)
    await runtime.start()
    broker.state.runtime = runtime
    wire_task_port()  # this product's check and gallery do run, as in `vitrine serve`
    await broker.startup()
    try:
        imagens = [{"url": f"https://localhost:{port}/foto/{seed}.jpg", "ordem": seed} for seed in (1, 2, 3)]
        produto = await produtos.salvar_ficha(principal, conta_id, "MIDIA-1", {**RICA, "imagens": imagens})
        conferencia = await _until(lambda: Conferencia.filter(produto_id=produto.id).first(), ("concluida", "falhou"))
        assert conferencia.situacao == "concluida", conferencia.erro
        galeria = next(r for r in conferencia.resultados if r["tipo"] == "galeria")
        quantidade = max(galeria["quantidadesAprovadas"])
        geracao = await geracoes.criar_galeria(
            principal,
            {"produtoId": produto.id, "quantidadeImagens": quantidade},
            idempotency_key="bench-galeria-midia-1",
        )
        geracao = await _until(lambda: Geracao.get(id=geracao.id), ("concluida", "parcial", "falhou"))
        assert geracao.situacao == "concluida", geracao.erro
        return geracao.id
    finally:
        await broker.shutdown()
        await runtime.stop()
        await runner.cleanup()


async def _until(read, situacoes: tuple[str, ...], timeout: float = 120.0):
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        row = await read()
        if row is not None and row.situacao in situacoes:
            return row
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError(f"still {getattr(row, 'situacao', None)} after {timeout:.0f} s")
        await asyncio.sleep(0.1)


async def _seed_avisos(
    integrador_id, settings, now, Aviso, Entrega, Tentativa, RodadaTeste, TesteAviso, assinatura
) -> tuple[str, str]:
    """A notice address with DELIVERIES delivered events (two attempts each: a 500, then a 204)
    and a concluded test run. Rows are written directly, as the call log above: this is data."""
    from graphql_api.core.ids import new_id

    _, chave = assinatura.novo_segredo()
    aviso = await Aviso.create(
        id=new_id("avs_"),
        integrador_id=integrador_id,
        ambiente="teste",
        url="https://receptor.exemplo.com/avisos",
        eventos=["geracao.concluida", "produto.conferido"],
        segredo_cifrado=assinatura.cifrar(chave, settings.signing_key),
    )
    corpo = json.dumps({"id": "evt_x", "tipo": "geracao.concluida", "data": {"geracaoId": "ger_x"}})
    entregas = [
        Entrega(
            id=new_id("ent_"),
            aviso_id=aviso.id,
            evento_id=new_id("evt_"),
            tipo="geracao.concluida",
            corpo=corpo,
            situacao="entregue",
            tentativas=2,
            ultimo_status=204,
            entregue_em=now,
        )
        for _ in range(DELIVERIES)
    ]
    await Entrega.bulk_create(entregas, batch_size=200)
    await Tentativa.bulk_create(
        [
            Tentativa(entrega_id=e.id, numero=n, iniciada_em=now, duracao_ms=12.5, status=status, resposta=resposta)
            for e in entregas
            for n, status, resposta in ((1, 500, "erro interno " * 20), (2, 204, ""))
        ],
        batch_size=200,
    )
    rodada = await RodadaTeste.create(
        id=new_id("rod_"),
        integrador_id=integrador_id,
        ambiente="teste",
        aviso=aviso,
        url=aviso.url,
        situacao="concluida",
        concluida_em=now,
    )
    for caso, status in (("valida", 204), ("assinatura_errada", 401), ("timestamp_antigo", 401)):
        await TesteAviso.create(
            id=new_id("tst_"),
            rodada=rodada,
            integrador_id=integrador_id,
            ambiente="teste",
            caso=caso,
            situacao="concluido",
            cabecalhos_enviados={"webhook-id": "tst_x"},
            corpo_enviado=corpo,
            status=status,
            resposta="",
            duracao_ms=8.0,
            veredito="passou",
            concluido_em=now,
        )
    return aviso.id, entregas[0].id


NOT_FOUND = "/pagina-que-nao-existe"  # the page of an unknown address, in the layout


async def measure(base: str, ids: dict) -> dict[str, list[float]]:
    import aiohttp

    pages = [
        "/visao-geral",
        "/chaves",
        "/chamadas",
        "/chamadas/lista",
        "/chamadas?status=4xx&metodo=POST",
        f"/chamadas/{ids['chamada']}",
        "/contas",
        f"/contas/{ids['conta']}",
        "/emails",
        f"/emails/{ids['email']}",
        f"/contas/{ids['conta']}/produtos/SKU-042",
        f"/contas/{ids['conta']}/produtos/MIDIA-1",
        "/geracoes",
        f"/geracoes/{ids['geracao']}",
        f"/geracoes/{ids['geracao']}/andamento",
        "/equipe",
        "/reautenticar",
        "/integracao",
        "/avisos",
        f"/avisos/{ids['aviso']}",
        f"/avisos/{ids['aviso']}/testes",
        f"/avisos/{ids['aviso']}/segredo",
        "/extrato",
        "/contrato",
        f"/avisos/{ids['aviso']}?tipo=geracao.concluida&situacao=entregue",
        f"/avisos/{ids['aviso']}/entregas/{ids['entrega']}",
        "/integracao/limpar",
        "/apps",
        "/creditos",
        "/plano",
        NOT_FOUND,
    ]
    timings: dict[str, list[float]] = {}
    # unsafe=True: keep cookies set by an IP address (127.0.0.1)
    async with aiohttp.ClientSession(base_url=base, cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        timings["/entrar (sem sessão)"] = await _samples(session, "/entrar")
        anonymous = await session.get("/entrar")
        token = re.search(r'name="csrf" value="([0-9a-f]+)"', await anonymous.text()).group(1)
        signed = await session.post(
            "/entrar", data={"csrf": token, "email": EMAIL, "senha": SENHA}, allow_redirects=False
        )
        assert signed.status == 303, await signed.text()
        for path in pages:
            timings[path] = await _samples(session, path)
    return timings


async def _samples(session, path: str) -> list[float]:
    for _ in range(3):  # warm: templates compiled, documents validated, connections open
        await (await session.get(path)).read()
    samples = []
    for _ in range(ROUNDS):
        response = await session.get(path, allow_redirects=False)
        await response.read()
        assert response.status == (404 if path == NOT_FOUND else 200), (path, response.status)
        samples.append(_server_ms(response))
    return samples


def _server_ms(response) -> float:
    return float(re.search(r"dur=([\d.]+)", response.headers["Server-Timing"]).group(1))


def run_backend(env: dict[str, str]) -> dict[str, list[float]]:
    env = {**os.environ, **env}
    env.pop("VITRINE_SMTP_URL", None)
    tls = Path(tempfile.mkdtemp(prefix="vitrine-bench-tls-"))
    ca, _, _ = make_tls_files(tls)
    # The seed runs its tasks in-process (no Redis broker) and may fetch from the local photo host.
    seed_env = {k: v for k, v in env.items() if k != "VITRINE_REDIS_URL"} | {
        "BENCH_TLS_DIR": str(tls),
        "VITRINE_OUTBOUND_ALLOW_PRIVATE": "1",
        "VITRINE_OUTBOUND_CA_BUNDLE": str(ca),
    }
    seeded = subprocess.run(
        [sys.executable, __file__, "--seed"], env=seed_env, cwd=ROOT, capture_output=True, text=True
    )
    if seeded.returncode:
        raise SystemExit(seeded.stderr)
    ids = json.loads(seeded.stdout.strip().splitlines()[-1])
    port = free_port()
    env |= {"VITRINE_PORT": str(port), "VITRINE_PUBLIC_URL": f"http://127.0.0.1:{port}"}
    from tests.processes import start_vitrine

    server = start_vitrine("serve", env=env, log=subprocess.DEVNULL)
    try:
        wait_for_port(port)
        return asyncio.run(measure(f"http://127.0.0.1:{port}", ids))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def _drop_database(env: dict[str, str]) -> None:
    url = env.get("VITRINE_DATABASE_URL")
    if not url:
        return
    import asyncpg

    async def drop() -> None:
        conn = await asyncpg.connect(PG_ADMIN)
        await conn.execute(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')
        await conn.close()

    asyncio.run(drop())


def _reachable(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", action="store_true")
    parser.add_argument("--backends", default="sqlite,postgres")
    args = parser.parse_args()
    if args.seed:
        print(json.dumps(asyncio.run(seed())))
        return
    selected = args.backends.split(",")
    if "postgres" in selected and not (_reachable(5432) and _reachable(6379)):
        print("PostgreSQL or Redis not reachable: measuring SQLite only\n")
        selected.remove("postgres")
    print(
        f"Portal pages: {CALLS} calls in the log, {PRODUCTS} products; server time (Server-Timing), {ROUNDS} requests per page\n"
    )
    failed = False
    for name, env in backends(selected):
        try:
            timings = run_backend(env)
        finally:
            _drop_database(env)
        print(name)
        print(f"  {'page':56} {'median':>8} {'p95':>8} {'max':>8}")
        worst = ("", 0.0)
        for path, samples in timings.items():
            ordered = sorted(samples)
            p95 = ordered[max(0, int(len(ordered) * 0.95) - 1)]
            print(f"  {path:56} {statistics.median(ordered):7.1f}  {p95:7.1f}  {ordered[-1]:7.1f}  ms")
            if p95 > worst[1]:
                worst = (path, p95)
        ok = worst[1] < TARGET_MS
        failed |= not ok
        print(
            f"  slowest: {worst[0]} at p95 {worst[1]:.1f} ms (target < {TARGET_MS:.0f} ms: {'ok' if ok else 'MISSED'})\n"
        )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
