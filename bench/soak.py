"""Soak of the scaled topology: PostgreSQL + Redis, 2 web processes (`vitrine serve` with
VITRINE_INPROCESS_WORKERS=false, one port each) and 2 `vitrine worker` processes, under a bounded
mixed load from a few concurrent clients for DURATION seconds, while a worker is killed with
SIGKILL every --kill-every seconds (and replaced) and one web process is restarted (SIGTERM, start
again) midway. Then a bounded drain, and the checks:

- requests answered, their p99 latency; no 5xx;
- no generation lost (ordered and never concluida/falhou/parcial) nor doubled (two for one
  Idempotency-Key), repeats answered Idempotent-Replayed: true, nothing reserved twice;
- no notice lost (an event whose delivery never reached the receiver with a valid signature) nor
  delivered under two webhook-ids (the same webhook-id twice is an at-least-once retry: counted);
- the credit ledger adds up to the wallets' balances;
- every answered request (its X-Request-Id) has a call-log row.

    .venv/bin/python bench/soak.py                         # 600 s
    .venv/bin/python bench/soak.py --seconds 120 --kill-every 40   # a trial run

Everything it starts is its own: a database (dropped at the end), a Redis queue name, a data dir,
ports, a local HTTPS photo host and a local HTTPS notice receiver (verifying with
`standardwebhooks`). Every process dies with it (parent-death signal, own session, killpg at
exit, Ctrl-C included). Exit status 1 when a check fails."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import json
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api_overhead import PG_ADMIN, free_port, reference_loop_ns, wait_for_port  # noqa: E402

REDIS_URL = "redis://127.0.0.1:6379/15"
FINAL = ("concluida", "falhou", "parcial")
PHOTO_SEEDS = (1, 2, 3, 4, 5, 6)  # tests/photos.py draws them; six pass the check for every media type
SEED_CREDITS = 100_000  # play credits, so the load never meets INSUFFICIENT_CREDITS

# ===================================================================================== processes

_libc = ctypes.CDLL(None, use_errno=True)
PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """In a child, before exec: SIGKILL it when the process that started it dies."""
    _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


class Proc:
    """A child in its own session (so killpg reaches its own children too), logging to a file."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], log: Path) -> None:
        self.name, self.argv, self.env, self.log = name, argv, env, log
        self.popen: subprocess.Popen | None = None

    def start(self) -> Proc:
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log, "a") as out:
            self.popen = subprocess.Popen(
                self.argv,
                env=self.env,
                cwd=ROOT,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=die_with_parent,
            )
        return self

    @property
    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def signal(self, sig: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, sig)

    def stop(self, timeout: float = 30) -> None:
        """SIGTERM (graceful), then SIGKILL to the whole group."""
        if self.popen is None:
            return
        if self.alive:
            self.signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(timeout=timeout)
        self.signal(signal.SIGKILL)  # also whatever it forked and left behind
        self.popen.wait()

    def kill(self) -> None:
        self.signal(signal.SIGKILL)
        self.popen.wait()


def vitrine_launcher(args: list[str]) -> None:
    """`--vitrine ARGS`: the `vitrine` CLI, with every process it forks (taskiq's worker
    processes) also killed when its parent dies, so nothing outlives the soak."""
    os.register_at_fork(after_in_child=die_with_parent)
    from vitrine.cli import main

    main(args=args, prog_name="vitrine")


# ===================================================================================== local HTTPS sites


def run_receiver(port: int, segredo: str, out: str, cert: str, key: str) -> None:
    """`--receiver`: verifies each delivery with standardwebhooks (tests/receptor.py) and appends
    [webhook-id, event id, event type, valid, arrival, payload] per request to `out`."""
    from aiohttp import web

    from tests.receptor import Receptor
    from tests.tls import server_context

    receptor = Receptor(segredo)
    log = open(out, "a", buffering=1)

    async def receber(request: web.Request) -> web.Response:
        response = await receptor.receber(request)
        chegou = receptor.recebidos[-1]  # appended by receber with no await after it
        try:
            evento = chegou.evento
        except ValueError:
            evento = {}
        log.write(
            json.dumps(
                [
                    chegou.cabecalhos.get("webhook-id"),
                    evento.get("id"),
                    evento.get("tipo"),
                    chegou.valido,
                    chegou.chegou,
                    chegou.corpo.decode("utf-8", "replace"),
                ]
            )
            + "\n"
        )
        receptor.recebidos.clear()  # the file is the record; keep the process small
        return response

    app = web.Application()
    app.router.add_post("/avisos", receber)
    web.run_app(
        app, host="127.0.0.1", port=port, ssl_context=server_context(Path(cert), Path(key)), print=None, access_log=None
    )


