"""The turn of a subscription's cycle (docs/creditos.md).

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

from datetime import datetime

from graphql_api.core.relogio import agora
from graphql_api.creditos import alertas, catalogo, ciclo, razao, repository
from graphql_api.creditos.models import Assinatura, Carteira, Plano


async def conceder(carteira: Carteira, creditos: int, descricao: str, *, em: datetime | None = None) -> None:
    """Plan credits into the plan pool (a cycle's quota, an upgrade's difference), then the
    low-balance watch, as after every movement but an expiry."""
    await razao.conceder_plano(carteira, creditos, descricao, em=em)
    await alertas.vigiar_saldo(carteira)


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
    if ciclo.vencida(assinatura, momento):
        await _virar(carteira, assinatura, momento)
    return assinatura


async def _assinar(carteira: Carteira, momento: datetime) -> Assinatura:
    plano = await repository.vigente(catalogo.plano_inicial())
    if plano is None:  # the catalogue is loaded by `vitrine migrate`; a bare database loads it here
        await catalogo.sincronizar()
        plano = await repository.vigente(catalogo.plano_inicial())
        assert plano is not None, "the catalogue names an initial plan it does not hold"
    fim = ciclo.somar_meses(momento, 1)
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
        await conceder(
            carteira,
            plano.creditos_mensais,
            f"Créditos do plano {plano.nome} para o ciclo de {_periodo(inicio, fim)}.",
            em=inicio,
        )


async def _virar(carteira: Carteira, assinatura: Assinatura, momento: datetime) -> None:
    fim_anterior = assinatura.ciclo_fim_em
    if carteira.creditos_plano > 0:
        await razao.expirar_plano(
            carteira,
            f"Créditos do plano não usados no ciclo de {_periodo(assinatura.ciclo_inicio_em, fim_anterior)} expiraram.",
            em=fim_anterior,
        )
    atual: Plano = assinatura.plano
    agendado = assinatura.plano_agendado if assinatura.plano_agendado_id is not None else None
    proximo = agendado or await repository.vigente(atual.codigo) or atual
    inicio, fim = ciclo.ciclo_em(assinatura.criado_em, momento)
    assinatura.plano = proximo
    assinatura.plano_agendado = None
    assinatura.ciclo_inicio_em, assinatura.ciclo_fim_em = inicio, fim
    assinatura.cota_ciclo = proximo.creditos_mensais
    assinatura.alertas_cota = []
    await assinatura.save()
    await _conceder_ciclo(carteira, proximo, inicio, fim)
    await alertas.vigiar_saldo(carteira, assinatura)
    await alertas.fechar_superados(carteira.integrador_id, carteira.ambiente, assinatura)
