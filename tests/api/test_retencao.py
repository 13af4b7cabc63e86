"""Retention in bounded batches (graphql_api/core/purge.py): the call log's bodies after 30 days
and records after 90, idempotency records, sessions and OAuth leftovers, a few rows per statement,
stopping at a time budget and going on at the next run."""

import asyncio
import itertools
from datetime import UTC, datetime, timedelta

from tortoise.expressions import Q

from graphql_api.chamada import service as chamadas
from graphql_api.chamada.models import Chamada
from graphql_api.core.ids import new_id
from graphql_api.core.purge import Purge
from graphql_api.idempotencia import service as idempotency_store
from graphql_api.idempotencia.models import RegistroIdempotencia
from graphql_api.oauth import tokens as oauth_tokens
from graphql_api.oauth.models import FalhaClienteOAuth
from graphql_api.usuario import sessoes
from graphql_api.usuario.models import TentativaEntrada

# A day ahead: the app's own periodic purge (at start-up, on the real clock) then never reaches
# rows these tests keep just inside a limit, and only ever takes a part of what they purge.
NOW = datetime.now(UTC).replace(microsecond=0) + timedelta(days=1)
DAY = timedelta(days=1)
SECOND = timedelta(seconds=1)

# (age, how many, with bodies); what the purge must leave of each is in `expected`.
AGES = [
    (120 * DAY, 9, False),
    (95 * DAY, 8, True),
    (90 * DAY + SECOND, 3, False),  # just past 90 days: removed
    (90 * DAY - SECOND, 3, True),  # just inside: kept, bodies emptied
    (60 * DAY, 11, True),
    (45 * DAY, 4, False),  # emptied long ago
    (30 * DAY + SECOND, 3, True),  # just past 30 days: bodies emptied
    (30 * DAY - SECOND, 3, True),  # just inside: bodies kept
    (DAY, 5, True),
]


async def seed_calls(integrador_id: str) -> dict[str, tuple[timedelta, bool]]:
    rows, ages = [], {}
    for age, count, bodies in AGES:
        for n in range(count):
            request_id = new_id("req_")
            ages[request_id] = (age, bodies)
            rows.append(
                Chamada(
                    id=request_id,
                    integrador_id=integrador_id,
                    ambiente="teste",
                    credencial="api_key",
                    metodo="POST",
                    endpoint="/contas",
                    caminho="/v1/contas",
                    status=201,
                    duracao_ms=1.0,
                    corpo_enviado='{"nome":"x"}' if bodies else None,
                    corpo_recebido='{"data":{}}' if bodies else None,
                    criado_em=NOW - age - n * timedelta(microseconds=1),
                )
            )
    await Chamada.bulk_create(rows)
    return ages


async def state_of(integrador_id: str) -> dict[str, bool]:
    """Each remaining call of the integrator: whether it still has its bodies."""
    rows = await Chamada.filter(integrador_id=integrador_id).values("id", "corpo_enviado", "corpo_recebido")
    return {r["id"]: r["corpo_enviado"] is not None or r["corpo_recebido"] is not None for r in rows}


def expected(ages: dict[str, tuple[timedelta, bool]]) -> dict[str, bool]:
    return {
        request_id: bodies and age < chamadas.BODY_RETENTION
        for request_id, (age, bodies) in ages.items()
        if age < chamadas.ROW_RETENTION
    }


async def due(integrador_id: str | None = None) -> tuple[int, int]:
    """(bodies to empty, records to remove) of the integrator, or in the whole database."""
    calls = Chamada.all() if integrador_id is None else Chamada.filter(integrador_id=integrador_id)
    stays = calls.filter(criado_em__gte=NOW - chamadas.ROW_RETENTION)
    with_bodies = Q(corpo_enviado__isnull=False) | Q(corpo_recebido__isnull=False)
    bodies = await stays.filter(with_bodies, criado_em__lt=NOW - chamadas.BODY_RETENTION).count()
    return bodies, await calls.filter(criado_em__lt=NOW - chamadas.ROW_RETENTION).count()