def run_photos(port: int, cert: str, key: str) -> None:
    """`--photos`: the tests' photo host (tests/photos.py) over HTTPS."""
    from aiohttp import web

    from tests.photos import PhotoHost, photo
    from tests.tls import server_context

    for seed in PHOTO_SEEDS:
        photo(seed)  # drawn before the first request
    web.run_app(
        PhotoHost().app,
        host="127.0.0.1",
        port=port,
        ssl_context=server_context(Path(cert), Path(key)),
        print=None,
        access_log=None,
    )


async def seed_integrator() -> dict:
    """`--seed`: an integrator with limits out of the way, play credits for the whole run and a
    second test key for the forced 429s (so waiting out its Retry-After is meaningful)."""
    from graphql_api.chave import service as chaves
    from graphql_api.core.principal import Ambiente
    from graphql_api.core.transactions import transaction
    from graphql_api.creditos import service as creditos
    from graphql_api.integrador import service as integradores
    from graphql_api.integrador.models import Integrador
    from vitrine import db
    from vitrine.settings import Settings

    context = await db.connect(Settings())
    try:
        created = await integradores.criar_integrador(nome="Soak", email="soak@example.com")
        integrador_id = created.integrador.id
        await Integrador.filter(id=integrador_id).update(
            limite_por_minuto_chave=10_000_000, limite_por_minuto_integrador=10_000_000
        )
        async with transaction():
            await creditos.creditar(integrador_id, Ambiente.TESTE.value, SEED_CREDITS, "Créditos do soak.")
        _, throttle_key = await chaves.criar_chave(integrador_id, Ambiente.TESTE, nome="soak-429")
        return {"integradorId": integrador_id, "chave": created.chave_teste, "chave429": throttle_key}
    finally:
        await context.close_connections()


# ===================================================================================== the topology


