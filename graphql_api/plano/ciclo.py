"""The monthly cycle of a subscription and what happens at its turn.

A subscription's cycles count from its start (Assinatura.criado_em): cycle n runs from that
moment plus n months to plus n + 1 months, on the same day of the month, clamped to the month's
last day (a start on the 31st turns on Feb 28/29, Mar 31, Apr 30...), at the same UTC time.

At the turn (`em_dia`, always with the wallet locked): the plan credits left available expire
(ledger `expiracao_plano`, dated at the cycle's end), the subscription moves to its scheduled
plan (a downgrade) or else to the newest version of its plan, and the new cycle's credits are
granted (`concessao_plano`, dated at the cycle's start). Cycles that passed with nothing to
spend in them are skipped: credits of a cycle nobody could use would only have expired. Plan
credits reserved by a generation still running stay reserved; whatever of them comes back
after the turn expires then (graphql_api/creditos/service.liquidar).

It runs lazily wherever a wallet is locked (a read, a reservation, a settlement) and from the
periodic job `planos.virar_ciclos`, so a sleeping scheduler never shows a stale cycle; under
the wallet's row lock the second process finds the cycle already turned and does nothing."""

from __future__ import annotations

import calendar
from datetime import datetime

from graphql_api.core.relogio import agora
from graphql_api.creditos import service as creditos
from graphql_api.creditos.models import Carteira
from graphql_api.plano import catalogo, repository
from graphql_api.plano.models import Assinatura, Plano

# Thresholds of the monthly quota (percent of the cycle's plan credits) reported by /cota-do-mes.
LIMIARES = (70, 90, 100)


def somar_meses(ancora: datetime, meses: int) -> datetime:
    total = ancora.month - 1 + meses
    ano, mes = ancora.year + total // 12, total % 12 + 1
    return ancora.replace(year=ano, month=mes, day=min(ancora.day, calendar.monthrange(ano, mes)[1]))


def ciclo_em(ancora: datetime, momento: datetime) -> tuple[datetime, datetime]:
    """(start, end) of the cycle counted from `ancora` that holds `momento`."""
    n = max(0, (momento.year - ancora.year) * 12 + momento.month - ancora.month)
    while n > 0 and somar_meses(ancora, n) > momento:
        n -= 1
    while somar_meses(ancora, n + 1) <= momento:
        n += 1
    return somar_meses(ancora, n), somar_meses(ancora, n + 1)


def vencida(assinatura: Assinatura, momento: datetime | None = None) -> bool:
    return assinatura.ciclo_fim_em <= (momento or agora())


def _periodo(inicio: datetime, fim: datetime) -> str:
    return f"{inicio:%d/%m/%Y} a {fim:%d/%m/%Y}"


async def em_dia(carteira: Carteira) -> Assinatura:
    """The wallet's subscription with its current cycle: created on the initial plan when there is
    none (integrators from before plans), turned when its cycle ended. Call with the wallet locked,
    inside a transaction."""
    momento = agora()
    assinatura = await repository.assinatura_de(carteira.integrador_id, carteira.ambiente)
    if assinatura is None:
        return await _assinar(carteira, momento.replace(microsecond=0))  # cycles turn on whole seconds
    if vencida(assinatura, momento):
        await _virar(carteira, assinatura, momento)
    return assinatura


async def _assinar(carteira: Carteira, momento: datetime) -> Assinatura:
    plano = await repository.vigente(catalogo.plano_inicial())
    if plano is None:  # the catalogue is loaded by `vitrine migrate`; a bare database loads it here
        await catalogo.sincronizar()
        plano = await repository.vigente(catalogo.plano_inicial())
        assert plano is not None, "the catalogue names an initial plan it does not hold"
    fim = somar_meses(momento, 1)
    assinatura = await Assinatura.create(
        integrador_id=carteira.integrador_id,
        ambiente=carteira.ambiente,
        plano=plano,
        ciclo_inicio_em=momento,
        ciclo_fim_em=fim,
        cota_ciclo=plano.creditos_mensais,
        alertas_cota=[],
        criado_em=momento,  # the anchor of every cycle
    )
    await _conceder_ciclo(carteira, plano, momento, fim)
    return assinatura


async def _conceder_ciclo(carteira: Carteira, plano: Plano, inicio: datetime, fim: datetime) -> None:
    if plano.creditos_mensais:
        await creditos.conceder_plano(
            carteira,
            plano.creditos_mensais,
            f"Créditos do plano {plano.nome} para o ciclo de {_periodo(inicio, fim)}.",
            em=inicio,
        )


async def _virar(carteira: Carteira, assinatura: Assinatura, momento: datetime) -> None:
    fim_anterior = assinatura.ciclo_fim_em
    if carteira.creditos_plano > 0:
        await creditos.expirar_plano(
            carteira,
            f"Créditos do plano não usados no ciclo de {_periodo(assinatura.ciclo_inicio_em, fim_anterior)} expiraram.",
            em=fim_anterior,
        )
    atual: Plano = assinatura.plano
    agendado = assinatura.plano_agendado if assinatura.plano_agendado_id is not None else None
    proximo = agendado or await repository.vigente(atual.codigo) or atual
    inicio, fim = ciclo_em(assinatura.criado_em, momento)
    assinatura.plano = proximo
    assinatura.plano_agendado = None
    assinatura.ciclo_inicio_em, assinatura.ciclo_fim_em = inicio, fim
    assinatura.cota_ciclo = proximo.creditos_mensais
    assinatura.alertas_cota = []
    await assinatura.save()
    await _conceder_ciclo(carteira, proximo, inicio, fim)
    from graphql_api.plano import alertas  # alerts build on the cycle

    await alertas.vigiar_saldo(carteira, assinatura)
    await alertas.fechar_superados(carteira.integrador_id, carteira.ambiente, assinatura)


def uso(assinatura: Assinatura, carteira: Carteira) -> tuple[int, int]:
    """(used, left) plan credits of the cycle: what left the plan pool (spent or reserved) and
    what is still available in it."""
    restantes = carteira.creditos_plano
    return max(0, assinatura.cota_ciclo - restantes), restantes


def percentual(assinatura: Assinatura, carteira: Carteira) -> int:
    """Percent of the quota used, rounded down (100 only when all of it is gone)."""
    if assinatura.cota_ciclo <= 0:
        return 0
    usados, _ = uso(assinatura, carteira)
    return min(100, usados * 100 // assinatura.cota_ciclo)


def limiares_atingidos(assinatura: Assinatura, carteira: Carteira) -> list[int]:
    pct = percentual(assinatura, carteira)
    return [limiar for limiar in LIMIARES if assinatura.cota_ciclo > 0 and pct >= limiar]


async def marcar_limiares(assinatura: Assinatura, carteira: Carteira) -> list[int]:
    """Record the quota thresholds this cycle has now passed (once each per cycle); returns the new
    ones: the `cota.alerta` events and the quota e-mails (graphql_api/plano/alertas.py)."""
    novos = [limiar for limiar in limiares_atingidos(assinatura, carteira) if limiar not in assinatura.alertas_cota]
    if novos:
        assinatura.alertas_cota = sorted([*assinatura.alertas_cota, *novos])
        await assinatura.save(update_fields=["alertas_cota", "atualizado_em"])
    return novos
