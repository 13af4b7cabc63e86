"""The monthly cycle of a subscription: its dates and its quota thresholds (pure, or one save of
the subscription). What happens at the turn is graphql_api/creditos/virada.py.

A subscription's cycles count from its start (Assinatura.criado_em): cycle n runs from that
moment plus n months to plus n + 1 months, on the same day of the month, clamped to the month's
last day (a start on the 31st turns on Feb 28/29, Mar 31, Apr 30...), at the same UTC time."""

from __future__ import annotations

import calendar
from datetime import datetime

from graphql_api.core.relogio import agora
from graphql_api.creditos.models import Assinatura, Carteira

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
    ones: the `cota.alerta` events and the quota e-mails (graphql_api/creditos/alertas.py)."""
    novos = [limiar for limiar in limiares_atingidos(assinatura, carteira) if limiar not in assinatura.alertas_cota]
    if novos:
        assinatura.alertas_cota = sorted([*assinatura.alertas_cota, *novos])
        await assinatura.save(update_fields=["alertas_cota", "atualizado_em"])
    return novos