class Topology:
    """Database, Redis names, data dir, certificates and every process of the run."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.tag = secrets.token_hex(4)
        self.database = f"vitrine_soak_{self.tag}"
        self.dir = Path(tempfile.mkdtemp(prefix=f"vitrine-soak-{self.tag}-"))
        self.logs = self.dir / "logs"
        from tests.tls import make_tls_files

        self.ca, self.cert, self.key = make_tls_files(self.dir / "tls")
        self.namespace = f"soak-{self.tag}"
        self.env = {
            **os.environ,
            "VITRINE_DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{self.database}",
            "VITRINE_DATABASE_POOL_SIZE": "8",  # 4 processes x (8 + 5) stay well under max_connections
            "VITRINE_REDIS_URL": REDIS_URL,
            "VITRINE_REDIS_NAMESPACE": self.namespace,
            "VITRINE_DATA_DIR": str(self.dir / "data"),
            "VITRINE_SECRET_KEY": f"soak-{self.tag}",
            "VITRINE_OUTBOUND_ALLOW_PRIVATE": "1",  # photo host and receiver are on 127.0.0.1
            "VITRINE_OUTBOUND_CA_BUNDLE": str(self.ca),
            "VITRINE_INPROCESS_WORKERS": "false",
        }
        self.web_ports = [free_port(), free_port()]
        self.photos_port, self.receiver_port = free_port(), free_port()
        self.arrivals = self.dir / "recebidos.jsonl"
        self.webs: list[Proc] = []
        self.workers: list[Proc] = []
        self.others: list[Proc] = []
        self.worker_starts = 0

    # -- database and Redis

    async def create_database(self) -> None:
        import asyncpg

        conn = await asyncpg.connect(PG_ADMIN)
        await conn.execute(f'CREATE DATABASE "{self.database}"')
        await conn.close()

    def drop_database(self) -> None:
        import asyncpg

        async def drop() -> None:
            conn = await asyncpg.connect(PG_ADMIN)
            await conn.execute(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
            await conn.close()

        asyncio.run(drop())

    def clean_redis(self) -> None:
        from redis import Redis

        redis = Redis.from_url(REDIS_URL)
        keys = list(redis.scan_iter(f"{self.namespace}:*"))
        if keys:
            redis.delete(*keys)
        redis.close()

    # -- processes

    def _python(self, *args: str) -> list[str]:
        return [sys.executable, __file__, *args]

    def run_once(self, name: str, *args: str) -> str:
        """A short child (migrate, seed) that dies with us too; its stdout."""
        done = subprocess.run(
            self._python(*args),
            env=self.env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            preexec_fn=die_with_parent,
            timeout=180,
        )
        if done.returncode != 0:
            raise RuntimeError(f"{name} failed:\n{done.stdout}\n{done.stderr}")
        return done.stdout

    def start_sites(self, segredo: str) -> None:
        self.others.append(
            Proc(
                "photos",
                self._python("--photos", str(self.photos_port), str(self.cert), str(self.key)),
                self.env,
                self.logs / "photos.log",
            ).start()
        )
        self.others.append(
            Proc(
                "receiver",
                self._python(
                    "--receiver", str(self.receiver_port), segredo, str(self.arrivals), str(self.cert), str(self.key)
                ),
                self.env,
                self.logs / "receiver.log",
            ).start()
        )
        wait_for_port(self.photos_port)
        wait_for_port(self.receiver_port)

    # Children are started from the event loop's thread (the parent-death signal follows the
    # thread that forked), and waited for without blocking the clients.

    async def start_web(self, index: int) -> Proc:
        port = self.web_ports[index]
        proc = Proc(
            f"web-{index}",
            self._python("--vitrine", "serve", "--port", str(port)),
            {**self.env, "VITRINE_PUBLIC_URL": f"http://127.0.0.1:{port}"},
            self.logs / f"web-{index}.log",
        ).start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if not proc.alive:
                raise RuntimeError(f"{proc.name} died: {proc.log.read_text()[-2000:]}")
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    return proc
            await asyncio.sleep(0.1)
        raise RuntimeError(f"{proc.name} did not listen in 60 s")

    async def start_worker(self) -> Proc:
        self.worker_starts += 1
        log = self.logs / f"worker-{self.worker_starts}.log"
        proc = Proc(
            f"worker-{self.worker_starts}", self._python("--vitrine", "worker", "--workers", "1"), self.env, log
        ).start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if not proc.alive:
                raise RuntimeError(f"{proc.name} died: {log.read_text()[-2000:]}")
            if log.exists() and "Listening started" in log.read_text():
                return proc
            await asyncio.sleep(0.2)
        raise RuntimeError(f"{proc.name} did not start listening in 60 s")

    async def start_service(self) -> None:
        self.webs = [await self.start_web(0), await self.start_web(1)]
        self.workers = [await self.start_worker(), await self.start_worker()]

    def stop_all(self) -> None:
        for proc in [*self.webs, *self.workers, *self.others]:
            proc.stop(timeout=20)

    def base_urls(self) -> list[str]:
        return [f"http://127.0.0.1:{port}/v1" for port in self.web_ports]

    def photo(self, seed: int) -> str:
        return f"https://localhost:{self.photos_port}/foto/{seed}.jpg"

    @property
    def receiver_url(self) -> str:
        return f"https://localhost:{self.receiver_port}/avisos"


# ===================================================================================== the clients


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    routes: Counter = field(default_factory=Counter)
    request_ids: set[str] = field(default_factory=set)
    server_errors: list[tuple] = field(default_factory=list)
    # While a web process restarts: refused (never reached it) or cut (sent, the answer lost).
    refused_restart: int = 0
    cut_restart: int = 0
    unanswered_other: list[str] = field(default_factory=list)
    waited_retry_after: int = 0
    problems: list[str] = field(default_factory=list)  # contract breaches seen by a client


class Unanswered(Exception):
    pass


@dataclass
class Answer:
    status: int
    headers: dict  # case-insensitive (a CIMultiDict)
    body: dict


class Api:
    """One integrator's client: alternates between the web processes as a balancer would, moves to
    the other on a connection error, waits out Retry-After. Every attempt is bounded."""

    ATTEMPTS = 8

    def __init__(self, session, bases: list[str], key: str, stats: Stats, soak: Soak) -> None:
        self.session, self.bases, self.key, self.stats, self.soak = session, bases, key, stats, soak
        self.turn = random.randrange(len(bases))

    async def call(
        self, method: str, path: str, route: str, *, json_body=None, headers=None, wait_retry_after: bool = True
    ) -> Answer:
        import aiohttp

        headers = {"Authorization": f"Bearer {self.key}", **(headers or {})}
        for _ in range(self.ATTEMPTS):
            self.turn += 1
            base = self.bases[self.turn % len(self.bases)]
            started = time.perf_counter()
            try:
                async with self.session.request(method, base + path, json=json_body, headers=headers) as response:
                    raw = await response.read()
                    answer = Answer(response.status, response.headers.copy(), json.loads(raw) if raw else {})
            except (TimeoutError, aiohttp.ClientConnectionError) as exc:
                if self.soak.restarting and isinstance(exc, aiohttp.ClientConnectorError):
                    self.stats.refused_restart += 1
                elif self.soak.restarting:
                    self.stats.cut_restart += 1
                else:
                    self.stats.unanswered_other.append(f"{method} {route}: {type(exc).__name__} {exc}")
                await asyncio.sleep(0.2)
                continue
            self.record(route, answer, time.perf_counter() - started)
            retry_after = answer.headers.get("Retry-After")
            if wait_retry_after and retry_after and answer.status in (409, 429, 503):
                self.stats.waited_retry_after += 1
                await asyncio.sleep(min(float(retry_after), 10))
                continue
            return answer
        raise Unanswered(f"{method} {route}: no answer in {self.ATTEMPTS} attempts")

    def record(self, route: str, answer: Answer, seconds: float) -> None:
        s = self.stats
        s.latencies.append(seconds)
        s.statuses[answer.status] += 1
        s.routes[route] += 1
        request_id = answer.headers.get("X-Request-Id")
        if request_id:
            s.request_ids.add(request_id)
        else:
            s.problems.append(f"{route} answered {answer.status} without X-Request-Id")
        if answer.status >= 500:
            s.server_errors.append((route, answer.status, request_id, answer.body))


@dataclass
class Orders:
    by_key: dict[str, str | None] = field(default_factory=dict)  # Idempotency-Key -> generation id (None: no 201)
    replays: int = 0

    @property
    def ids(self) -> list[str]:
        return [g for g in self.by_key.values() if g]


class Soak:
    def __init__(self, args: argparse.Namespace, topo: Topology) -> None:
        self.args, self.topo = args, topo
        self.stats = Stats()
        self.orders = Orders()
        self.produtos: list[str] = []  # approved products to order media for
        self.restarting = False
        self.events: list[str] = []  # chaos, as it happened
        self.started = 0.0

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def running(self, deadline: float) -> bool:
        return time.monotonic() < deadline

    # -- set-up over the API

    async def prepare(self, api: Api) -> str:
        """An account, a notice address for every event (its secret), approved products."""
        conta = await api.call(
            "POST", "/contas", "POST /contas", json_body={"codigoExterno": f"soak-{self.topo.tag}", "nome": "Loja Soak"}
        )
        assert conta.status == 201, conta.body
        self.conta_id = conta.body["data"]["id"]
        from graphql_api.evento.catalog import EVENT_TYPES

        aviso = await api.call(
            "PUT", "/avisos", "PUT /avisos", json_body={"url": self.topo.receiver_url, "eventos": sorted(EVENT_TYPES)}
        )
        assert aviso.status == 201, aviso.body
        return aviso.body["data"]["segredo"]

    async def put_ficha(self, api: Api, codigo: str, seeds=PHOTO_SEEDS) -> dict:
        from tests.fichas import RICA

        body = RICA | {"imagens": [{"url": self.topo.photo(s), "ordem": i + 1} for i, s in enumerate(seeds)]}
        answer = await api.call(
            "PUT", f"/contas/{self.conta_id}/produtos/{codigo}", "PUT /contas/{id}/produtos/{codigo}", json_body=body
        )
        assert answer.status == 200, answer.body
        return answer.body["data"]

    async def checked(self, api: Api, produto_id: str, timeout: float = 60) -> dict | None:
        """Polls POST /produtos/{id}/conferencia until 200 (bounded); the check's result."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            answer = await api.call("POST", f"/produtos/{produto_id}/conferencia", "POST /produtos/{id}/conferencia")
            if answer.status == 200:
                return answer.body["data"]
            await asyncio.sleep(1)
        return None

    async def approved_product(self, api: Api, codigo: str) -> str | None:
        produto = await self.put_ficha(api, codigo)
        result = await self.checked(api, produto["id"])
        approved = {r["tipo"] for r in (result or {}).get("resultados", []) if r["aprovado"]}
        return produto["id"] if {"galeria", "video_apresentacao"} <= approved else None

    # -- load loops (each bounded in count and time)

    async def reader(self, api: Api, deadline: float, pause: float) -> None:
        for _ in range(self.args.max_requests):
            if not self.running(deadline):
                return
            choice = random.random()
            if choice < 0.35 and self.orders.ids:
                await api.call("GET", f"/geracoes/{random.choice(self.orders.ids)}", "GET /geracoes/{id}")
            elif choice < 0.6:
                await api.call("GET", "/saldo", "GET /saldo")
            elif choice < 0.85:
                await api.call("GET", "/contas", "GET /contas")
            else:
                await api.call("GET", "/integracao/chamadas?limite=20", "GET /integracao/chamadas")
            await asyncio.sleep(pause)

    async def fichas(self, api: Api, deadline: float, pause: float) -> None:
        """New products (each a check, a produto.conferido notice), identical re-sends, and the
        approved ones join the pool the orders draw from."""
        for n in range(1, self.args.max_requests):
            if not self.running(deadline):
                return
            codigo = f"SOAK-{n}"
            seeds = random.sample(PHOTO_SEEDS, len(PHOTO_SEEDS))  # the same photos, another order
            produto = await self.put_ficha(api, codigo, seeds)
            again = await self.put_ficha(api, codigo, seeds)
            if again["versao"] != produto["versao"]:
                self.stats.problems.append(f"identical ficha {codigo} made version {again['versao']}")
            result = await self.checked(api, produto["id"], timeout=max(2.0, deadline - time.monotonic()))
            if result and all(
                r["aprovado"] for r in result["resultados"] if r["tipo"] in ("galeria", "video_apresentacao")
            ):
                self.produtos.append(produto["id"])
            await asyncio.sleep(pause)

    async def orderer(self, api: Api, deadline: float, pause: float, name: str) -> None:
        """Galleries and, one in five, a video; one in four repeated with the same key and body."""
        for n in range(1, self.args.max_requests):
            if not self.running(deadline):
                return
            produto = random.choice(self.produtos)
            if n % 5 == 0:
                path, body = "/videos", {"produtoId": produto, "tipo": "apresentacao", "avatar": "automatico"}
            else:
                path, body = "/galerias", {"produtoId": produto, "quantidadeImagens": 3}
            key = f"soak-{self.topo.tag}-{name}-{n}"
            self.orders.by_key[key] = None
            first = await api.call("POST", path, f"POST {path}", json_body=body, headers={"Idempotency-Key": key})
            if first.status != 201:
                self.stats.problems.append(f"POST {path} answered {first.status}: {first.body}")
                continue
            self.orders.by_key[key] = first.body["data"]["id"]
            if n % 4 == 0:
                await self.repeat(api, path, body, key, first)
            await asyncio.sleep(pause)

    async def repeat(self, api: Api, path: str, body: dict, key: str, first: Answer) -> None:
        again = await api.call("POST", path, f"POST {path}", json_body=body, headers={"Idempotency-Key": key})
        self.orders.replays += 1
        if (
            again.status != 201
            or again.headers.get("Idempotent-Replayed") != "true"
            or again.body["data"]["id"] != first.body["data"]["id"]
        ):
            self.stats.problems.append(
                f"repeat of {key} answered {again.status} replayed={again.headers.get('Idempotent-Replayed')} {again.body}"
            )

    async def throttled(self, api: Api, deadline: float) -> None:
        """Forced 429s with the second key: each must carry Retry-After, which is then waited out."""
        for _ in range(self.args.max_requests):
            if not self.running(deadline):
                return
            answer = await api.call(
                "GET",
                "/saldo",
                "GET /saldo (forcar-429)",
                headers={"X-Vitrine-Teste": "forcar-429"},
                wait_retry_after=False,
            )
            retry_after = answer.headers.get("Retry-After")
            if answer.status != 429 or not retry_after:
                self.stats.problems.append(f"forcar-429 answered {answer.status}, Retry-After {retry_after!r}")
                retry_after = "5"
            self.stats.waited_retry_after += 1
            await asyncio.sleep(float(retry_after) + 0.2)
            await api.call("GET", "/saldo", "GET /saldo")

    # -- chaos

    async def chaos(self, deadline: float) -> None:
        """SIGKILL a worker every --kill-every seconds (a replacement starts at once) and restart
        web process 0 (SIGTERM, start again) at half time."""
        restart_at = self.args.seconds / 2
        next_kill = self.args.kill_every
        restarted = False
        while self.running(deadline):
            if not restarted and self.elapsed() >= restart_at:
                restarted = True
                await self.restart_web()
            if self.elapsed() >= next_kill and time.monotonic() + 5 < deadline:
                victim = len(self.events) % 2
                old = self.topo.workers[victim]
                old.kill()
                self.events.append(f"{self.elapsed():6.1f} s: kill -9 {old.name} (pid {old.popen.pid})")
                self.topo.workers[victim] = await self.topo.start_worker()
                self.events.append(f"{self.elapsed():6.1f} s: {self.topo.workers[victim].name} started in its place")
                next_kill += self.args.kill_every
            await asyncio.sleep(0.5)

    async def restart_web(self) -> None:
        self.restarting = True
        web = self.topo.webs[0]
        self.events.append(f"{self.elapsed():6.1f} s: SIGTERM {web.name}")
        web.signal(signal.SIGTERM)
        while web.alive:
            await asyncio.sleep(0.1)
        self.events.append(f"{self.elapsed():6.1f} s: {web.name} exited ({web.popen.returncode})")
        self.topo.webs[0] = await self.topo.start_web(0)
        self.events.append(f"{self.elapsed():6.1f} s: web-0 listening again")
        await asyncio.sleep(1)
        self.restarting = False


