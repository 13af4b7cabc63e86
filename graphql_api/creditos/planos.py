"""Plans of an integrator: the catalogue offered, the subscription of each environment, plan
changes (an upgrade at once, a downgrade at the next cycle), the monthly quota and the
per-minute limits the plan gives (read by API-key and OAuth authentication)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graphql_api.core import topicos
from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.permissions import exigir_reautenticacao
from graphql_api.core.principal import Ambiente, Principal
from graphql_api.core.relogio import agora
from graphql_api.core.transactions import after_commit, transaction
from graphql_api.core.validation import validate
from graphql_api.creditos import alertas, ciclo, repository, virada
from graphql_api.creditos import service as creditos
from graphql_api.creditos.models import Assinatura, Carteira, Plano
from graphql_api.creditos.schemas import MudancaPlano


async def listar_planos() -> list[Plano]:
    return await repository.vigentes()


@dataclass(frozen=True, slots=True)
class MudancaAgendada:
    plano: Plano
    aplica_em: datetime
    motivo: str  # reducao (a downgrade asked for) | nova_versao (the plan's new version)


@dataclass(frozen=True, slots=True)
class PlanoAtual:
    ambiente: str
    assinatura: Assinatura
    mudanca: MudancaAgendada | None


@dataclass(frozen=True, slots=True)
class Cota:
    ambiente: str
    cota_mensal: int
    creditos_usados: int
    creditos_restantes: int
    percentual_usado: int
    ciclo_inicio_em: datetime
    ciclo_fim_em: datetime
    alertas_atingidos: list[int]


async def _mudanca(assinatura: Assinatura) -> MudancaAgendada | None:
    agendado = assinatura.plano_agendado if assinatura.plano_agendado_id is not None else None
    if agendado is not None:  # loaded with it (repository.assinatura_de) or just set
        return MudancaAgendada(agendado, assinatura.ciclo_fim_em, "reducao")
    novo = await repository.vigente(assinatura.plano.codigo)
    if novo is not None and novo.id != assinatura.plano_id:
        return MudancaAgendada(novo, assinatura.ciclo_fim_em, "nova_versao")
    return None


async def plano_atual(integrador_id: str, ambiente: str) -> PlanoAtual:
    _, assinatura = await creditos.carteira_em_dia(integrador_id, ambiente)
    return PlanoAtual(ambiente, assinatura, await _mudanca(assinatura))


async def cota_do_mes(integrador_id: str, ambiente: str) -> Cota:
    carteira, assinatura = await creditos.carteira_em_dia(integrador_id, ambiente)
    usados, restantes = ciclo.uso(assinatura, carteira)
    return Cota(
        ambiente=ambiente,
        cota_mensal=assinatura.cota_ciclo,
        creditos_usados=usados,
        creditos_restantes=restantes,
        percentual_usado=ciclo.percentual(assinatura, carteira),
        ciclo_inicio_em=assinatura.ciclo_inicio_em,
        ciclo_fim_em=assinatura.ciclo_fim_em,
        alertas_atingidos=sorted(set(assinatura.alertas_cota) | set(ciclo.limiares_atingidos(assinatura, carteira))),
    )


def e_melhor(novo: Plano, atual: Plano) -> bool:
    """An upgrade: a dearer plan, or as dear with more monthly credits."""
    return (novo.preco_centavos, novo.creditos_mensais) > (atual.preco_centavos, atual.creditos_mensais)


async def _limpar_caches(bus) -> None:
    """Keys and OAuth tokens cache their integrator's limits: every process reads them again."""
    if bus is not None:
        await bus.publish(topicos.CHAVES)
        await bus.publish(topicos.OAUTH)


async def mudar_plano(integrador_id: str, ambiente: str, codigo: str, *, bus) -> PlanoAtual:
    """Move a subscription to the plan `codigo` (its version offered now). Upgrade: at once, this
    cycle's quota grows to the new plan's and the difference is granted now. Downgrade: scheduled
    for the next cycle start (replacing any scheduled one). The current plan's codigo: cancels a
    scheduled change, nothing else."""
    novo = await repository.vigente(codigo)
    if novo is None:
        oferecidos = ", ".join(p.codigo for p in await repository.vigentes())
        raise ApiError(
            "VALIDATION_FAILED",
            fields=[
                FieldError("plano", "valor_invalido", f"Plano inexistente ou não oferecido. Planos: {oferecidos}.")
            ],
        )
    async with transaction():
        carteira, assinatura = await creditos.carteira_travada(integrador_id, ambiente)
        atual: Plano = assinatura.plano
        if novo.codigo == atual.codigo:
            assinatura.plano_agendado = None
        elif e_melhor(novo, atual):
            await _subir(carteira, assinatura, novo)
            await after_commit(lambda: _limpar_caches(bus))
        else:
            assinatura.plano_agendado = novo
        await assinatura.save()
    return PlanoAtual(ambiente, assinatura, await _mudanca(assinatura))


async def _subir(carteira: Carteira, assinatura: Assinatura, novo: Plano) -> None:
    diferenca = max(0, novo.creditos_mensais - assinatura.cota_ciclo)
    assinatura.plano = novo
    assinatura.plano_agendado = None
    assinatura.cota_ciclo = max(assinatura.cota_ciclo, novo.creditos_mensais)
    if diferenca:
        await virada.conceder(
            carteira, diferenca, f"Mudança para o plano {novo.nome}: diferença de {diferenca} créditos neste ciclo."
        )
    # thresholds of the grown quota: only the ones still passed count for this cycle
    assinatura.alertas_cota = ciclo.limiares_atingidos(assinatura, carteira)
    await alertas.vigiar_saldo(carteira, assinatura)
    await alertas.fechar_superados(carteira.integrador_id, carteira.ambiente, assinatura)


async def cancelar_mudanca(integrador_id: str, ambiente: str) -> PlanoAtual:
    """Cancel a scheduled downgrade (nothing happens when none is scheduled)."""
    async with transaction():
        _, assinatura = await creditos.carteira_travada(integrador_id, ambiente)
        if assinatura.plano_agendado_id is not None:
            assinatura.plano_agendado = None
            await assinatura.save()
    return PlanoAtual(ambiente, assinatura, await _mudanca(assinatura))


async def mudar_meu_plano(principal: Principal, dados: dict[str, Any], *, bus) -> PlanoAtual:
    """A plan change by a person of the integrator in the portal (roles with creditos:comprar); a
    production change is money: the password typed a moment ago, as for live keys."""
    pedido = validate(MudancaPlano, dados)
    if principal.ambiente is Ambiente.PRODUCAO:
        exigir_reautenticacao(principal)
    return await mudar_plano(principal.integrador_exigido, principal.ambiente.value, pedido.plano, bus=bus)


async def virar_ciclos(*, bus=None, lote: int = 200) -> dict[str, int]:
    """The periodic job: turn every subscription whose cycle ended (the lazy turn on each read and
    spend does the same; whichever comes first does it, the other finds nothing to do)."""
    viradas = 0
    mudaram = False
    for integrador_id, ambiente in await repository.vencidas(agora(), lote):
        async with transaction():
            antes = await repository.assinatura_de(integrador_id, ambiente)
            _, assinatura = await creditos.carteira_travada(integrador_id, ambiente)
            if antes is not None and antes.ciclo_fim_em != assinatura.ciclo_fim_em:
                viradas += 1
                mudaram |= antes.plano_id != assinatura.plano_id
    if mudaram:  # a downgrade or a new version took effect: its limits too
        await _limpar_caches(bus)
    return {"ciclosVirados": viradas}
