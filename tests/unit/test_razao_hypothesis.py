"""The credit ledger under any order of movements (hypothesis stateful): reserve, capture, release,
grant (plan upgrades and cycle starts), expire (the clock passing cycle ends) and buy (package
credits) keep every balance equal to its ledger column and never below zero, spend plan credits
first and credit purchases to the package pool only. Runs the domain's own functions against the
real database of the back end under test."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import hypothesis.strategies as st
from hypothesis import HealthCheck, settings
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from graphql_api.core import relogio, tarefas
from graphql_api.core.errors import ApiError
from graphql_api.core.ids import new_id
from graphql_api.core.transactions import transaction
from graphql_api.creditos import catalogo, planos
from graphql_api.creditos import service as creditos
from graphql_api.creditos.models import Assinatura, Carteira
from graphql_api.integrador import service as integradores
from tests.api.test_planos import assert_ledger_is_the_balance
from vitrine import db

PLANOS = ("gratuito", "essencial", "profissional")
CREDITOS = {p.codigo: p.creditosMensais for p in catalogo.catalogo().planos}


class Razao(RuleBasedStateMachine):
    """A model of the two pools beside the real wallet: after every step both must agree."""

    loop: asyncio.AbstractEventLoop  # the test's own loop, where the database connections live

    def run(self, coro):
        return self.loop.run_until_complete(coro)

    async def carteira(self) -> Carteira:
        return (await creditos.carteira_em_dia(self.integrador, "teste"))[0]

    def assinatura(self) -> Assinatura:
        return self.run(creditos.carteira_em_dia(self.integrador, "teste"))[1]

    @initialize(plano=st.sampled_from(PLANOS), pacote=st.integers(0, 300))
    def abrir(self, plano: str, pacote: int) -> None:
        criado = self.run(integradores.criar_integrador(nome="Hipótese", email="h@h.test", chave_teste=False))
        self.integrador = criado.integrador.id
        # the model: available credits by pool, and each reservation's (plan part, package part, cycle)
        self.plano, self.pacote = 0, 1000
        self.reservas: dict[str, tuple[int, int, datetime]] = {}
        self.run(self._ajustar(pacote - 1000))  # the play credits replaced by a drawn amount
        self.pacote = pacote
        self.mudar_plano(plano)

    async def _ajustar(self, valor: int) -> None:
        async with transaction():
            await creditos.ajustar(self.integrador, "teste", valor, "Hipótese")

    @rule(valor=st.integers(1, 700))
    def reservar(self, valor: int) -> None:
        geracao_id = new_id("ger_")

        async def go() -> None:
            async with transaction():
                await creditos.reservar(self.integrador, "teste", geracao_id, valor, "Hipótese")

        try:
            self.run(go())
        except ApiError as error:
            assert error.type == "INSUFFICIENT_CREDITS" and self.plano + self.pacote < valor
            return
        assert self.plano + self.pacote >= valor
        do_plano = min(self.plano, valor)  # plan credits first
        self.plano -= do_plano
        self.pacote -= valor - do_plano
        self.reservas[geracao_id] = (do_plano, valor - do_plano, self.assinatura().ciclo_inicio_em)

    @precondition(lambda self: self.reservas)
    @rule(data=st.data())
    def liquidar(self, data) -> None:
        geracao_id = data.draw(st.sampled_from(sorted(self.reservas)))
        do_plano, do_pacote, ciclo = self.reservas.pop(geracao_id)
        reservados = do_plano + do_pacote
        cobrados = data.draw(st.integers(0, reservados))  # 0: a failed generation, all released

        async def go() -> None:
            async with transaction():
                await creditos.liquidar(self.integrador, "teste", geracao_id, reservados=reservados, cobrados=cobrados)

        self.run(go())
        devolvidos = reservados - cobrados
        plano_de_volta = min(devolvidos, max(0, do_plano - cobrados))  # captures take plan credits first
        if ciclo == self.assinatura().ciclo_inicio_em:
            self.plano += plano_de_volta
        # else: reserved in a cycle that ended, they expire instead of coming back
        self.pacote += devolvidos - plano_de_volta

    @rule(valor=st.integers(1, 500))
    def comprar(self, valor: int) -> None:
        """A package bought: credited to the package pool (as graphql_api/recarga does)."""

        async def go() -> None:
            async with transaction():
                carteira = await creditos._travar_carteira(self.integrador, "teste")
                await creditos._lancar(
                    carteira, "compra_pacote", disponiveis=valor, reservados=0, plano=0, descricao="Pacote"
                )

        self.run(go())
        self.pacote += valor

    @rule(plano=st.sampled_from(PLANOS))
    def mudar_plano(self, plano: str) -> None:
        """An upgrade grants the difference now; a downgrade waits for the next cycle."""
        antes = self.assinatura()
        self.run(planos.mudar_plano(self.integrador, "teste", plano, bus=None))
        depois = self.assinatura()
        oferecido = CREDITOS[plano]
        if depois.plano.codigo == plano and antes.plano.codigo != plano:  # an upgrade
            assert depois.cota_ciclo == max(antes.cota_ciclo, oferecido)
            self.plano += depois.cota_ciclo - antes.cota_ciclo
        else:
            assert depois.cota_ciclo == antes.cota_ciclo

    @rule(dias=st.integers(1, 75))
    def passar_o_tempo(self, dias: int) -> None:
        """Cycle ends: plan credits left expire, the next cycle's are granted (on the next read)."""
        antes = self.assinatura()
        relogio.avancar(timedelta(days=dias))
        depois = self.assinatura()
        assert depois.ciclo_inicio_em <= relogio.agora() < depois.ciclo_fim_em
        if depois.ciclo_inicio_em != antes.ciclo_inicio_em:
            self.plano = depois.cota_ciclo

    @invariant()
    def razao_igual_aos_saldos(self) -> None:
        if hasattr(self, "integrador"):
            carteira = self.run(assert_ledger_is_the_balance(self.integrador))
            reservados = sum(p + k for p, k, _ in self.reservas.values())
            assert (carteira.creditos_plano, carteira.creditos_pacote, carteira.creditos_reservados) == (
                self.plano,
                self.pacote,
                reservados,
            )


def test_the_ledger_equals_the_balances_whatever_the_order():
    from vitrine.settings import Settings

    loop = asyncio.new_event_loop()
    context = loop.run_until_complete(db.connect(Settings()))
    Razao.loop = loop
    # Movements queue the low-balance alert task: this test judges the ledger, not the alerts, so the
    # tasks are only noted (run alone, no other test has installed a sender before it).
    queued: list[str] = []

    async def note(nome: str, *args) -> None:
        queued.append(nome)

    previous = tarefas.instalar(note)
    try:
        with relogio.deslocado(timedelta(0)):  # the machine's clock moves are undone afterwards
            run_state_machine_as_test(
                Razao,
                settings=settings(
                    max_examples=30,
                    stateful_step_count=30,
                    deadline=None,
                    database=None,
                    suppress_health_check=[HealthCheck.too_slow],
                ),
            )
    finally:
        tarefas.instalar(previous)
        loop.run_until_complete(context.close_connections())
        loop.close()