# ===================================================================================== what the database says


class Ledger:
    """Read-only queries over the run's database (asyncpg), for the drain and the checks."""

    def __init__(self, pool, integrador_id: str) -> None:
        self.pool, self.integrador_id = pool, integrador_id

    async def rows(self, sql: str, *args) -> list:
        async with self.pool.acquire() as conn:
            return await conn.fetch(sql, *args)

    async def pending(self) -> dict[str, int]:
        """Work still under way: generations, checks, deliveries."""
        row = (
            await self.rows(
                """SELECT (SELECT count(*) FROM geracoes WHERE integrador_id = $1 AND situacao NOT IN ('concluida', 'falhou', 'parcial')) AS geracoes,
                      (SELECT count(*) FROM produtos WHERE situacao = 'conferindo') AS conferencias,
                      (SELECT count(*) FROM aviso_entregas WHERE situacao IN ('pendente', 'enviando')) AS entregas""",
                self.integrador_id,
            )
        )[0]
        return dict(row)

    async def unfinished_checks(self) -> list:
        return await self.rows(
            "SELECT p.codigo, c.situacao, c.tentativas, c.reservada_ate FROM produtos p "
            "JOIN conferencias c ON c.produto_id = p.id WHERE p.situacao = 'conferindo' AND c.versao_produto = p.versao"
        )

    async def generations(self) -> list:
        return await self.rows(
            "SELECT id, chave_idempotencia, situacao, tipo, tentativas FROM geracoes WHERE integrador_id = $1",
            self.integrador_id,
        )

    async def double_reservations(self) -> list:
        return await self.rows(
            "SELECT geracao_id, count(*) AS n FROM lancamentos WHERE tipo = 'reserva' AND geracao_id IS NOT NULL "
            "GROUP BY geracao_id HAVING count(*) > 1"
        )

    async def wallets(self) -> list:
        """Each wallet's balances against the sums of its ledger entries."""
        return await self.rows(
            """SELECT c.id, c.ambiente, c.creditos_disponiveis, c.creditos_reservados,
                      coalesce(sum(l.disponiveis), 0) AS soma_disponiveis, coalesce(sum(l.reservados), 0) AS soma_reservados,
                      count(l.id) AS lancamentos
               FROM carteiras c LEFT JOIN lancamentos l ON l.carteira_id = c.id GROUP BY c.id ORDER BY c.id"""
        )

    async def events(self) -> list:
        return await self.rows("SELECT id, tipo FROM eventos WHERE integrador_id = $1", self.integrador_id)

    async def deliveries(self) -> list:
        return await self.rows("SELECT id, evento_id, situacao, tentativas FROM aviso_entregas")

    async def call_ids(self) -> set[str]:
        return {
            r["id"] for r in await self.rows("SELECT id FROM chamadas WHERE integrador_id = $1", self.integrador_id)
        }


