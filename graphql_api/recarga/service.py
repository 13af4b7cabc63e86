"""Single-package purchases (recargas): the catalogue, buying, and the payment confirmations.

A purchase is born pendente, with a payment link from its provider (provedores.py) and a deadline
(expiraEm). It ends once: paga (its credits enter the wallet's package pool, one ledger entry
`compra_pacote`), recusada, or expirada (lazily when read, and by the periodic sweep).

Exactly once: every confirmation, whatever its door (checkout page, provider webhook, staff), is
applied by `confirmar` inside one transaction holding the purchase's row lock. Its id is kept
(confirmacoes_pagamento), so the same confirmation arriving again, late or concurrently is
recognised and changes nothing; the state moves only from pendente, by a conditional update, and
the credit is written in the same transaction: credits enter the ledger once, an expired or
refused purchase is never credited, a paid one is never undone."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

from tortoise.exceptions import IntegrityError

from graphql_api.core import relogio
from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.ids import encontrar, new_id, pode_existir
from graphql_api.core.pagination import PageRequest, paginate
from graphql_api.core.principal import Ambiente, Principal
from graphql_api.core.tenancy import tenant_filter
from graphql_api.core.transactions import transaction
from graphql_api.core.validation import validate
from graphql_api.creditos import service as creditos
from graphql_api.equipe.models import AcaoEquipe
from graphql_api.integracao import contrato
from graphql_api.recarga import provedores, repository
from graphql_api.recarga.models import ConfirmacaoPagamento, Pacote, Recarga
from graphql_api.recarga.schemas import ConfirmacaoDaEquipe, FiltroRecargas, NovaRecarga

if TYPE_CHECKING:
    from graphql_api.core.recursos import Configuracao

# Who confirmed (ConfirmacaoPagamento.origem).
CHECKOUT, WEBHOOK, EQUIPE = "checkout", "webhook", "equipe"
# What the command line records as the staff member behind its confirmations.
MEMBRO_CLI = "cli"


async def listar_pacotes() -> list[Pacote]:
    return await repository.pacotes_a_venda()


async def criar_recarga(principal: Principal, dados: dict, settings: Configuracao) -> Recarga:
    nova = validate(NovaRecarga, dados)
    pacote = await repository.pacote_a_venda(nova.pacote)
    if pacote is None:
        codigos = ", ".join(p.codigo for p in await repository.pacotes_a_venda())
        raise ApiError(
            "VALIDATION_FAILED",
            fields=[
                FieldError(
                    "pacote",
                    "valor_invalido",
                    f"Pacote desconhecido ou fora de venda. À venda (GET /v1/pacotes): {codigos}.",
                )
            ],
        )
    if principal.ambiente is Ambiente.PRODUCAO:
        # Real money: the same conditions as a live key (production released, contract accepted).
        await contrato.exigir_condicoes_de_chave_live(principal.integrador_exigido)
    agora = relogio.agora()
    return await Recarga.create(
        id=new_id("rec_"),
        integrador_id=principal.integrador_exigido,
        ambiente=principal.ambiente.value,
        pacote=pacote,
        creditos=pacote.creditos,
        preco_centavos=pacote.preco_centavos,
        provedor=provedores.para(principal.ambiente.value, settings).nome,
        expira_em=agora + timedelta(minutes=settings.recarga_validade_minutos),
    )


def link_pagamento(recarga: Recarga, settings: Configuracao) -> str:
    return provedores.do_nome(recarga.provedor, settings).link_pagamento(recarga.id)


async def listar_recargas(
    principal: Principal, page: PageRequest, *, situacao: str | None = None
) -> tuple[list[Recarga], str | None]:
    filtros = validate(FiltroRecargas, {"situacao": situacao})
    await repository.expirar_vencidas(relogio.agora(), **tenant_filter(principal))  # lazily, before reading
    query = repository.visiveis(principal)
    if filtros.situacao is not None:
        query = query.filter(situacao=filtros.situacao)
    return await paginate(query, page, escopo=repository.visiveis(principal))


async def _atualizada(recarga: Recarga) -> Recarga:
    """The purchase as it stands now: a pendente one past its deadline is expired first."""
    agora = relogio.agora()
    if recarga.situacao == "pendente" and recarga.expira_em <= agora:
        await repository.expirar_vencidas(agora, id=recarga.id)
        await recarga.refresh_from_db()
    return recarga


async def obter_recarga(principal: Principal, recarga_id: str) -> Recarga:
    recarga = await encontrar(
        recarga_id, "rec_", lambda: repository.visivel(principal, recarga_id), f"Recarga {recarga_id} não encontrada."
    )
    return await _atualizada(recarga)


async def obter_no_checkout(principal: Principal, recarga_id: str) -> Recarga:
    """The checkout page's purchase: any of the person's integrator, in either environment."""
    recarga = await encontrar(
        recarga_id,
        "rec_",
        lambda: repository.do_integrador(principal.integrador_exigido, recarga_id),
        f"Recarga {recarga_id} não encontrada.",
    )
    return await _atualizada(recarga)


async def expirar_vencidas() -> int:
    """The periodic sweep: every pendente purchase past its deadline becomes expirada."""
    return await repository.expirar_vencidas(relogio.agora())


# -- confirmations --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Desfecho:
    """What a confirmation did to its purchase."""

    recarga: Recarga
    aplicada: bool  # this confirmation moved the purchase out of pendente
    repetida: bool  # this confirmation (its id) had arrived before
    conflito: bool  # it contradicts how the purchase ended (paid after expiry, refused after payment)

    def exigir_coerente(self) -> Recarga:
        """The purchase, or 409 PURCHASE_CLOSED when the confirmation contradicts its end."""
        if self.conflito:
            raise ApiError(
                "PURCHASE_CLOSED",
                description=f"A recarga {self.recarga.id} está {self.recarga.situacao}; nada foi alterado nem creditado.",
            )
        return self.recarga


def _contradiz(recarga: Recarga, resultado: str) -> bool:
    # A refusal of an expired purchase agrees with it: neither one moves money.
    return recarga.situacao != resultado and not (resultado == "recusada" and recarga.situacao == "expirada")


async def confirmar(
    recarga_id: str,
    resultado: str,
    *,
    origem: str,
    confirmacao_id: str | None = None,
    referencia: str | None = None,
    integrador_id: str | None = None,
) -> Desfecho:
    """Apply a payment confirmation exactly once (see the module's docstring). `confirmacao_id`:
    the confirmation's own id (a provider's webhook-id); a new one when the door has none.
    `integrador_id`: the purchase must be this integrator's (the checkout page)."""
    assert resultado in ("paga", "recusada")
    confirmacao_id = confirmacao_id or new_id("cfp_")
    async with transaction():
        recarga = await repository.travada(recarga_id) if pode_existir(recarga_id, "rec_") else None
        if recarga is None or (integrador_id is not None and recarga.integrador_id != integrador_id):
            raise ApiError("NOT_FOUND", description=f"Recarga {recarga_id} não encontrada.")
        anterior = await repository.confirmacao(confirmacao_id)
        if anterior is not None:
            if (anterior.recarga_id, anterior.resultado) != (recarga_id, resultado):
                raise ApiError(
                    "PAYMENT_CONFIRMATION_REUSED",
                    description=f"A confirmação {confirmacao_id} chegou antes para a recarga {anterior.recarga_id} "
                    f"com resultado {anterior.resultado}.",
                )
            return Desfecho(recarga, aplicada=False, repetida=True, conflito=_contradiz(recarga, resultado))
        agora = relogio.agora()
        if recarga.situacao == "pendente" and recarga.expira_em <= agora:
            await repository.expirar_vencidas(agora, id=recarga.id)  # late: it expired before this arrived
            await recarga.refresh_from_db()
        try:
            await ConfirmacaoPagamento.create(
                id=confirmacao_id, recarga=recarga, resultado=resultado, origem=origem, recebida_em=agora
            )
        except IntegrityError:  # the same id, for another purchase, committed meanwhile
            raise ApiError(
                "PAYMENT_CONFIRMATION_REUSED",
                description=f"A confirmação {confirmacao_id} chegou antes para outra recarga.",
            ) from None
        if recarga.situacao != "pendente":
            return Desfecho(recarga, aplicada=False, repetida=False, conflito=_contradiz(recarga, resultado))
        referencia_campo = {"referencia_provedor": referencia} if referencia else {}
        # Under the row lock it is still pendente; the WHERE says so again, whatever the back end.
        if not await repository.encerrar_se_pendente(recarga.id, resultado, agora, **referencia_campo):
            raise RuntimeError(f"{recarga.id} changed under its row lock")
        if resultado == "paga":
            pacote = await Pacote.get(codigo=recarga.pacote_id)
            quantos = f"{recarga.creditos:,}".replace(",", ".")
            await creditos.creditar_pacote(
                recarga.integrador_id,
                recarga.ambiente,
                recarga.creditos,
                recarga.id,
                f"Compra do {pacote.nome}: {quantos} créditos (recarga {recarga.id}).",
            )
        await recarga.refresh_from_db()
    return Desfecho(recarga, aplicada=True, repetida=False, conflito=False)


