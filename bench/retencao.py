"""Retention under load: purging a million call-log records must not stall the service.

For each back end (SQLite, the embedded default; PostgreSQL + Redis when reachable), in a data
directory and a database of its own (created here, dropped at the end):

- seeds the call log with SQL bulk inserts (SQLite) or COPY (PostgreSQL): `--rows` records older
  than 90 days (1 M by default), `--bodies` records between 30 and 90 days old that still have
  their bodies, `--emptied` records between 30 and 90 days whose bodies went long ago, and
  `--recent` records younger than 30 days (which must come out untouched);
- starts the service (the app of `vitrine serve`, periodic jobs off so that nothing purges
  behind the bench's back) and, from another process, a steady stream of `GET /v1/contas` at
  `--rate` requests per second, every one a row the call log must write;
- runs rounds of two windows each, side by side: without purge (`--window` seconds), then one
  purge run with a budget of `--window` seconds. SQLite purges inside the web process, as the
  embedded default's in-process tasks do; PostgreSQL in a process of its own, as a `vitrine
  worker` does. In each window, a client probes `GET /v1/saldo` every 20 ms, and the rows the
  call log wrote for the stream are counted (rows per second). Rounds go on until the purge is
  done: every purge window after the first is a run that went on where the last one stopped.

Prints every round, the medians, how long purging took in all, the cost of a run with nothing
left to do, and checks that exactly what was due went. Exits non-zero when the median p99 of
`GET /v1/saldo` during the purge is >= 50 ms, or the call log wrote less than 90% of the rows per
second it wrote without the purge, or the result is wrong.

    .venv/bin/python bench/retencao.py                          # both back ends, 1 M records
    .venv/bin/python bench/retencao.py --backends sqlite --rows 200000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import multiprocessing
import os
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SALDO_P99_MS = 50
WRITE_RATIO = 0.90
PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"
REDIS_URL = "redis://127.0.0.1:6379/15"
DAY = timedelta(days=1)
RECENT_INTEGRATOR = "int_bench_recente"
SETTLE_SECONDS = 1.0  # the call log writes within 0.2 s; a window's rows are counted this long after it


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def reference_loop_ns() -> float:
    """This shared machine's speed at the moment, to compare figures across days."""
    import timeit

    return min(timeit.repeat("sum(range(50))", number=200_000, repeat=5)) / 200_000 * 1e9


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)] if ordered else float("nan")


def settings_of(env: dict[str, str]):
    from vitrine.settings import Settings

    return Settings(**{k.removeprefix("VITRINE_").lower(): v for k, v in env.items() if k.startswith("VITRINE_")})


# --- seeding -------------------------------------------------------------------------------


def _call_rows(count: int, oldest: timedelta, newest: timedelta, *, bodies: bool, integrators: list[str]):
    """`count` call-log rows spread evenly between `oldest` and `newest` ago, as the writer
    stores them (graphql_api/chamada/writer.py), ids time-ordered like the real ones."""
    from ulid import ULID

    now = datetime.now(UTC)
    span = (oldest - newest) / max(count, 1)
    sent = json.dumps({"codigoExterno": "sku-123", "nome": "Conta de exemplo", "email": "j***@loja.com.br"})
    received = json.dumps({"data": {"id": "cta_01jbench", "nome": "Conta de exemplo", "situacao": "ativa"}})
    statuses = [200] * 90 + [201] * 5 + [404] * 3 + [422, 500]
    for n in range(count):
        moment = now - oldest + span * n
        status = random.choice(statuses)
        yield {
            "id": "req_" + str(ULID.from_datetime(moment)).lower(),
            "integrador_id": random.choice(integrators),
            "ambiente": "producao",
            "chave_id": "abcdefghijkl",
            "credencial": "api_key",
            "client_id": None,
            "conta_id": None,
            "metodo": "POST" if status == 201 else "GET",
            "endpoint": "/contas",
            "caminho": "/v1/contas",
            "status": status,
            "duracao_ms": 3.2,
            "codigo_erro": None if status < 400 else "NOT_FOUND",
            "mensagem_erro": None,
            "causa_erro": None,
            "replay": False,
            "idempotency_key": None,
            "cabecalhos": {"Authorization": "Bearer sk_live_abcd…"},
            "corpo_enviado": sent if bodies else None,
            "corpo_recebido": received if bodies else None,
            "corpo_enviado_cortado": False,
            "corpo_recebido_cortado": False,
            "criado_em": moment,
        }