def read_arrivals(path: Path) -> list[list]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


async def drain(soak: Soak, ledger: Ledger, timeout: float) -> float:
    """Waits until generations, checks and deliveries have settled, every delivery has arrived and
    every answered request is in the call log (the writer flushes in batches); bounded."""
    started = time.monotonic()
    while True:
        pending = await ledger.pending()
        arrived = {a[0] for a in read_arrivals(soak.topo.arrivals) if a[3]}
        delivered = {r["id"] for r in await ledger.deliveries()}
        calls_missing = len(soak.stats.request_ids - await ledger.call_ids())
        waiting = {**pending, "chegadas": len(delivered - arrived), "chamadas": calls_missing}
        if not any(waiting.values()):
            return time.monotonic() - started
        if time.monotonic() - started > timeout:
            print(f"  drain: still waiting after {timeout:.0f} s: {waiting}")
            return time.monotonic() - started
        await asyncio.sleep(2)


# ===================================================================================== checks


@dataclass
class Check:
    name: str
    ok: bool
    detail: str


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def check_requests(stats: Stats) -> list[Check]:
    served = len(stats.latencies)
    return [
        Check(
            "requests answered",
            served > 0,
            f"{served} (p50 {percentile(stats.latencies, 0.5) * 1000:.1f} ms, p99 {percentile(stats.latencies, 0.99) * 1000:.1f} ms)",
        ),
        Check(
            "contract breaches seen by the clients", not stats.problems, f"{len(stats.problems)} {stats.problems[:3]}"
        ),
        Check("5xx answers", not stats.server_errors, f"{len(stats.server_errors)} {stats.server_errors[:5]}"),
    ]


