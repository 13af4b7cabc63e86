"""Credits: one wallet per integrator and environment. The test wallet holds free play credits."""

from __future__ import annotations

from graphql_api.core.errors import ApiError
from graphql_api.core.ids import new_id
from graphql_api.core.principal import Ambiente, Principal
from graphql_api.core.transactions import transaction
from graphql_api.creditos import repository
from graphql_api.creditos.models import Carteira, Lancamento

# Play credits a new test wallet starts with (refilled for free in the portal).
CREDITOS_INICIAIS_TESTE = 1000


async def abrir_carteiras(integrador_id: str) -> None:
    """Both wallets of an integrator; the test one starts with free play credits (a ledger entry)."""
    teste, created = await Carteira.get_or_create(integrador_id=integrador_id, ambiente=Ambiente.TESTE.value)
    if created:
        await _lancar(
            teste, "recarga", disponiveis=CREDITOS_INICIAIS_TESTE, reservados=0, descricao="Créditos de teste iniciais."
        )
    await Carteira.get_or_create(integrador_id=integrador_id, ambiente=Ambiente.PRODUCAO.value)


async def obter_saldo(principal: Principal) -> Carteira:
    assert principal.integrador_id is not None  # a wallet belongs to an integrator
    carteira = await repository.carteira_of(principal.integrador_id, principal.ambiente.value)
    if carteira is None:  # integrators created before wallets existed
        await abrir_carteiras(principal.integrador_id)
        carteira = await Carteira.get(
            integrador_id=principal.integrador_id, ambiente=principal.ambiente.value
        )  # just opened
    return carteira


async def _locked_wallet(integrador_id: str, ambiente: str) -> Carteira:
    carteira = await repository.locked_carteira(integrador_id, ambiente)
    if carteira is None:
        await abrir_carteiras(integrador_id)
        carteira = await Carteira.select_for_update().get(integrador_id=integrador_id, ambiente=ambiente)  # just opened
    return carteira


async def _lancar(
    carteira: Carteira,
    tipo: str,
    *,
    disponiveis: int,
    reservados: int,
    descricao: str,
    geracao_id: str | None = None,
    plano: int | None = None,
    recarga_id: str | None = None,
) -> Lancamento:
    """Move credits between the wallet's available and reserved sides, with its ledger entry.
    Available credits live in two pools: `plano` (expire at the cycle's end) and the package pool
    (the rest of `disponiveis`). A debit takes plan credits first, unless `plano` says otherwise."""
    if plano is None:
        plano = -min(carteira.creditos_plano, -disponiveis) if disponiveis < 0 else 0
    pacote = disponiveis - plano
    carteira.creditos_disponiveis += disponiveis
    carteira.creditos_plano += plano
    carteira.creditos_pacote += pacote
    carteira.creditos_reservados += reservados
    await carteira.save(
        update_fields=[
            "creditos_disponiveis",
            "creditos_plano",
            "creditos_pacote",
            "creditos_reservados",
            "atualizado_em",
        ]
    )
    return await Lancamento.create(
        id=new_id("lan_"),
        carteira=carteira,
        tipo=tipo,
        disponiveis=disponiveis,
        reservados=reservados,
        plano=plano,
        pacote=pacote,
        disponiveis_apos=carteira.creditos_disponiveis,
        geracao_id=geracao_id,
        recarga_id=recarga_id,
        descricao=descricao[:300],
    )


async def reservar(integrador_id: str, ambiente: str, geracao_id: str, creditos: int, descricao: str) -> None:
    """Reserve credits for a generation. Call inside the transaction that creates it; 402
    INSUFFICIENT_CREDITS (and nothing created) when the wallet cannot cover it."""
    carteira = await _locked_wallet(integrador_id, ambiente)
    if carteira.creditos_disponiveis < creditos:
        raise ApiError(
            "INSUFFICIENT_CREDITS",
            description=f"A operação reserva {creditos} créditos; há {carteira.creditos_disponiveis} disponíveis.",
        )
    await _lancar(
        carteira, "reserva", disponiveis=-creditos, reservados=creditos, geracao_id=geracao_id, descricao=descricao
    )


async def liquidar(integrador_id: str, ambiente: str, geracao_id: str, *, reservados: int, cobrados: int) -> None:
    """Settle a generation: capture what was delivered, release the rest of its reservation."""
    carteira = await _locked_wallet(integrador_id, ambiente)
    if cobrados:
        await _lancar(
            carteira,
            "captura",
            disponiveis=0,
            reservados=-cobrados,
            geracao_id=geracao_id,
            descricao=f"Cobrança de {cobrados} créditos pela geração entregue.",
        )
    if reservados - cobrados:
        devolvidos = reservados - cobrados
        await _lancar(
            carteira,
            "liberacao",
            disponiveis=devolvidos,
            reservados=-devolvidos,
            geracao_id=geracao_id,
            descricao=f"Devolução de {devolvidos} créditos não usados.",
        )


async def creditar(integrador_id: str, ambiente: str, creditos: int, descricao: str) -> Carteira:
    """Add credits to a wallet (a refill). The base of purchases, once they exist."""
    carteira = await _locked_wallet(integrador_id, ambiente)
    await _lancar(carteira, "recarga", disponiveis=creditos, reservados=0, descricao=descricao)
    return carteira


async def creditar_pacote(integrador_id: str, ambiente: str, creditos: int, recarga_id: str, descricao: str) -> None:
    """A paid package: its credits enter the package pool (they never expire with the cycle).
    Call inside the transaction that marks the purchase paid, which says it happens once."""
    carteira = await _locked_wallet(integrador_id, ambiente)
    await _lancar(
        carteira,
        "compra_pacote",
        disponiveis=creditos,
        reservados=0,
        plano=0,
        recarga_id=recarga_id,
        descricao=descricao,
    )


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


async def extrato(principal: Principal, page):
    from graphql_api.core.pagination import paginate

    carteira = await obter_saldo(principal)
    return await paginate(repository.lancamentos_of(carteira.id), page)