def _seed_plan(args) -> list[tuple[int, timedelta, timedelta, bool, list[str]]]:
    others = [f"int_bench_{n:02d}" for n in range(50)]
    return [
        (args.rows, 120 * DAY, 90 * DAY + timedelta(hours=1), False, others),
        (args.emptied, 89 * DAY, 45 * DAY, False, others),
        (args.bodies, 44 * DAY, 30 * DAY + timedelta(hours=1), True, others),
        (args.recent, 29 * DAY, DAY, True, [RECENT_INTEGRATOR]),
    ]


async def seed(env: dict[str, str], args) -> str:
    """Migrate, an integrator without practical limits (its test key is printed), then the rows."""
    from graphql_api.chamada.writer import _COLUMNS, _db_values
    from graphql_api.integrador import service as integradores
    from graphql_api.integrador.models import Integrador
    from vitrine import db

    settings = settings_of(env)
    await db.migrate(settings)
    ctx = await db.connect(settings)
    try:
        created = await integradores.criar_integrador(nome="Bench", email="bench@example.com")
        await Integrador.filter(id=created.integrador.id).update(
            limite_por_minuto_chave=10_000_000, limite_por_minuto_integrador=10_000_000
        )
    finally:
        await ctx.close_connections()
    url = settings.resolved_database_url
    chunk = 50_000
    if url.startswith("sqlite"):
        path = url.removeprefix("sqlite://").split("?")[0]
        conn = sqlite3.connect(path)
        columns = ",".join(f'"{c}"' for c in _COLUMNS)
        sql = f"INSERT INTO chamadas ({columns}) VALUES ({','.join('?' for _ in _COLUMNS)})"
        for count, oldest, newest, bodies, integrators in _seed_plan(args):
            batch = []
            for row in _call_rows(count, oldest, newest, bodies=bodies, integrators=integrators):
                batch.append(_db_values(row, "sqlite"))
                if len(batch) == chunk:
                    conn.executemany(sql, batch)
                    conn.commit()
                    batch = []
            conn.executemany(sql, batch)
            conn.commit()
        conn.close()
    else:
        import asyncpg

        conn = await asyncpg.connect(url)
        for count, oldest, newest, bodies, integrators in _seed_plan(args):
            batch = []
            for row in _call_rows(count, oldest, newest, bodies=bodies, integrators=integrators):
                batch.append(_db_values(row, "postgres"))
                if len(batch) == chunk:
                    await conn.copy_records_to_table("chamadas", records=batch, columns=list(_COLUMNS))
                    batch = []
            await conn.copy_records_to_table("chamadas", records=batch, columns=list(_COLUMNS))
        await conn.execute("ANALYZE chamadas")
        await conn.close()
    return created.chave_teste


# --- the service and the purge ----------------------------------------------------------------


def serve(port: int) -> None:
    """The service, plus one bench route that runs a purge inside this process (SQLite: the
    embedded default runs its tasks in the web process)."""
    from aiohttp import web

    from vitrine.app import create_app, run_web

    async def purge(request: web.Request) -> web.Response:
        return web.json_response(await purge_once(float(request.query["segundos"])))

    app = create_app()
    app.router.add_post("/bench/expurgar", purge)
    run_web(app, "127.0.0.1", port)


async def purge_once(budget: float) -> dict:
    from graphql_api.chamada import service as chamadas
    from graphql_api.core.purge import Purge

    purge = Purge(budget=budget)
    started = time.perf_counter()
    bodies, rows = await chamadas.expurgar(purge=purge)
    return {"corpos": bodies, "registros": rows, "concluido": purge.finished, "segundos": time.perf_counter() - started}


async def purge_in_own_process(env: dict[str, str], budget: float) -> dict:
    """What a `vitrine worker` does when the periodic purge comes: its own process and connection."""
    from vitrine import db

    ctx = await db.connect(settings_of(env))
    try:
        return await purge_once(budget)
    finally:
        await ctx.close_connections()


# --- load ----------------------------------------------------------------------------------


