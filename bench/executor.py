"""The fast executor against graphql-core's own, side by side, on the API's and the portal's
typical operations: time per execution of each, in process (no HTTP), on the embedded SQLite.

    .venv/bin/python bench/executor.py              # BENCH_ROUNDS=15, BENCH_RUNS=40 by default

Each round runs every operation BENCH_RUNS times with the shortcuts on (graphql_api/executor.py,
direct_call.py, core/prepared.py) and as many times with them off (VITRINE_GRAPHQL_SHORTCUTS=off:
graphql-core's execute, Strawberry's resolver wrappers, Tortoise's reads), the two ways
alternating which goes first. Printed: the median over the rounds of the time per execution each
way, and the median of each round's ratio (off / on)."""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from api_overhead import reference_loop_ns  # noqa: E402

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "15"))
RUNS = int(os.environ.get("BENCH_RUNS", "40"))


async def main() -> None:
    os.environ.setdefault("VITRINE_DATA_DIR", tempfile.mkdtemp(prefix="bench-executor-"))
    os.environ.setdefault("VITRINE_SECRET_KEY", "bench-executor")
    from graphql_api.chamada.models import Chamada
    from graphql_api.conta import service as contas
    from graphql_api.core import shortcuts, tarefas
    from graphql_api.core.context import Context
    from graphql_api.core.ids import new_id
    from graphql_api.core.principal import ALL_SCOPES, ROLE_SCOPES, Ambiente, CredentialKind, Papel, Principal
    from graphql_api.executor import run
    from graphql_api.geracao.models import Geracao
    from graphql_api.operations import conta as op_conta
    from graphql_api.operations import creditos as op_creditos
    from graphql_api.operations import geracao as op_geracao
    from graphql_api.operations import produto as op_produto
    from graphql_api.produto import service as produtos
    from graphql_api.usuario import cadastro
    from portal import contas as portal_contas
    from portal import integracao as portal_integracao
    from portal import visao_geral
    from vitrine import db
    from vitrine.runtime import Runtime
    from vitrine.settings import Settings

    async def sem_tarefas(nome: str, *args) -> None:
        """The seeded products are data for the operations: their checks are not run."""

    tarefas.instalar(sem_tarefas)
    settings = Settings(call_log_process=False)
    await db.migrate(settings)
    ctx = await db.connect(settings)
    runtime = Runtime.build(settings)
    await runtime.start()
    try:
        usuario = await cadastro.cadastrar(
            {
                "empresa": "Bench Executor",
                "emailAlertas": "alertas@executor.test",
                "nome": "Bench",
                "email": "bench@executor.test",
                "senha": "senha do bench executor",
            }
        )
        integrador = usuario.integrador_id
        api = Principal(CredentialKind.API_KEY, Ambiente.TESTE, ALL_SCOPES, integrador_id=integrador)
        portal = Principal(
            CredentialKind.PORTAL, Ambiente.TESTE, ROLE_SCOPES[Papel.DONO], integrador_id=integrador, reautenticado=True
        )
        conta = await contas.criar_conta(api, {"codigoExterno": "bench-1", "nome": "Loja Bench"})
        for n in range(20):
            await produtos.salvar_ficha(
                api,
                conta.id,
                f"SKU-{n:03d}",
                {
                    "nome": f"Produto {n}",
                    "descricao": "Descrição de bancada " * 5,
                    "imagens": [{"url": f"https://fotos.exemplo.com/{n}/{i}.jpg", "ordem": i} for i in (1, 2, 3)],
                },
            )
        geracao = await Geracao.create(
            id=new_id("ger_"),
            integrador_id=integrador,
            ambiente="teste",
            conta_id=conta.id,
            tipo="galeria",
            situacao="concluida",
            etapa="entregue",
            percentual=100,
            resultados={
                "imagens": [
                    {"id": new_id("img_"), "posicao": i, "arquivo": f"bench/{i}.jpg", "largura": 600, "altura": 600}
                    for i in range(1, 7)
                ]
            },
        )
        await Chamada.bulk_create(
            [
                Chamada(
                    id=new_id("req_"),
                    integrador_id=integrador,
                    ambiente="teste",
                    chave_id="abcdefghijkl",
                    credencial="api_key",
                    conta_id=conta.id,
                    metodo="GET",
                    endpoint="/contas/{contaId}",
                    caminho=f"/v1/contas/{conta.id}",
                    status=200,
                    duracao_ms=5.0,
                    replay=False,
                    cabecalhos={},
                    criado_em=datetime.now(UTC),
                )
                for _ in range(50)
            ]
        )
        cases = [
            ("API GET /geracoes/{id}", api, op_geracao.OBTER_GERACAO, {"id": geracao.id}),
            ("API GET /contas/{id}", api, op_conta.OBTER_CONTA, {"id": conta.id}),
            ("API GET /contas", api, op_conta.LISTAR_CONTAS, {}),
            (
                "API GET /contas/{id}/produtos/{codigo}",
                api,
                op_produto.OBTER_PRODUTO,
                {"contaId": conta.id, "codigo": "SKU-000"},
            ),
            ("API GET /saldo", api, op_creditos.SALDO, {}),
            ("portal visão geral (técnico)", portal, visao_geral.VISAO_GERAL, {"tecnico": True}),
            ("portal integração", portal, portal_integracao.INTEGRACAO, {}),
            ("portal conta", portal, portal_contas.CONTA, {"id": conta.id, "contaId": conta.id, "cursor": None}),
        ]
        timings: dict[str, dict[bool, list[float]]] = {name: {True: [], False: []} for name, *_ in cases}
        ratios: dict[str, list[float]] = {name: [] for name, *_ in cases}

        async def per_execution(operation, principal, variables) -> float:
            start = time.perf_counter()
            for _ in range(RUNS):
                await run(operation, Context(runtime=runtime, principal=principal), variables)
            return (time.perf_counter() - start) / RUNS * 1e6

        for _name, principal, operation, variables in cases:  # warm: documents parsed, caches filled
            for on in (True, False):
                shortcuts.configure(on)
                await per_execution(operation, principal, variables)
        for round_ in range(ROUNDS):
            for name, principal, operation, variables in cases:
                measured = {}
                for on in (True, False) if round_ % 2 == 0 else (False, True):
                    shortcuts.configure(on)
                    measured[on] = await per_execution(operation, principal, variables)
                    timings[name][on].append(measured[on])
                ratios[name].append(measured[False] / measured[True])
        shortcuts.configure(True)

        print(f"machine speed: sum(range(50)) in {reference_loop_ns():.0f} ns (lower is faster)")
        print(f"{ROUNDS} rounds x {RUNS} executions per way; medians over the rounds (µs per execution)")
        print(f"{'operation':42} {'fast':>9} {'graphql-core':>13} {'off/on':>7}")
        for name, *_ in cases:
            fast, usual = statistics.median(timings[name][True]), statistics.median(timings[name][False])
            print(f"{name:42} {fast:9.0f} {usual:13.0f} {statistics.median(ratios[name]):7.2f}")
    finally:
        await runtime.stop()
        await ctx.close_connections()


if __name__ == "__main__":
    asyncio.run(main())
