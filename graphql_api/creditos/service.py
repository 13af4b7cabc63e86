"""Credits: one wallet per integrator and environment. The test wallet holds free play credits.

Available credits live in two pools: plan credits (granted at each cycle start, expire at its
end: graphql_api/creditos/ciclo.py) and package credits (bought, play credits of teste, staff
adjustments; never expire). Spending takes plan credits first. Every movement is a ledger entry,
and each balance always equals the sum of its column in the ledger."""

from __future__ import annotations

from typing import Any

from tortoise.queryset import QuerySet

from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.ids import FOLGA_DO_MOMENTO, id_do_momento
from graphql_api.core.pagination import PageRequest, paginate
from graphql_api.core.principal import Ambiente, Principal
from graphql_api.core.transactions import transaction
from graphql_api.creditos import alertas, ciclo, razao, repository, virada
from graphql_api.creditos.models import Assinatura, Carteira, Lancamento
from graphql_api.creditos.schemas import FiltroExtrato

# Play credits a new test wallet starts with (refilled for free in the portal).
CREDITOS_INICIAIS_TESTE = 1000


async def abrir_carteiras(integrador_id: str) -> None:
    """Both wallets of an integrator; the test one starts with free play credits (a ledger entry)."""
    teste, created = await Carteira.get_or_create(integrador_id=integrador_id, ambiente=Ambiente.TESTE.value)
    if created:
        await _lancar(
            teste, "recarga", disponiveis=CREDITOS_INICIAIS_TESTE, reservados=0, descricao="Créditos de teste iniciais."
        )
    producao, _ = await Carteira.get_or_create(integrador_id=integrador_id, ambiente=Ambiente.PRODUCAO.value)
    for carteira in (teste, producao):  # each environment's subscription starts with its wallet
        await virada.em_dia(carteira)


async def obter_saldo(principal: Principal) -> Carteira:
    return (await carteira_em_dia(principal.integrador_exigido, principal.ambiente.value))[0]


async def carteira_em_dia(integrador_id: str, ambiente: str) -> tuple[Carteira, Assinatura]:
    """The wallet and its subscription for a read, its cycle current: a cycle that ended is turned
    first (under the wallet's lock), whether or not the periodic job has run."""
    carteira = await repository.carteira_of(integrador_id, ambiente)
    assinatura = await repository.assinatura_de(integrador_id, ambiente) if carteira is not None else None
    if carteira is None or assinatura is None or ciclo.vencida(assinatura):
        async with transaction():
            return await carteira_travada(integrador_id, ambiente)
    return carteira, assinatura


async def carteira_travada(integrador_id: str, ambiente: str) -> tuple[Carteira, Assinatura]:
    """The wallet locked until the transaction ends (reservations, settlements and cycle turns
    never interleave), and its subscription with the cycle brought up to date."""
    carteira = await repository.travar_carteira(integrador_id, ambiente)
    if carteira is None:  # integrators created before wallets existed
        await abrir_carteiras(integrador_id)
        carteira = await Carteira.select_for_update().get(integrador_id=integrador_id, ambiente=ambiente)  # just opened
    return carteira, await virada.em_dia(carteira)


async def _travar_carteira(integrador_id: str, ambiente: str) -> Carteira:
    return (await carteira_travada(integrador_id, ambiente))[0]


async def _lancar(carteira: Carteira, tipo: str, **campos: Any) -> Lancamento:
    """A ledger entry (graphql_api/creditos/razao.py), then the low-balance watch; a turn's expiry
    is judged after its grant (graphql_api/creditos/virada.py)."""
    lancamento = await razao.lancar(carteira, tipo, **campos)
    if tipo != "expiracao_plano":
        await alertas.vigiar_saldo(carteira)
    return lancamento


async def reservar(integrador_id: str, ambiente: str, geracao_id: str, creditos: int, descricao: str) -> None:
    """Reserve credits for a generation (plan credits first). Call inside the transaction that
    creates it; 402 INSUFFICIENT_CREDITS (and nothing created) when the wallet cannot cover it."""
    carteira, assinatura = await carteira_travada(integrador_id, ambiente)
    if carteira.creditos_disponiveis < creditos:
        raise ApiError(
            "INSUFFICIENT_CREDITS",
            description=f"A operação reserva {creditos} créditos; há {carteira.creditos_disponiveis} disponíveis.",
        )
    await _lancar(
        carteira, "reserva", disponiveis=-creditos, reservados=creditos, geracao_id=geracao_id, descricao=descricao
    )
    await alertas.limiares_passados(assinatura, carteira, await ciclo.marcar_limiares(assinatura, carteira))