def stream(base: str, key: str, rate: float, stop) -> None:
    """Open-loop GET /v1/contas at `rate` per second (at most 64 in flight), until `stop` is set."""
    import uvloop

    async def run() -> None:
        from aiohttp import ClientSession, TCPConnector

        async with ClientSession(headers={"Authorization": f"Bearer {key}"}, connector=TCPConnector(limit=64)) as http:
            in_flight: set[asyncio.Task] = set()

            async def one() -> None:
                try:
                    async with http.get(f"{base}/v1/contas?limite=1") as response:
                        await response.read()
                except Exception:
                    pass

            interval, next_at = 1 / rate, time.perf_counter()
            while not stop.is_set():
                next_at += interval
                if len(in_flight) < 64:
                    task = asyncio.create_task(one())
                    in_flight.add(task)
                    task.add_done_callback(in_flight.discard)
                await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
            await asyncio.gather(*in_flight)

    uvloop.run(run())


class Rows:
    """Counts the stream's rows in the call log between two moments, read from the database."""

    def __init__(self, env: dict[str, str]) -> None:
        self.url = settings_of(env).resolved_database_url
        self.pg = None

    async def count(self, start: datetime, end: datetime) -> int:
        if self.url.startswith("sqlite"):
            path = self.url.removeprefix("sqlite://").split("?")[0]
            with sqlite3.connect(path) as conn:
                return conn.execute(
                    "SELECT count(*) FROM chamadas WHERE endpoint = '/contas' AND criado_em >= ? AND criado_em < ?",
                    (str(start), str(end)),
                ).fetchone()[0]
        import asyncpg

        if self.pg is None:
            self.pg = await asyncpg.connect(self.url)
        return await self.pg.fetchval(
            "SELECT count(*) FROM chamadas WHERE endpoint = '/contas' AND criado_em >= $1 AND criado_em < $2",
            start,
            end,
        )

    async def scalar(self, query: str, *params):
        """One value; `?` placeholders, datetimes as the back end stores them."""
        if self.url.startswith("sqlite"):
            path = self.url.removeprefix("sqlite://").split("?")[0]
            with sqlite3.connect(path) as conn:
                return conn.execute(query, [str(p) if isinstance(p, datetime) else p for p in params]).fetchone()[0]
        for n in range(len(params)):
            query = query.replace("?", f"${n + 1}", 1)
        return await self.pg.fetchval(query, *params)

    async def close(self) -> None:
        if self.pg is not None:
            await self.pg.close()


async def window(http, base: str, rows: Rows, work) -> dict:
    """Probe GET /v1/saldo every 20 ms while `work()` runs; the stream's rows written meanwhile."""
    latencies: list[float] = []
    done = asyncio.Event()

    async def probe() -> None:
        while not done.is_set():
            started = time.perf_counter()
            async with http.get(f"{base}/v1/saldo") as response:
                await response.read()
                assert response.status == 200, response.status
            latencies.append((time.perf_counter() - started) * 1000)
            await asyncio.sleep(0.02)

    start, began = datetime.now(UTC), time.perf_counter()
    prober = asyncio.create_task(probe())
    try:
        result = await work()
    finally:
        done.set()
        await prober
    end, seconds = datetime.now(UTC), time.perf_counter() - began
    await asyncio.sleep(SETTLE_SECONDS)
    written = await rows.count(start, end)
    return {
        "p50": percentile(latencies, 0.50),
        "p95": percentile(latencies, 0.95),
        "p99": percentile(latencies, 0.99),
        "probes": len(latencies),
        "rows_s": written / seconds,
        "seconds": seconds,
        "result": result,
    }


def line(label: str, w: dict) -> str:
    return (
        f"{label} {w['seconds']:5.1f} s  saldo p50 {w['p50']:5.1f}  p95 {w['p95']:5.1f}  p99 {w['p99']:6.1f} ms "
        f"({w['probes']} probes)  call log {w['rows_s']:6.1f} rows/s"
    )