async def check_generations(soak: Soak, ledger: Ledger) -> list[Check]:
    rows = await ledger.generations()
    by_key = defaultdict(list)
    for r in rows:
        by_key[r["chave_idempotencia"]].append(r)
    doubled = {k: [r["id"] for r in v] for k, v in by_key.items() if len(v) > 1}
    unfinished = [
        f"{r['id']} ({r['tipo']}, {r['situacao']}, tentativas {r['tentativas']})"
        for r in rows
        if r["situacao"] not in FINAL
    ]
    missing = [k for k, g in soak.orders.by_key.items() if g and g not in {r["id"] for r in rows}]
    situacoes = Counter(r["situacao"] for r in rows)
    twice_reserved = await ledger.double_reservations()
    return [
        Check(
            "generations lost",
            not unfinished and not missing,
            f"{len(unfinished) + len(missing)} of {len(rows)} ({dict(situacoes)}); {unfinished[:5]} {missing[:5]}",
        ),
        Check(
            "generations doubled",
            not doubled and not twice_reserved,
            f"{len(doubled)} keys with two generations {list(doubled.items())[:3]}, {len(twice_reserved)} reserved twice; "
            f"{soak.orders.replays} repeats answered Idempotent-Replayed",
        ),
    ]


async def check_checks(ledger: Ledger) -> list[Check]:
    stuck = [dict(r) for r in await ledger.unfinished_checks()]
    return [Check("quality checks lost (never finished)", not stuck, f"{len(stuck)} {stuck[:3]}")]