async def resolver_no_checkout(principal: Principal, recarga_id: str, *, pagar: bool) -> Recarga:
    """A person's answer on the checkout page. Paying there is play money: test purchases only;
    refusing (giving up a charge) works in both environments."""
    recarga = await obter_no_checkout(principal, recarga_id)
    if pagar and recarga.ambiente != Ambiente.TESTE.value:
        raise ApiError(
            "PAYMENT_NOT_ALLOWED",
            description="Recargas de produção são pagas pelo meio indicado no checkout e confirmadas pelo "
            "provedor de pagamento ou pela equipe.",
        )
    desfecho = await confirmar(
        recarga_id,
        "paga" if pagar else "recusada",
        origem=CHECKOUT,
        integrador_id=principal.integrador_exigido,
    )
    return desfecho.exigir_coerente()


async def confirmar_pela_equipe(
    membro_id: str, recarga_id: str, *, recusar: bool = False, referencia: str | None = None
) -> Recarga:
    """Staff confirm an offline payment (PIX, bank slip) or refuse the purchase; recorded with
    who did it and the payment's reference."""
    resultado = "recusada" if recusar else "paga"
    referencia = validate(ConfirmacaoDaEquipe, {"referencia": referencia}).referencia
    async with transaction():  # the staff action is recorded with the change, or not at all
        desfecho = await confirmar(recarga_id, resultado, origem=EQUIPE, referencia=referencia)
        if desfecho.aplicada:
            await AcaoEquipe.create(
                membro_id=membro_id, acao=f"recarga_{resultado}", alvo=recarga_id, motivo=referencia
            )
    return desfecho.exigir_coerente()


async def receber_do_provedor(corpo: bytes, cabecalhos, settings: Configuracao) -> Desfecho:
    """A provider's signed confirmation (POST /pagamentos/confirmacao): verified, then applied
    exactly once under its webhook-id. Test purchases are play money: no provider confirms them."""
    recebida = provedores.verificar(corpo, cabecalhos, settings.pagamento_segredo, relogio.agora())
    recarga = await Recarga.get_or_none(id=recebida.recarga_id) if pode_existir(recebida.recarga_id, "rec_") else None
    if recarga is None:
        raise ApiError("NOT_FOUND", description=f"Recarga {recebida.recarga_id} não encontrada.")
    if recarga.ambiente == Ambiente.TESTE.value:
        raise ApiError(
            "PAYMENT_NOT_ALLOWED",
            description=f"A recarga {recarga.id} é de teste: paga-se no checkout do portal, com dinheiro de brincadeira.",
        )
    return await confirmar(
        recarga.id, recebida.resultado, origem=WEBHOOK, confirmacao_id=recebida.id, referencia=recebida.referencia
    )