async def bench(name: str, env: dict[str, str], args) -> bool:
    from aiohttp import ClientSession

    from vitrine.infra.process import tied_to_this_process

    started = time.perf_counter()
    seeded = subprocess.run(
        [sys.executable, __file__, "--seed", *sys.argv[1:]], env=env, cwd=ROOT, capture_output=True, text=True
    )
    if seeded.returncode:
        raise SystemExit(seeded.stderr)
    key = json.loads(seeded.stdout.strip().splitlines()[-1])
    total = args.rows + args.emptied + args.bodies + args.recent
    print(
        f"{name}: seeded {total:,} call-log rows in {time.perf_counter() - started:.0f} s "
        f"({args.rows:,} older than 90 days, {args.bodies:,} bodies between 30 and 90 days, "
        f"{args.emptied:,} emptied, {args.recent:,} recent)"
    )

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(port)],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=tied_to_this_process(),
    )
    rows = Rows(env)
    context = multiprocessing.get_context("spawn")
    stop = context.Event()
    load = None
    try:
        deadline = time.time() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if server.poll() is not None or time.time() > deadline:
                    raise SystemExit(f"the service did not start:\n{server.stderr.read().decode()}") from None
                time.sleep(0.2)
        load = context.Process(target=stream, args=(base, key, args.rate, stop), daemon=True)
        load.start()
        in_process = "VITRINE_DATABASE_URL" not in env

        async def purge_run() -> dict:
            if in_process:
                async with http.post(f"{base}/bench/expurgar?segundos={args.window}") as response:
                    return await response.json()
            done = await asyncio.create_subprocess_exec(
                sys.executable,
                __file__,
                "--purge",
                str(args.window),
                env=env,
                cwd=ROOT,
                stdout=asyncio.subprocess.PIPE,
                preexec_fn=tied_to_this_process(),
            )
            out, _ = await done.communicate()
            return json.loads(out.decode().strip().splitlines()[-1])

        async with ClientSession(headers={"Authorization": f"Bearer {key}"}) as http:
            await window(http, base, rows, lambda: asyncio.sleep(3))  # warm-up
            where = "inside the web process" if in_process else "in a process of its own (a worker's)"
            print(
                f"  stream of GET /v1/contas at {args.rate:.0f}/s; purge runs {where}, budget {args.window:.0f} s each"
            )
            rounds, purged_s, emptied, removed = [], 0.0, 0, 0
            while True:
                idle = await window(http, base, rows, lambda: asyncio.sleep(args.window))
                busy = await window(http, base, rows, purge_run)
                r = busy["result"]
                purged_s += r["segundos"]
                emptied, removed = emptied + r["corpos"], removed + r["registros"]
                rounds.append((idle, busy))
                n = len(rounds)
                print(f"  round {n:2d}: {line('no purge', idle)}")
                print(f"            {line('purge   ', busy)}  -> {r['corpos']:,} bodies, {r['registros']:,} records")
                if r["concluido"]:
                    break
            # A run once everything is done: what each hourly run costs in steady state.
            steady = await window(http, base, rows, purge_run)
    finally:
        stop.set()
        if load is not None:
            load.join(timeout=30)
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()

    ok = True
    now = datetime.now(UTC)
    bodies = "(corpo_enviado IS NOT NULL OR corpo_recebido IS NOT NULL)"
    left_rows = await rows.scalar("SELECT count(*) FROM chamadas WHERE criado_em < ?", now - 90 * DAY)
    left_bodies = await rows.scalar(f"SELECT count(*) FROM chamadas WHERE criado_em < ? AND {bodies}", now - 30 * DAY)
    recent = await rows.scalar(f"SELECT count(*) FROM chamadas WHERE integrador_id = ? AND {bodies}", RECENT_INTEGRATOR)
    await rows.close()
    if (emptied, removed, left_rows, left_bodies, recent) != (args.bodies, args.rows, 0, 0, args.recent):
        ok = False
        print(
            f"  WRONG RESULT: emptied {emptied:,} (seeded {args.bodies:,}), removed {removed:,} "
            f"(seeded {args.rows:,}); left: {left_rows:,} records > 90 days, {left_bodies:,} bodies > 30 days; "
            f"recent rows with bodies {recent:,} of {args.recent:,}"
        )

    median = {
        side: {k: statistics.median(r[i][k] for r in rounds) for k in ("p50", "p95", "p99", "rows_s")}
        for i, side in enumerate(("idle", "busy"))
    }
    ratio = median["busy"]["rows_s"] / median["idle"]["rows_s"]
    ok_p99 = median["busy"]["p99"] < SALDO_P99_MS
    ok_rate = ratio >= WRITE_RATIO
    print(f"  medians of {len(rounds)} rounds      no purge     purge")
    for k in ("p50", "p95", "p99"):
        print(f"    GET /v1/saldo {k}    {median['idle'][k]:7.1f} ms  {median['busy'][k]:7.1f} ms")
    print(
        f"    call log written    {median['idle']['rows_s']:7.1f}/s   {median['busy']['rows_s']:7.1f}/s  "
        f"({ratio:.0%} of no purge; target >= {WRITE_RATIO:.0%}: {'ok' if ok_rate else 'MISSED'})"
    )
    print(
        f"    p99 during purge: {median['busy']['p99']:.1f} ms (target < {SALDO_P99_MS} ms: {'ok' if ok_p99 else 'MISSED'})"
    )
    print(
        f"  purge: {removed:,} records removed and {emptied:,} bodies emptied in {purged_s:.1f} s of runs "
        f"({len(rounds)} runs; {removed / purged_s:,.0f} records/s)"
    )
    print(
        f"  a run with nothing left (walks the {args.emptied + args.bodies:,} emptied rows between 30 and 90 days): "
        f"{steady['result']['segundos'] * 1000:.0f} ms; saldo p99 {steady['p99']:.1f} ms\n"
    )
    return ok and ok_p99 and ok_rate