async def check_notices(soak: Soak, ledger: Ledger) -> list[Check]:
    events = {r["id"]: r["tipo"] for r in await ledger.events()}
    deliveries = await ledger.deliveries()
    arrivals = read_arrivals(soak.topo.arrivals)
    valid = [a for a in arrivals if a[3]]
    ids_per_event = defaultdict(set)
    for webhook_id, event_id, *_ in valid:
        ids_per_event[event_id].add(webhook_id)
    same_id_again = sum(n - 1 for n in Counter(a[0] for a in valid).values())
    lost = [f"{e} ({t})" for e, t in events.items() if e not in ids_per_event]
    twice = {e: sorted(ids) for e, ids in ids_per_event.items() if len(ids) > 1}
    return [
        Check(
            "notices lost",
            not lost,
            f"{len(lost)} of {len(events)} events ({dict(Counter(events.values()))}), {len(deliveries)} deliveries "
            f"({dict(Counter(r['situacao'] for r in deliveries))}); {lost[:5]}",
        ),
        Check("notices delivered twice (different webhook-ids)", not twice, f"{len(twice)} {list(twice.items())[:3]}"),
        Check(
            "invalid signatures at the receiver",
            len(valid) == len(arrivals),
            f"{len(arrivals) - len(valid)} of {len(arrivals)} arrivals",
        ),
        Check("same webhook-id again (at-least-once retry, allowed)", True, f"{same_id_again}"),
    ]


async def check_ledger(ledger: Ledger) -> list[Check]:
    wallets = await ledger.wallets()
    off = [
        dict(w)
        for w in wallets
        if (w["creditos_disponiveis"], w["creditos_reservados"]) != (w["soma_disponiveis"], w["soma_reservados"])
    ]
    soak_wallet = [w for w in wallets if w["ambiente"] == "teste"]
    shown = ", ".join(
        f"{w['ambiente']}: {w['creditos_disponiveis']} available / {w['creditos_reservados']} reserved "
        f"= ledger {w['soma_disponiveis']} / {w['soma_reservados']} ({w['lancamentos']} entries)"
        for w in soak_wallet
    )
    return [Check("ledger sum = balances", not off, f"{shown}; wallets off: {off}")]


async def check_call_log(soak: Soak, ledger: Ledger) -> list[Check]:
    logged = await ledger.call_ids()
    missing = soak.stats.request_ids - logged
    extra = logged - soak.stats.request_ids
    s = soak.stats
    return [
        Check(
            "call-log rows = answered requests",
            not missing,
            f"{len(s.request_ids)} answered with X-Request-Id, {len(logged)} rows, missing {len(missing)} {sorted(missing)[:5]}; "
            f"rows whose answer reached no client: {len(extra)}",
        ),
        Check(
            "no answer outside the web restart",
            not s.unanswered_other,
            f"{len(s.unanswered_other)} {s.unanswered_other[:5]}; during the restart of web-0: {s.refused_restart} "
            f"refused (it was not listening), {s.cut_restart} cut after sending (a kept-alive connection it closed); "
            "each retried on the other web process",
        ),
    ]


def report(soak: Soak, checks: list[Check], drained: float) -> None:
    s = soak.stats
    print(f"\nload: {len(s.latencies)} answers in {soak.args.seconds:.0f} s, drained in {drained:.0f} s")
    print("  by route: " + ", ".join(f"{route} {n}" for route, n in s.routes.most_common()))
    print("  by status: " + ", ".join(f"{status} {n}" for status, n in sorted(s.statuses.items())))
    print(
        f"  Retry-After waited out {s.waited_retry_after} times; products approved during the run: {len(soak.produtos)}"
    )
    print("chaos:")
    for line in soak.events:
        print(f"  {line}")
    print("checks:")
    for c in checks:
        print(f"  [{'ok' if c.ok else 'FAILED'}] {c.name}: {c.detail}")
    if s.problems:
        print("contract breaches seen by the clients:")
        for p in s.problems[:20]:
            print(f"  {p}")


# ===================================================================================== the run