def between(counts: tuple[int, int], mine: tuple[int, int], everywhere: tuple[int, int]) -> bool:
    """Counts of the purge: at least the integrator's rows, at most all that was due (other
    tests' rows are in the same database, and the app's periodic purge may have taken some)."""
    return all(low <= n <= high for n, low, high in zip(counts, mine, everywhere, strict=True))


class Counter:
    """A clock that ticks once per read: the purge reads it once per batch."""

    def __init__(self) -> None:
        self.reads = itertools.count()

    def __call__(self) -> float:
        return float(next(self.reads))


async def test_the_purge_removes_and_empties_exactly_what_is_due_over_many_batches(integrator):
    ages = await seed_calls(integrator.id)
    mine, everywhere = await due(integrator.id), await due()
    clock = Counter()
    purge = Purge(batch=4, clock=clock)
    counts = await chamadas.expurgar(NOW, purge)
    assert purge.finished and between(counts, mine, everywhere)
    assert await state_of(integrator.id) == expected(ages)
    assert next(clock.reads) > sum(counts) / 4  # four rows a batch at most
    assert await chamadas.expurgar(NOW, Purge(batch=4)) == (0, 0)  # nothing left for the next run


async def test_a_run_stops_at_its_budget_and_the_next_goes_on(integrator):
    ages = await seed_calls(integrator.id)
    mine, everywhere = await due(integrator.id), await due()
    runs, emptied, removed = 0, 0, 0
    while True:
        runs += 1
        purge = Purge(batch=3, budget=4, clock=Counter())  # three batches, then the budget is over
        bodies, rows = await chamadas.expurgar(NOW, purge)
        assert bodies + rows <= 9
        emptied, removed = emptied + bodies, removed + rows
        if purge.finished:
            break
        assert bodies + rows > 0  # every run gets somewhere
    assert runs > 3 and between((emptied, removed), mine, everywhere)
    assert await state_of(integrator.id) == expected(ages)


async def test_two_runs_at_once_share_the_work_without_doing_it_twice(integrator):
    ages = await seed_calls(integrator.id)
    mine, everywhere = await due(integrator.id), await due()
    first, second = await asyncio.gather(chamadas.expurgar(NOW, Purge(batch=2)), chamadas.expurgar(NOW, Purge(batch=2)))
    assert between((first[0] + second[0], first[1] + second[1]), mine, everywhere)
    assert await state_of(integrator.id) == expected(ages)


async def test_idempotency_records_go_after_seven_days_in_batches(integrator):
    def record(age: timedelta) -> RegistroIdempotencia:
        return RegistroIdempotencia(
            integrador_id=integrator.id,
            ambiente="teste",
            chave=new_id("k_"),
            hash_pedido="h",
            criado_em=NOW - age,
            bloqueado_ate=NOW - age,
        )

    old = [record(idempotency_store.KEY_LIFETIME + timedelta(hours=1)) for _ in range(7)]
    recent = [record(idempotency_store.KEY_LIFETIME - DAY) for _ in range(3)]
    await RegistroIdempotencia.bulk_create(old + recent)
    mine = RegistroIdempotencia.filter(integrador_id=integrator.id)
    purge = Purge(batch=2, budget=3, clock=Counter())
    assert await idempotency_store.expurgar(NOW, purge) == 4 and not purge.finished
    assert await mine.count() == 6
    await idempotency_store.expurgar(NOW, Purge(batch=2))
    assert set(await mine.values_list("chave", flat=True)) == {r.chave for r in recent}


async def test_sign_in_and_oauth_failures_go_in_batches(client):
    failures = [
        TentativaEntrada(email="ninguem@retencao.test", tipo="usuario", ip="10.0.0.1", criado_em=NOW - 2 * DAY)
        for _ in range(5)
    ]
    await TentativaEntrada.bulk_create(failures)
    await FalhaClienteOAuth.bulk_create(
        [FalhaClienteOAuth(app_id="app_retencao", criado_em=NOW - 2 * DAY) for _ in range(5)]
    )
    await sessoes.expurgar(NOW, Purge(batch=2))
    await oauth_tokens.expurgar(NOW, Purge(batch=2))
    assert not await TentativaEntrada.filter(email="ninguem@retencao.test").exists()
    assert not await FalhaClienteOAuth.filter(app_id="app_retencao").exists()