# --- back ends -------------------------------------------------------------------------------


def reachable(host: str, port: int) -> bool:
    try:
        socket.create_connection((host, port), timeout=1).close()
        return True
    except OSError:
        return False


def environment(backend: str, stamp: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VITRINE_")}
    env.update(
        {
            "VITRINE_DATA_DIR": tempfile.mkdtemp(prefix=f"vitrine-retencao-{backend}-"),
            "VITRINE_INPROCESS_WORKERS": "false",  # no periodic purge at start-up: the bench runs it
            "VITRINE_RATE_LIMIT_PER_KEY": "10000000",
            "VITRINE_RATE_LIMIT_PER_INTEGRATOR": "10000000",
        }
    )
    if backend == "postgres":
        env.update(
            {
                "VITRINE_DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{stamp}",
                "VITRINE_REDIS_URL": REDIS_URL,
                "VITRINE_REDIS_NAMESPACE": stamp,
            }
        )
    return env


async def create_database(name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_ADMIN)
    await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    await conn.execute(f'CREATE DATABASE "{name}"')
    await conn.close()


async def drop_database(name: str) -> None:
    import asyncpg
    from redis.asyncio import Redis

    conn = await asyncpg.connect(PG_ADMIN)
    await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    await conn.close()
    redis = Redis.from_url(REDIS_URL)
    keys = [key async for key in redis.scan_iter(f"{name}:*")]
    if keys:
        await redis.delete(*keys)
    await redis.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backends", default="sqlite,postgres")
    parser.add_argument("--rows", type=int, default=1_000_000, help="records older than 90 days")
    parser.add_argument("--bodies", type=int, default=100_000, help="records 30-90 days old with bodies")
    parser.add_argument("--emptied", type=int, default=200_000, help="records 30-90 days old, bodies gone")
    parser.add_argument("--recent", type=int, default=50_000, help="records younger than 30 days")
    parser.add_argument("--rate", type=float, default=200, help="GET /v1/contas per second during the bench")
    parser.add_argument("--window", type=float, default=8, help="seconds per window (and per purge run)")
    parser.add_argument("--serve", type=int)
    parser.add_argument("--seed", action="store_true")
    parser.add_argument("--purge", type=float)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return
    if args.seed:
        print(json.dumps(asyncio.run(seed(dict(os.environ), args))))
        return
    if args.purge is not None:
        print(json.dumps(asyncio.run(purge_in_own_process(dict(os.environ), args.purge))))
        return

    print(f"machine speed: sum(range(50)) in {reference_loop_ns():.0f} ns (lower is faster); cpus: {os.cpu_count()}")
    print(f"windows of {args.window:.0f} s, no purge and purge alternating; GET /v1/saldo probed every 20 ms\n")
    ok = True
    for backend in args.backends.split(","):
        stamp = f"vitrine_retencao_{os.getpid()}"
        if backend == "postgres":
            if not (reachable("127.0.0.1", 5432) and reachable("127.0.0.1", 6379)):
                print("PostgreSQL + Redis: not reachable, skipped\n")
                continue
            asyncio.run(create_database(stamp))
        env = environment(backend, stamp)
        label = "SQLite (embedded default)" if backend == "sqlite" else "PostgreSQL + Redis"
        try:
            ok &= asyncio.run(bench(label, env, args))
        finally:
            if backend == "postgres":
                asyncio.run(drop_database(stamp))
            subprocess.run(["rm", "-rf", env["VITRINE_DATA_DIR"]], check=False)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