async def liquidar(integrador_id: str, ambiente: str, geracao_id: str, *, reservados: int, cobrados: int) -> None:
    """Settle a generation: capture what was delivered, release the rest of its reservation.
    The capture takes the reservation's plan credits first, so what comes back is package credits
    before plan credits (which expire); returned plan credits go back to the plan pool when they
    were reserved in the current cycle, and expire when that cycle has ended meanwhile."""
    carteira, assinatura = await carteira_travada(integrador_id, ambiente)
    if cobrados:
        await _lancar(
            carteira,
            "captura",
            disponiveis=0,
            reservados=-cobrados,
            geracao_id=geracao_id,
            descricao=f"Cobrança de {cobrados} créditos pela geração entregue.",
        )
    devolvidos = reservados - cobrados
    if not devolvidos:
        return
    reservas = await repository.reservas_da_geracao(carteira.id, geracao_id)
    do_plano = -sum(r.plano for r in reservas)  # plan credits the reservation took
    plano_devolvido = min(devolvidos, max(0, do_plano - cobrados))
    ciclo_passado = any(r.criado_em < assinatura.ciclo_inicio_em for r in reservas)
    expiram = plano_devolvido if ciclo_passado else 0
    if devolvidos - expiram:
        await _lancar(
            carteira,
            "liberacao",
            disponiveis=devolvidos - expiram,
            reservados=-(devolvidos - expiram),
            plano=plano_devolvido - expiram,
            geracao_id=geracao_id,
            descricao=f"Devolução de {devolvidos - expiram} créditos não usados.",
        )
    if expiram:
        await _lancar(
            carteira,
            "expiracao_plano",
            disponiveis=0,
            reservados=-expiram,
            plano=0,
            geracao_id=geracao_id,
            descricao=f"{expiram} créditos do plano não usados pela geração expiraram: "
            "o ciclo em que foram reservados já terminou.",
        )


async def creditar(integrador_id: str, ambiente: str, creditos: int, descricao: str) -> Carteira:
    """Add credits to a wallet (a refill). The base of purchases, once they exist."""
    carteira = await _travar_carteira(integrador_id, ambiente)
    await _lancar(carteira, "recarga", disponiveis=creditos, reservados=0, descricao=descricao)
    return carteira


async def creditar_pacote(integrador_id: str, ambiente: str, creditos: int, recarga_id: str, descricao: str) -> None:
    """A paid package: its credits enter the package pool (they never expire with the cycle).
    Call inside the transaction that marks the purchase paid, which says it happens once."""
    carteira = await _travar_carteira(integrador_id, ambiente)
    await _lancar(
        carteira,
        "compra_pacote",
        disponiveis=creditos,
        reservados=0,
        plano=0,
        recarga_id=recarga_id,
        descricao=descricao,
    )
    await alertas.pacote_pago(integrador_id, ambiente)


async def recarregar_teste(principal: Principal, creditos: int = CREDITOS_INICIAIS_TESTE) -> Carteira:
    """Refill the free play wallet of the test environment."""
    if principal.ambiente is not Ambiente.TESTE:
        raise ApiError("FORBIDDEN", description="Só a carteira de teste é recarregada de graça.")
    assert principal.integrador_id is not None  # a wallet belongs to an integrator
    async with transaction():
        return await creditar(
            principal.integrador_id,
            Ambiente.TESTE.value,
            creditos,
            f"Recarga gratuita de {creditos} créditos de teste.",
        )


async def extrato(
    principal: Principal, filtros: FiltroExtrato, page: PageRequest
) -> tuple[list[Lancamento], str | None]:
    carteira = await obter_saldo(principal)
    return await paginate(consulta_extrato(carteira.id, filtros), page)


def consulta_extrato(carteira_id: int, filtros: FiltroExtrato) -> QuerySet[Lancamento]:
    """The statement before its page: (carteira, id) and (carteira, tipo, id) indexes, a
    generation's few entries by its own index."""
    query = repository.lancamentos_of(carteira_id)
    # Dates are id ranges too, on the (carteira, id) and (carteira, tipo, id) indexes.
    if (inicio := filtros.inicio) is not None:
        query = query.filter(id__gte=id_do_momento("lan_", inicio, -FOLGA_DO_MOMENTO), criado_em__gte=inicio)
    if (fim := filtros.fim) is not None:
        query = query.filter(id__lt=id_do_momento("lan_", fim, FOLGA_DO_MOMENTO), criado_em__lte=fim)
    if filtros.tipo:
        query = query.filter(tipo=filtros.tipo)
    if filtros.geracaoId:
        query = query.filter(geracao_id=filtros.geracaoId)
    return query


# -- staff ------------------------------------------------------------------------------------------


async def ajustar(integrador_id: str, ambiente: str, creditos: int, motivo: str, *, bolso: str = "pacote") -> Carteira:
    """A staff adjustment: credits into or out of one pool, with its reason in the statement. A pool
    never goes below zero. Call inside a transaction."""
    carteira, _ = await carteira_travada(integrador_id, ambiente)
    saldo_bolso = carteira.creditos_plano if bolso == "plano" else carteira.creditos_pacote
    if saldo_bolso + creditos < 0:
        raise ApiError(
            "VALIDATION_FAILED",
            fields=[
                FieldError(
                    "creditos",
                    "fora_do_intervalo",
                    f"O ajuste tiraria {-creditos} créditos do bolso {bolso}, que tem {saldo_bolso} disponíveis.",
                )
            ],
        )
    await _lancar(
        carteira,
        "ajuste",
        disponiveis=creditos,
        reservados=0,
        plano=creditos if bolso == "plano" else 0,
        descricao=f"Ajuste da equipe: {motivo}",
    )
    return carteira
