"""Where the facade's tail comes from: bench/api_overhead.py's server with a switch that changes,
between rounds, how the call log is written, measured against the bare handler in alternating
rounds on one server (so a slower spell of this shared machine hits every mode alike).

    .venv/bin/python bench/registro_cauda.py                       # SQLite, and PostgreSQL + Redis
    .venv/bin/python bench/registro_cauda.py --backends sqlite --rodadas 4

Modes (GET /v1/geracoes/{id} through the whole facade in each):
  inteira      the call log as the service writes it: masked, encoded and inserted by its own
               process (vitrine/call_log_process.py)
  sem-envio    the records buffered and judged by the listeners, never sent to that process
  sem-ouvintes the call log as the service writes it, without the listeners (integration steps,
               keys' last use)
  sem-registro the call's record made by the middleware, then dropped (nothing buffered)
  lote-N       the call log as the service writes it, in batches of N rows instead of the
               configured size (VITRINE_CALL_LOG_BATCH_SIZE); any N, e.g. lote-100
In the web process (VITRINE_CALL_LOG_PROCESS=false, the writer that process runs):
  no-processo-web    calls masked and encoded by the web process, inserted by its thread
  sem-insert   calls masked and encoded, the batch not inserted
  executemany  SQLite: the batch bound row by row (executemany) instead of one JSON statement
  prioridade-normal  SQLite: its connection thread at the requests' priority instead of
               BACKGROUND_NICENESS above it
  cru+rajada   the bare handler (no call log at all) while another process burns the CPU in
               bursts (--rajada BUSY:PERIOD ms, by default 8:125, what the database spent on one
               500-row batch every 125 ms at this bench's rate): how much a burst of background
               work on this machine alone moves the bare handler's p99
Each mode also shows the server's CPU per request (all its threads), against the bare handler's.
A diagnosis, not a target: the targets are bench/api_overhead.py's."""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api_overhead import backends, free_port, reference_loop_ns, wait_for_port, wrk  # noqa: E402

MODOS = (
    "inteira",
    "sem-envio",
    "sem-ouvintes",
    "sem-registro",
    "no-processo-web",
    "sem-insert",
    "executemany",
    "prioridade-normal",
    "cru+rajada",
)
NO_PROCESSO_WEB = ("no-processo-web", "sem-insert", "executemany", "prioridade-normal")
SQLITE_SO = ("executemany", "prioridade-normal")
RAJADA = "8:125"  # cru+rajada's burst by default: busy ms:period ms


def serve(port: int) -> None:
    from aiohttp import web

    import graphql_api.chamada.writer as writer
    from bench.api_overhead import serve as serve_bare
    from vitrine import app as vitrine_app
    from vitrine.call_log_process import CallLogProcess, writer_options

    modo = {"atual": "inteira"}
    add, insert, encoded = writer.CallLogWriter.add, writer.CallLogWriter._insert, writer._encoded
    send = CallLogProcess._write_batch

    def add_by_mode(self, record):
        if modo["atual"] != "sem-registro":
            add(self, record)

    async def send_by_mode(self, batch):
        if modo["atual"] != "sem-envio":
            await send(self, batch)

    async def insert_by_mode(self, rows):
        if modo["atual"] != "sem-insert":
            await insert(self, rows)

    def encoded_by_mode(row, dialect):
        return writer._db_values(row, dialect) if modo["atual"] == "executemany" else encoded(row, dialect)

    writer.CallLogWriter.add = add_by_mode
    writer.CallLogWriter._insert = insert_by_mode
    CallLogProcess._write_batch = send_by_mode
    writer._encoded = encoded_by_mode

    from tortoise import connections

    from graphql_api.chamada.models import CALL_LOG_CONNECTION
    from vitrine.infra.cpu import BACKGROUND_NICENESS
    from vitrine.keys import RUNTIME

    escritores: dict[str, writer.CallLogWriter] = {}

    async def trocar(request: web.Request) -> web.Response:
        modo["atual"] = request.query["m"]
        runtime = request.app[RUNTIME]
        if not escritores:  # the service's own, and one in the web process started beside it
            escritores["processo"] = runtime.call_log
            escritores["web"] = writer.CallLogWriter(**writer_options(runtime.settings))
            escritores["web"].listeners = list(runtime.call_log.listeners)
            await escritores["web"].start()  # not drained at the end: the bench reads no call
        runtime.call_log = escritores["web" if modo["atual"] in NO_PROCESSO_WEB else "processo"]
        runtime.call_log.listeners = [] if modo["atual"] == "sem-ouvintes" else escritores["web"].listeners
        lote = modo["atual"].removeprefix("lote-")
        runtime.call_log.batch_size = int(lote) if lote.isdigit() else runtime.settings.call_log_batch_size
        if runtime.settings.is_sqlite and connections.get(CALL_LOG_CONNECTION)._connection is not None:
            thread = connections.get(CALL_LOG_CONNECTION)._connection._thread.native_id
            acima = 0 if modo["atual"] == "prioridade-normal" else BACKGROUND_NICENESS
            os.setpriority(os.PRIO_PROCESS, thread, min(os.getpriority(os.PRIO_PROCESS, 0) + acima, 19))
        return web.Response(text=modo["atual"])

    create_app = vitrine_app.create_app

    def create_app_with_switch():
        app = create_app()
        app.router.add_get("/bench/modo", trocar)
        return app

    vitrine_app.create_app = create_app_with_switch
    serve_bare(port)  # the bare route and the service, as bench/api_overhead.py serves them


