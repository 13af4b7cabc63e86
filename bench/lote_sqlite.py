"""CPU of the call log's SQLite batch insert per row, in the writer's thread: each row as one JSON
text of all columns (the shape before) against [columns, request body, response body] read by a
materialized step (graphql_api/chamada/writer.py), on the project's migrated schema, alternating.

    .venv/bin/python bench/lote_sqlite.py [--rodadas 30]

SQLite parses a JSON text again at every column it reads from it; with a 1 KB response body in
the middle of 25 columns, the old shape parsed the body 25 times per row. A third line inserts the
current shape into a copy of the schema with the primary key as the only index: the difference is
what keeping the list filters' indexes costs per row."""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ROWS = 200


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rodadas", type=int, default=30)
    args = parser.parse_args()
    os.environ["VITRINE_DATA_DIR"] = tempfile.mkdtemp(prefix="vitrine-lote-")
    from bench.api_overhead import reference_loop_ns
    from graphql_api.chamada import writer as w
    from graphql_api.core.ids import new_id
    from vitrine import db
    from vitrine.settings import Settings

    settings = Settings()
    asyncio.run(db.migrate(settings))
    body = orjson.dumps(
        {
            "data": {
                "id": new_id("ger_"),
                "situacao": "concluida",
                "resultados": {
                    "imagens": [
                        {
                            "id": new_id("img_"),
                            "posicao": i,
                            "url": "https://midia.example/" + "a" * 150,
                            "largura": 600,
                        }
                        for i in (1, 2, 3)
                    ]
                },
            }
        }
    )
    log = w.CallLogWriter(flush_seconds=60, body_limit=64 * 1024)

    def row() -> dict:
        return log._row(
            w.CallRecord(
                id=new_id("req_"),
                integrador_id="int_bench",
                ambiente="teste",
                credencial="api_key",
                chave_id="abcdefghijkl",
                conta_id=None,
                metodo="GET",
                endpoint="/geracoes/{id}",
                caminho="/v1/geracoes/ger_x",
                status=200,
                duracao_ms=1.2,
                codigo_erro=None,
                mensagem_erro=None,
                causa_erro=None,
                replay=False,
                idempotency_key=None,
                authorization="Bearer sk_test_abcdefghijkl_" + "x" * 40,
                content_type=None,
                request_body=None,
                response_body=body,
                criado_em=datetime.now(UTC),
                cabecalhos_resposta={"X-RateLimit-Limit": "300"},
            )
        )

    # The shape before: every column read from one text holding the whole row.
    antes_sql = (
        f'INSERT INTO "{w.Chamada._meta.db_table}" ({w._COLUMN_LIST}) SELECT '
        + ",".join(
            f"nullif(value->{i},'null')" if i in w._JSON_POSITIONS else f"value->>{i}" for i in range(len(w._COLUMNS))
        )
        + ' FROM json_each(?) WHERE true ON CONFLICT ("id") DO NOTHING'
    )

    def antes(r: dict) -> str:
        return orjson.dumps(
            [r[c] for c in w._COLUMNS], default=w._date_text, option=orjson.OPT_PASSTHROUGH_DATETIME
        ).decode()

    def connect(path: Path) -> sqlite3.Connection:
        con = sqlite3.connect(path, isolation_level=None)
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=NORMAL")
        return con

    con = connect(settings.data_dir / "vitrine.sqlite3")
    # The same schema without the list filters' indexes (primary key only): how much of a row's
    # CPU is keeping those indexes.
    bare = connect(settings.data_dir / "sem-indices.sqlite3")
    con.backup(bare)
    for (name,) in bare.execute(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'chamadas' AND sql IS NOT NULL"
    ).fetchall():
        bare.execute(f'DROP INDEX "{name}"')
    now = lambda r: w._encoded(r, "sqlite")  # noqa: E731
    shapes = {
        "antes (um texto por linha)": (con, antes_sql, antes),
        "agora ([colunas, corpos])": (con, w._INSERT_FROM_JSON, now),
        "agora, só a chave primária": (bare, w._INSERT_FROM_JSON, now),
    }
    micro: dict[str, list[float]] = {name: [] for name in shapes}
    for _ in range(args.rodadas):
        for name, (connection, sql, encode) in shapes.items():
            batch = "[" + ",".join(encode(row()) for _ in range(ROWS)) + "]"
            began = time.thread_time()
            connection.execute("BEGIN")
            connection.execute(sql, [batch])
            connection.execute("COMMIT")
            micro[name].append((time.thread_time() - began) / ROWS * 1e6)
    stored = con.execute("SELECT count(*) FROM chamadas").fetchone()[0]
    assert stored == 2 * ROWS * args.rodadas, stored
    assert bare.execute("SELECT count(*) FROM chamadas").fetchone()[0] == ROWS * args.rodadas
    print(f"machine speed: sum(range(50)) in {reference_loop_ns():.0f} ns (lower is faster)")
    print(f"{args.rodadas} alternating rounds of {ROWS} rows, CPU µs per row in the inserting thread")
    for name, values in micro.items():
        print(f"  {name:28s} median {statistics.median(values):6.1f}   rounds: {' '.join(f'{v:.0f}' for v in values)}")
    a, b, c = (statistics.median(v) for v in micro.values())
    print(f"  now / before: {b / a:.2f}")
    print(f"  primary key only / now: {c / b:.2f} (the rest keeps the list filters' indexes)")


if __name__ == "__main__":
    main()