async def run(args: argparse.Namespace, topo: Topology) -> bool:
    import aiohttp
    import asyncpg

    await topo.create_database()
    topo.run_once("vitrine migrate", "--vitrine", "migrate")
    seeded = json.loads(topo.run_once("seed", "--seed").strip().splitlines()[-1])
    soak = Soak(args, topo)
    await topo.start_service()
    timeout = aiohttp.ClientTimeout(total=60)
    async with (
        aiohttp.ClientSession(timeout=timeout) as session,
        asyncpg.create_pool(topo.env["VITRINE_DATABASE_URL"], min_size=1, max_size=2) as pool,
    ):
        bases = topo.base_urls()
        api = lambda key: Api(session, bases, key, soak.stats, soak)  # noqa: E731
        main_api = api(seeded["chave"])
        segredo = await soak.prepare(main_api)
        topo.start_sites(segredo)
        for n in (1, 2):
            produto = await soak.approved_product(main_api, f"SOAK-BASE-{n}")
            if produto is None:
                raise RuntimeError(
                    "the base product was not approved for galleries and videos: see the logs in " + str(topo.logs)
                )
            soak.produtos.append(produto)
        print(f"set-up done: integrator {seeded['integradorId']}, 2 approved products; load for {args.seconds:.0f} s")
        soak.started = time.monotonic()
        deadline = soak.started + args.seconds
        ended = await asyncio.gather(
            soak.reader(api(seeded["chave"]), deadline, pause=0.05),
            soak.reader(api(seeded["chave"]), deadline, pause=0.05),
            soak.fichas(api(seeded["chave"]), deadline, pause=4),
            soak.orderer(api(seeded["chave"]), deadline, pause=3, name="a"),
            soak.orderer(api(seeded["chave"]), deadline, pause=3, name="b"),
            soak.throttled(api(seeded["chave429"]), deadline),
            soak.chaos(deadline),
            return_exceptions=True,
        )
        # A client that gave up (no answer in all its attempts) stops; the checks still run.
        soak.stats.unanswered_other += [f"a client stopped: {e}" for e in ended if isinstance(e, Unanswered)]
        for error in ended:
            if isinstance(error, BaseException) and not isinstance(error, Unanswered):
                raise error
        ledger = Ledger(pool, seeded["integradorId"])
        print(f"load done at {soak.elapsed():.0f} s; draining (at most {args.drain_seconds:.0f} s)")
        drained = await drain(soak, ledger, args.drain_seconds)
        checks = [
            *check_requests(soak.stats),
            *await check_generations(soak, ledger),
            *await check_checks(ledger),
            *await check_notices(soak, ledger),
            *await check_ledger(ledger),
            *await check_call_log(soak, ledger),
        ]
    report(soak, checks, drained)
    return all(c.ok for c in checks)


def interrupted(signum, frame) -> None:
    raise KeyboardInterrupt


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=600.0, help="duration of the load (default 600)")
    parser.add_argument("--kill-every", type=float, default=120.0, help="seconds between worker kills (default 120)")
    parser.add_argument(
        "--drain-seconds",
        type=float,
        default=420.0,
        help="most time to wait for work to settle (default 420: a check whose worker was killed "
        "is taken back when its 5-minute lease ends)",
    )
    parser.add_argument("--max-requests", type=int, default=100_000, help="bound of each client's loop")
    parser.add_argument("--keep", action="store_true", help="keep the data dir (logs) at the end")
    args = parser.parse_args()
    print(f"machine speed: sum(range(50)) in {reference_loop_ns():.0f} ns (lower is faster)")
    topo = Topology(args)
    print(f"database {topo.database}, Redis namespace {topo.namespace}, data and logs in {topo.dir}")
    # SIGTERM ends the run like Ctrl-C does: through the cleanup below.
    signal.signal(signal.SIGTERM, interrupted)
    ok = False
    try:
        ok = asyncio.run(run(args, topo))
    except KeyboardInterrupt:
        print("interrupted")
    finally:
        topo.stop_all()
        topo.drop_database()
        topo.clean_redis()
        if args.keep or not ok:
            print(f"logs kept in {topo.logs}")
        else:
            shutil.rmtree(topo.dir, ignore_errors=True)
    print("SOAK PASSED" if ok else "SOAK FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] in ("--vitrine", "--receiver", "--photos", "--seed"):
        mode, rest = sys.argv[1], sys.argv[2:]
        if mode == "--vitrine":
            vitrine_launcher(rest)
        elif mode == "--receiver":
            run_receiver(int(rest[0]), *rest[1:5])
        elif mode == "--photos":
            run_photos(int(rest[0]), *rest[1:3])
        else:
            print(json.dumps(asyncio.run(seed_integrator())))
        raise SystemExit(0)
    raise SystemExit(main())