def rajada(ocupado_ms: float, periodo_ms: float) -> None:
    """Burn the CPU for `ocupado_ms` every `periodo_ms`, until killed."""
    import time

    while True:
        inicio = time.perf_counter()
        while time.perf_counter() - inicio < ocupado_ms / 1000:
            pass
        time.sleep(max(0.0, periodo_ms / 1000 - (time.perf_counter() - inicio)))


def medir(
    env: dict[str, str], rodadas: int, modos: list[str], rajada_ms: str = RAJADA
) -> dict[str, list[tuple[float, float]]]:
    seeded = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "api_overhead.py"), "--seed"],
        env={**os.environ, **env},
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    key, geracao_id = json.loads(seeded.stdout.strip().splitlines()[-1])
    port = free_port()
    from vitrine.infra.process import tied_to_this_process

    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(port)],
        env={**os.environ, **env},
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=tied_to_this_process(),
    )
    resultados: dict[str, list[tuple[float, float, float]]] = {m: [] for m in ("cru", *modos)}
    try:
        wait_for_port(port)
        base = f"http://127.0.0.1:{port}"
        auth = {"Authorization": f"Bearer {key}"}
        subprocess.run(
            ["wrk", "-t1", "-c4", "-d2s", "-H", f"Authorization: Bearer {key}", f"{base}/v1/geracoes/{geracao_id}"],
            capture_output=True,
        )
        for _ in range(rodadas):
            resultados["cru"].append(wrk(f"{base}/bench/bare/{geracao_id}", {}, [server.pid]))
            for m in modos:
                if m == "cru+rajada":
                    queimador = subprocess.Popen(
                        [sys.executable, __file__, "--rajada-processo", rajada_ms], preexec_fn=tied_to_this_process()
                    )
                    try:
                        resultados[m].append(wrk(f"{base}/bench/bare/{geracao_id}", {}, [server.pid]))
                    finally:
                        queimador.kill()
                        queimador.wait()
                    continue
                urllib.request.urlopen(f"{base}/bench/modo?m={m}").read()
                resultados[m].append(wrk(f"{base}/v1/geracoes/{geracao_id}", auth, [server.pid]))
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
    return resultados


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--serve", type=int)
    parser.add_argument("--backends", default="sqlite,postgres")
    parser.add_argument("--rodadas", type=int, default=3)
    parser.add_argument("--modos", default=",".join(MODOS), help="which modes, comma-separated (lote-N too)")
    parser.add_argument("--rajada", default=RAJADA, help="cru+rajada's burst: busy ms:period ms")
    parser.add_argument("--rajada-processo", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rajada_processo:
        ocupado, periodo = args.rajada_processo.split(":")
        rajada(float(ocupado), float(periodo))
        return
    if args.serve:
        serve(args.serve)
        return
    print(f"GET /v1/geracoes/{{id}}, 20 clients, rounds of {os.environ.get('BENCH_SECONDS', '8')} s, medians")
    print(f"machine speed: sum(range(50)) in {reference_loop_ns():.0f} ns (lower is faster)\n")
    for nome, env in backends(args.backends.split(","), "cauda"):
        modos = [m for m in args.modos.split(",") if m not in SQLITE_SO or "VITRINE_DATABASE_URL" not in env]
        r = medir(env, args.rodadas, modos, args.rajada)
        cru_rps = statistics.median(x[0] for x in r["cru"])
        cru_p99 = statistics.median(x[1] for x in r["cru"])
        cru_cpu = statistics.median(x[2] for x in r["cru"])
        print(nome)
        for m, xs in r.items():
            rps, p99 = statistics.median(x[0] for x in xs), statistics.median(x[1] for x in xs)
            cpu = statistics.median(x[2] for x in xs)
            rounds = "  ".join(f"{a:.0f}/{b:.1f}/{c:.0f}" for a, b, c in xs)
            print(
                f"  {m:17s} {rps:6.0f} req/s ({rps / cru_rps:4.0%})  p99 {p99:5.1f} ms ({p99 / cru_p99:.2f}x)"
                f"  CPU {cpu:5.0f} µs ({cpu / cru_cpu:.2f}x)   rounds req/s/p99/CPU µs: {rounds}"
            )
        print()


if __name__ == "__main__":
    main()
