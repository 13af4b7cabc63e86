"""Credit and quota alerts (docs/creditos.md, "Alertas"): the events `creditos.baixos` and
`cota.alerta`, and the e-mail alerts about the quota and about packages bought cycle after cycle.

Events are registered inside the transaction of the movement that causes them (so they exist
if and only if it committed). E-mail alerts need the service's SMTP settings, which the domain
does not hold: the movement queues the task `creditos.alertar` after commit, and the task opens
or closes the alerts from the wallet's state (graphql_api/creditos/avaliacao.py). A
cycle's turn and an upgrade close the alerts that no longer hold."""

from __future__ import annotations

from graphql_api.core import alertas
from graphql_api.core.scalars import format_timestamp
from graphql_api.core.tarefas import enfileirar
from graphql_api.core.transactions import after_commit
from graphql_api.creditos import ciclo, repository
from graphql_api.creditos.models import Assinatura, Carteira
from graphql_api.evento import service as eventos
from graphql_api.evento.payloads import DadosCotaAlerta, DadosCreditosBaixos

# creditos.baixos: available credits below 10 % of the cycle's quota, never below this floor
# (a plan without a quota, the play credits of teste).
PISO_CREDITOS_BAIXOS = 50
FRACAO_CREDITOS_BAIXOS = 10  # percent of the quota

TIPO_PACOTE = "pacote_recorrente"
TIPOS_COTA = tuple(f"cota_{limiar}" for limiar in ciclo.LIMIARES)
TAREFA = "creditos.alertar"


def limite_creditos_baixos(cota: int) -> int:
    return max(PISO_CREDITOS_BAIXOS, cota * FRACAO_CREDITOS_BAIXOS // 100)


async def _evento(tipo: str, carteira: Carteira, dados: DadosCreditosBaixos | DadosCotaAlerta) -> None:
    """A wallet's event: the integrator's, of no account."""
    await eventos.registrar(
        tipo, integrador_id=carteira.integrador_id, ambiente=carteira.ambiente, conta_id=None, dados=dados
    )


def dados_creditos_baixos(carteira: Carteira, limite: int, cota: int) -> DadosCreditosBaixos:
    """The payload of `creditos.baixos` (its payload starts with the environment, like every
    wallet event); pure, so the sample of graphql_api/evento/amostras.py is checked against it."""
    return DadosCreditosBaixos.model_validate(
        {
            "ambiente": carteira.ambiente,
            "creditosDisponiveis": carteira.creditos_disponiveis,
            "creditosPlano": carteira.creditos_plano,
            "creditosPacote": carteira.creditos_pacote,
            "creditosReservados": carteira.creditos_reservados,
            "limite": limite,
            "cotaMensal": cota,
        }
    )


def dados_cota_alerta(assinatura: Assinatura, carteira: Carteira, limiar: int) -> DadosCotaAlerta:
    """The payload of one `cota.alerta` (pure, as dados_creditos_baixos)."""
    usados, restantes = ciclo.uso(assinatura, carteira)
    return DadosCotaAlerta.model_validate(
        {
            "ambiente": carteira.ambiente,
            "limiar": limiar,
            "percentualUsado": ciclo.percentual(assinatura, carteira),
            "cotaMensal": assinatura.cota_ciclo,
            "creditosUsados": usados,
            "creditosRestantes": restantes,
            "creditosPacote": carteira.creditos_pacote,
            "cicloInicioEm": assinatura.ciclo_inicio_em,
            "cicloFimEm": assinatura.ciclo_fim_em,
        }
    )


async def _queue(integrador_id: str, ambiente: str) -> None:
    await after_commit(lambda: enfileirar(TAREFA, integrador_id, ambiente))


# -- creditos.baixos -------------------------------------------------------------------------------


async def vigiar_saldo(carteira: Carteira, assinatura: Assinatura | None = None) -> None:
    """After a movement (wallet locked, inside its transaction): below the threshold for the first
    time since it was last above it, `creditos.baixos`; above it again, re-armed."""
    if assinatura is None:
        assinatura = await repository.assinatura_de(carteira.integrador_id, carteira.ambiente)
    cota = assinatura.cota_ciclo if assinatura is not None else 0
    limite = limite_creditos_baixos(cota)
    baixo = carteira.creditos_disponiveis < limite
    if baixo == carteira.creditos_baixos:
        return
    carteira.creditos_baixos = baixo
    await carteira.save(update_fields=["creditos_baixos", "atualizado_em"])
    if baixo:
        await _evento("creditos.baixos", carteira, dados_creditos_baixos(carteira, limite, cota))


# -- cota.alerta ------------------------------------------------------------------------------------


async def limiares_passados(assinatura: Assinatura, carteira: Carteira, novos: list[int]) -> None:
    """One `cota.alerta` per threshold newly passed this cycle (ciclo.marcar_limiares says which),
    and the e-mail alert queued."""
    if not novos:
        return
    for limiar in novos:
        await _evento("cota.alerta", carteira, dados_cota_alerta(assinatura, carteira, limiar))
    await _queue(carteira.integrador_id, carteira.ambiente)


async def pacote_pago(integrador_id: str, ambiente: str) -> None:
    """A package was just paid (inside the purchase's transaction): the e-mail alert is judged."""
    await _queue(integrador_id, ambiente)


async def fechar_superados(integrador_id: str, ambiente: str, assinatura: Assinatura) -> None:
    """At a cycle's turn or an upgrade (inside its transaction): quota alerts of thresholds no
    longer passed, and the package alert (its comparison was about the plan and cycles before),
    close at once."""
    chave = format_timestamp(assinatura.ciclo_inicio_em)
    manter = [(f"cota_{limiar}", chave) for limiar in assinatura.alertas_cota]
    await alertas.fechar_exceto(integrador_id, ambiente, (*TIPOS_COTA, TIPO_PACOTE), manter)
