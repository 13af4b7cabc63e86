"""Notice deliveries on PostgreSQL + Redis with 2 `vitrine worker` processes, to a local HTTPS
receiver (its own process) that verifies every delivery with `standardwebhooks`.

    .venv/bin/python bench/avisos.py                       # both figures (about 8 minutes)
    .venv/bin/python bench/avisos.py --down-seconds 60     # shorter outage (say so when quoting)
    .venv/bin/python bench/avisos.py --skip-down           # throughput figure only

Figures:
1. 1,000 deliveries drained in under 20 s with 2 workers; none lost, none sent twice when the
   receiver answers 2XX; p99 from event to first attempt under 1 s. Events are emitted at
   --rate per second (default 100; 0 = all at once) by this process, each in its own
   transaction, as a domain emits them.
2. A receiver down for --down-seconds (default 300 = 5 minutes) and back up: every delivery
   made while it was down arrives afterwards, once, with its original webhook-id. The retry
   schedule is the production one (10 s x 3^n with jitter)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api_overhead import PG_ADMIN, REDIS_URL, free_port  # noqa: E402
from tests.processes import start_vitrine  # noqa: E402
from vitrine.infra.process import tied_to_this_process  # noqa: E402


def run_receptor(port: int, segredo: str, out: str, cert: str, key: str) -> None:
    """The receiver process: verifies with standardwebhooks, appends [id, arrival, valid] per request."""
    from aiohttp import web

    from tests.receptor import Receptor
    from tests.tls import server_context

    receptor = Receptor(segredo)
    log = open(out, "a", buffering=1)

    async def receber(request: web.Request) -> web.Response:
        response = await receptor.receber(request)
        chegou = receptor.recebidos[-1]  # appended by receber with no await after it
        log.write(json.dumps([chegou.webhook_id, chegou.chegou, chegou.valido]) + "\n")
        return response

    app = web.Application()
    app.router.add_post("/avisos", receber)
    web.run_app(
        app, host="127.0.0.1", port=port, ssl_context=server_context(Path(cert), Path(key)), print=None, access_log=None
    )


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        tag = secrets.token_hex(4)
        self.database = f"vitrine_bench_{tag}"
        self.dir = Path(tempfile.mkdtemp(prefix=f"vitrine-bench-avisos-{tag}-"))
        from tests.tls import make_tls_files

        self.ca, self.cert, self.key = make_tls_files(self.dir / "tls")
        self.env = {
            "VITRINE_DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{self.database}",
            "VITRINE_REDIS_URL": REDIS_URL,
            "VITRINE_REDIS_NAMESPACE": f"bench-{tag}",
            "VITRINE_DATA_DIR": str(self.dir),
            "VITRINE_SECRET_KEY": "bench-secret-key",
            "VITRINE_OUTBOUND_ALLOW_PRIVATE": "1",  # the receiver is on 127.0.0.1
            "VITRINE_OUTBOUND_CA_BUNDLE": str(self.ca),
            "VITRINE_INPROCESS_WORKERS": "false",
        }
        os.environ.update(self.env)  # before any vitrine module reads its settings
        self.port = free_port()
        self.url = f"https://localhost:{self.port}/avisos"
        self.arrivals = self.dir / "recebidos.jsonl"
        self.receptor: subprocess.Popen | None = None
        self.worker: subprocess.Popen | None = None

    # ---------------------------------------------------------------- processes

    def start_receptor(self, segredo: str) -> None:
        self.receptor = subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--receptor",
                str(self.port),
                segredo,
                str(self.arrivals),
                str(self.cert),
                str(self.key),
            ],
            env=os.environ.copy(),
            start_new_session=True,
            preexec_fn=tied_to_this_process(),
        )
        deadline = time.time() + 15
        while time.time() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise RuntimeError("receiver did not start")

    def stop_receptor(self) -> None:
        os.killpg(self.receptor.pid, signal.SIGKILL)  # down at once, connections refused
        self.receptor.wait()

    def start_worker(self) -> None:
        log_path = self.dir / "worker.log"
        log = open(log_path, "w")
        self.worker = start_vitrine("worker", "--workers", "2", env=os.environ.copy(), log=log)
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.worker.poll() is not None:
                raise RuntimeError(log_path.read_text())
            if log_path.read_text().count("Listening started") >= 2:
                return
            time.sleep(0.2)
        raise RuntimeError("workers did not start")

    def stop_worker(self) -> None:
        if self.worker is not None and self.worker.poll() is None:
            os.killpg(self.worker.pid, signal.SIGTERM)
            try:
                self.worker.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.worker.pid, signal.SIGKILL)

    def read_arrivals(self) -> list[tuple[str, float, bool]]:
        if not self.arrivals.exists():
            return []
        return [tuple(json.loads(line)) for line in self.arrivals.read_text().splitlines() if line.strip()]

    # ---------------------------------------------------------------- the run

    async def setup(self) -> None:
        import asyncpg

        conn = await asyncpg.connect(PG_ADMIN)
        await conn.execute(f'CREATE DATABASE "{self.database}"')
        await conn.close()
        from graphql_api.aviso import enderecos
        from graphql_api.core.principal import ALL_SCOPES, Ambiente, CredentialKind, Principal
        from graphql_api.integrador import service as integradores
        from tasks.broker import broker
        from vitrine import db
        from vitrine.runtime import Runtime
        from vitrine.settings import Settings

        self.settings = Settings()
        await db.migrate(self.settings)
        self.db = await db.connect(self.settings)
        created = await integradores.criar_integrador(nome="Bench avisos", email="bench@example.com")
        self.integrador_id = created.integrador.id
        principal = Principal(CredentialKind.API_KEY, Ambiente.TESTE, ALL_SCOPES, integrador_id=self.integrador_id)
        runtime = Runtime.build(self.settings)
        registro = await enderecos.registrar_aviso(
            principal, {"url": self.url, "eventos": ["geracao.concluida"]}, runtime=runtime
        )
        await runtime.outbound.close()
        self.aviso_id = registro.aviso.id
        self.segredo = registro.segredo  # the outage restarts the receiver with it
        self.start_receptor(self.segredo)
        self.start_worker()
        self.broker = broker
        await broker.startup()

    async def emit(self, count: int, rate: float) -> dict[str, float]:
        """Events, each in its own transaction; returns evento id -> creation time (unix)."""
        from graphql_api.core.ids import new_id
        from graphql_api.evento import service as eventos
        from graphql_api.evento.amostras import amostra

        created: dict[str, float] = {}
        start = time.perf_counter()
        for i in range(count):
            if rate:
                pause = start + i / rate - time.perf_counter()
                if pause > 0:
                    await asyncio.sleep(pause)
            evento = await eventos.registrar(
                "geracao.concluida",
                integrador_id=self.integrador_id,
                ambiente="teste",
                conta_id=None,
                dados=amostra("geracao.concluida").dados.model_copy(update={"id": new_id("ger_")}),
            )
            created[evento.id] = evento.criado_em.timestamp()
        return created

    async def wait_delivered(self, evento_ids: list[str], timeout: float) -> tuple[dict[str, str], float]:
        """entrega id -> evento id, once all are entregue; and when that was seen."""
        from graphql_api.aviso.models import Entrega

        deadline = time.time() + timeout
        while True:
            rows = await Entrega.filter(evento_id__in=evento_ids).values("id", "evento_id", "situacao")
            if len(rows) == len(evento_ids) and all(r["situacao"] == "entregue" for r in rows):
                return {r["id"]: r["evento_id"] for r in rows}, time.time()
            if time.time() > deadline:
                counts = Counter(r["situacao"] for r in rows)
                raise RuntimeError(f"not drained in {timeout:.0f} s: {dict(counts)} of {len(evento_ids)}")
            await asyncio.sleep(0.1)

    async def attempts(self, entrega_ids: list[str]) -> Counter:
        from graphql_api.aviso.models import Tentativa

        return Counter(await Tentativa.filter(entrega_id__in=entrega_ids).values_list("entrega_id", flat=True))

    async def throughput(self) -> bool:
        n, rate = self.args.deliveries, self.args.rate
        print(f"\n1) {n} deliveries, 2 workers, events at {'once' if not rate else f'{rate:g}/s'}")
        created = await self.emit(n, rate)
        entregas, confirmed = await self.wait_delivered(list(created), timeout=120)
        arrivals = [a for a in self.read_arrivals() if a[0] in entregas]
        per_id = Counter(a[0] for a in arrivals)
        first = {}
        for webhook_id, chegou, _ in arrivals:
            first[webhook_id] = min(chegou, first.get(webhook_id, chegou))
        latencies = sorted(first[i] - created[entregas[i]] for i in first)
        drained = max(first.values()) - min(created.values())
        lost = len(entregas) - len(per_id)
        twice = sum(c - 1 for c in per_id.values())
        db_twice = sum(c - 1 for c in (await self.attempts(list(entregas))).values())
        invalid = sum(1 for a in arrivals if not a[2])
        p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))]  # noqa: E731
        print(
            f"   drained in {drained:.2f} s (first event -> last arrival; confirmed in the database {confirmed - min(created.values()):.2f} s)"
        )
        print(
            f"   arrived {len(per_id)}/{n}, lost {lost}, sent twice {twice} (attempts beyond one in the database: {db_twice}), bad signatures {invalid}"
        )
        print(
            f"   event -> first attempt: p50 {p(0.50) * 1000:.0f} ms, p99 {p(0.99) * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms"
        )
        ok = drained < 20 and lost == 0 and twice == 0 and db_twice == 0 and invalid == 0 and p(0.99) < 1
        print(f"   target (< 20 s, none lost, none twice, p99 < 1 s): {'MET' if ok else 'NOT MET'}")
        return ok

    async def outage(self) -> bool:
        n, down = self.args.down_events, self.args.down_seconds
        print(
            f"\n2) receiver down for {down:g} s ({down / 60:.1f} min), {n} events while down, production retry schedule"
        )
        before = len(self.read_arrivals())
        self.stop_receptor()
        down_at = time.time()
        created = await self.emit(n, rate=20)
        from graphql_api.aviso.models import Entrega

        original = set(await Entrega.filter(evento_id__in=list(created)).values_list("id", flat=True))
        await asyncio.sleep(max(0.0, down_at + down - time.time()))
        failed_before = await self.attempts(list(original))
        self.start_receptor(self.segredo)
        up_at = time.time()
        print(
            f"   receiver back after {up_at - down_at:.0f} s; {sum(failed_before.values())} failed attempts recorded while down"
        )
        entregas, confirmed = await self.wait_delivered(list(created), timeout=40 * 60)
        arrivals = self.read_arrivals()[before:]
        per_id = Counter(a[0] for a in arrivals)
        arrived_ids = set(per_id)
        invalid = sum(1 for a in arrivals if not a[2])
        tries = await self.attempts(list(original))
        print(
            f"   all delivered {confirmed - up_at:.0f} s after the receiver came back (attempts per delivery: "
            f"min {min(tries.values())}, max {max(tries.values())})"
        )
        print(
            f"   arrived {len(arrived_ids & original)}/{n} with their original webhook-id, unknown ids {len(arrived_ids - original)}, "
            f"sent twice {sum(c - 1 for c in per_id.values())}, bad signatures {invalid}"
        )
        ok = arrived_ids == original == set(entregas) and all(c == 1 for c in per_id.values()) and invalid == 0
        print(
            f"   target (every delivery arrives afterwards with its original webhook-id): {'MET' if ok else 'NOT MET'}"
        )
        return ok

    async def teardown(self) -> None:
        import asyncpg
        from redis.asyncio import Redis

        self.stop_worker()
        if self.receptor is not None and self.receptor.poll() is None:
            self.stop_receptor()
        with contextlib.suppress(Exception):  # a broker already gone is stopped
            await self.broker.shutdown()
        await self.db.close_connections()
        redis = Redis.from_url(REDIS_URL)
        keys = [key async for key in redis.scan_iter(match=f"{self.env['VITRINE_REDIS_NAMESPACE']}:*")]
        if keys:
            await redis.delete(*keys)
        await redis.aclose()
        conn = await asyncpg.connect(PG_ADMIN)
        await conn.execute(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
        await conn.close()


async def main(args: argparse.Namespace) -> int:
    bench = Bench(args)
    try:
        await bench.setup()
        print(f"PostgreSQL + Redis, `vitrine worker --workers 2`, receiver {bench.url} (own process, standardwebhooks)")
        ok = await bench.throughput()
        if not args.skip_down:
            ok = await bench.outage() and ok
    finally:
        await bench.teardown()
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--receptor":
        port, segredo, out, cert, key = sys.argv[2:7]
        run_receptor(int(port), segredo, out, cert, key)
        raise SystemExit(0)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deliveries", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=100.0, help="events per second (0 = all at once)")
    parser.add_argument("--down-seconds", type=float, default=300.0)
    parser.add_argument("--down-events", type=int, default=100)
    parser.add_argument("--skip-down", action="store_true")
    raise SystemExit(asyncio.run(main(parser.parse_args())))
