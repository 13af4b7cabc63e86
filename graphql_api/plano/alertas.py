"""Credit and quota alerts (docs/creditos.md, "Alertas"): the events `creditos.baixos` and
`cota.alerta`, and the e-mail alerts about the quota and about packages bought cycle after cycle.

Events are registered inside the transaction of the movement that causes them (so they exist
if and only if it committed). E-mail alerts need the service's SMTP settings, which the domain
does not hold: the movement queues the task `creditos.alertar` after commit, and the task opens
or closes the alerts from the wallet's state (`avaliar`, idempotent: a repeated or late task
changes nothing). A cycle's turn and an upgrade close the alerts that no longer hold."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from graphql_api.core.scalars import format_timestamp
from graphql_api.core.tarefas import enfileirar
from graphql_api.core.transactions import after_commit
from graphql_api.creditos.models import Carteira, Lancamento
from graphql_api.evento import service as eventos
from graphql_api.evento.payloads import DadosCotaAlerta, DadosCreditosBaixos
from graphql_api.integracao import alertas
from graphql_api.plano import ciclo, repository
from graphql_api.plano.models import Assinatura, Plano

# creditos.baixos: available credits below 10 % of the cycle's quota, never below this floor
# (a plan without a quota, the play credits of teste).
PISO_CREDITOS_BAIXOS = 50
FRACAO_CREDITOS_BAIXOS = 10  # percent of the quota

TIPO_PACOTE = "pacote_recorrente"
TIPOS_COTA = tuple(f"cota_{limiar}" for limiar in ciclo.LIMIARES)
TAREFA = "creditos.alertar"


def limite_creditos_baixos(cota: int) -> int:
    return max(PISO_CREDITOS_BAIXOS, cota * FRACAO_CREDITOS_BAIXOS // 100)


def _reais(centavos: int) -> str:
    inteiro, resto = divmod(centavos, 100)
    return f"R$ {inteiro:,}".replace(",", ".") + f",{resto:02d}"


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


# -- packages bought cycle after cycle ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Comparacao:
    """Two consecutive cycles with a package bought in each, against the plans of the catalogue."""

    plano_atual: Plano
    anterior: tuple[datetime, datetime]
    atual: tuple[datetime, datetime]
    pago_centavos: int  # 2 × the current plan's price + every package paid in both cycles
    pacotes: list  # the paid purchases (recargas) of both cycles, oldest first
    uso_maximo: int  # the larger of the two cycles' spending (credits captured)
    sugerido: Plano | None  # the cheapest plan covering uso_maximo each month, when it costs less
    custo_sugerido_centavos: int


async def _usados(carteira_id: int, inicio: datetime, fim: datetime) -> int:
    capturas = await Lancamento.filter(
        carteira_id=carteira_id, tipo="captura", criado_em__gte=inicio, criado_em__lt=fim
    ).values_list("reservados", flat=True)
    return -sum(int(c) for c in capturas)  # type: ignore[call-overload]  # flat: the column's values


async def comparar(carteira: Carteira, assinatura: Assinatura) -> Comparacao | None:
    """None unless a package was paid in this cycle and in the one before it."""
    from graphql_api.recarga.models import Recarga  # recargas build on the plans: imported where used

    inicio, fim = assinatura.ciclo_inicio_em, assinatura.ciclo_fim_em
    anterior = ciclo.ciclo_em(assinatura.criado_em, inicio - timedelta(seconds=1))
    if anterior[0] >= inicio:  # the first cycle has no previous one
        return None
    pagas = await Recarga.filter(
        integrador_id=carteira.integrador_id,
        ambiente=carteira.ambiente,
        situacao="paga",
        paga_em__gte=anterior[0],
        paga_em__lt=fim,
    ).order_by("paga_em")
    quando = [r.paga_em for r in pagas if r.paga_em is not None]  # paid ones always have it
    if not any(q < inicio for q in quando) or not any(q >= inicio for q in quando):
        return None
    plano: Plano = assinatura.plano
    pago = 2 * plano.preco_centavos + sum(r.preco_centavos for r in pagas)
    uso_maximo = max(await _usados(carteira.id, *anterior), await _usados(carteira.id, inicio, fim))
    cobrem = [p for p in await repository.vigentes() if p.creditos_mensais >= uso_maximo and p.codigo != plano.codigo]
    melhor = min(cobrem, key=lambda p: (p.preco_centavos, -p.creditos_mensais), default=None)
    sugerido = melhor if melhor is not None and 2 * melhor.preco_centavos < pago else None
    return Comparacao(
        plano_atual=plano,
        anterior=anterior,
        atual=(inicio, fim),
        pago_centavos=pago,
        pacotes=list(pagas),
        uso_maximo=uso_maximo,
        sugerido=sugerido,
        custo_sugerido_centavos=2 * sugerido.preco_centavos if sugerido else 0,
    )


async def pacote_pago(integrador_id: str, ambiente: str) -> None:
    """A package was just paid (inside the purchase's transaction): the e-mail alert is judged."""
    await _queue(integrador_id, ambiente)


# -- the e-mail alerts ------------------------------------------------------------------------------


def _periodo(intervalo: tuple[datetime, datetime]) -> str:
    return f"{intervalo[0]:%d/%m/%Y} a {intervalo[1]:%d/%m/%Y}"


async def avaliar(integrador_id: str, ambiente: str, *, smtp_url: str | None, docs_url: str = "") -> None:
    """Open the alerts the wallet's state calls for (e-mailed at most once per kind every 6 h),
    close the ones it no longer does. Idempotent; the task `creditos.alertar` runs it, inside a transaction."""
    from graphql_api.creditos import service as creditos  # creditos builds on this module

    # locked: serialised with the movements and plan changes that open and close these alerts
    carteira, assinatura = await creditos.carteira_travada(integrador_id, ambiente)
    chave = format_timestamp(assinatura.ciclo_inicio_em)  # one alert of a kind per cycle
    passados = [limiar for limiar in ciclo.LIMIARES if limiar in assinatura.alertas_cota]
    manter: list[tuple[str, str]] = []
    if passados and assinatura.cota_ciclo > 0:
        limiar = passados[-1]
        manter.append((f"cota_{limiar}", chave))
        await _abrir_cota(carteira, assinatura, limiar, chave, smtp_url=smtp_url, docs_url=docs_url)
    comparacao = await comparar(carteira, assinatura)
    if comparacao is not None:
        manter.append((TIPO_PACOTE, chave))
        await _abrir_pacote(carteira, comparacao, chave, smtp_url=smtp_url, docs_url=docs_url)
    await alertas.fechar_exceto(integrador_id, ambiente, (*TIPOS_COTA, TIPO_PACOTE), manter)


async def fechar_superados(integrador_id: str, ambiente: str, assinatura: Assinatura) -> None:
    """At a cycle's turn or an upgrade (inside its transaction): quota alerts of thresholds no
    longer passed, and the package alert (its comparison was about the plan and cycles before),
    close at once."""
    chave = format_timestamp(assinatura.ciclo_inicio_em)
    manter = [(f"cota_{limiar}", chave) for limiar in assinatura.alertas_cota]
    await alertas.fechar_exceto(integrador_id, ambiente, (*TIPOS_COTA, TIPO_PACOTE), manter)


async def _abrir_cota(
    carteira: Carteira, assinatura: Assinatura, limiar: int, chave: str, *, smtp_url: str | None, docs_url: str
) -> None:
    usados, restantes = ciclo.uso(assinatura, carteira)
    ambiente = carteira.ambiente
    mensagem = (
        f"A cota do mês chegou a {limiar}%: {usados} de {assinatura.cota_ciclo} créditos do plano usados no ciclo "
        f"de {_periodo((assinatura.ciclo_inicio_em, assinatura.ciclo_fim_em))}."
    )
    depois = (
        "Os créditos do plano acabaram: as gerações agora usam os créditos de pacote"
        f" ({carteira.creditos_pacote} disponíveis) e, sem eles, respondem 402 INSUFFICIENT_CREDITS."
        if limiar >= 100
        else f"Restam {restantes} créditos do plano e {carteira.creditos_pacote} de pacote."
    )
    texto = (
        f"{mensagem}\n\n{depois}\n\n"
        "Para não parar: compre um pacote avulso (portal, página Créditos, ou POST /v1/recargas) ou mude para "
        "um plano maior (a diferença de créditos entra na hora).\n\n"
        f"Ambiente: {ambiente}\nO ciclo termina em {format_timestamp(assinatura.ciclo_fim_em)}.\n"
        f"Documentação: {docs_url}/creditos\n"
    )
    await alertas.abrir(
        carteira.integrador_id,
        ambiente,
        f"cota_{limiar}",
        chave,
        mensagem,
        evidencia={"limiar": limiar, "cotaMensal": assinatura.cota_ciclo, "creditosUsados": usados},
        smtp_url=smtp_url,
        assunto_email=f"Vitrine: {limiar}% da cota do mês usados ({ambiente})",
        texto_email=texto,
    )


async def _abrir_pacote(
    carteira: Carteira, comparacao: Comparacao, chave: str, *, smtp_url: str | None, docs_url: str
) -> None:
    atual = comparacao.plano_atual
    sugerido = comparacao.sugerido
    if sugerido is not None:
        conclusao = (
            f"O plano {sugerido.nome} ({sugerido.creditos_mensais} créditos por mês, {_reais(sugerido.preco_centavos)} "
            f"por mês) teria custado {_reais(comparacao.custo_sugerido_centavos)} nos dois ciclos, "
            f"{_reais(comparacao.pago_centavos - comparacao.custo_sugerido_centavos)} a menos."
        )
    else:
        conclusao = (
            "Nenhum plano do catálogo teria custado menos para esse uso: o plano atual com pacotes é o mais barato."
        )
    mensagem = f"Pacotes avulsos comprados em dois ciclos seguidos. {conclusao}"
    linhas = "\n".join(
        f"- {format_timestamp(r.paga_em)}: {r.pacote_id}, {r.creditos} créditos, {_reais(r.preco_centavos)}"
        for r in comparacao.pacotes
    )
    texto = (
        f"Houve compra de pacote avulso nos ciclos de {_periodo(comparacao.anterior)} e de "
        f"{_periodo(comparacao.atual)} (ambiente {carteira.ambiente}):\n{linhas}\n\n"
        f"Com o plano {atual.nome} ({_reais(atual.preco_centavos)} por mês), os dois ciclos somam "
        f"{_reais(comparacao.pago_centavos)}; o maior uso num ciclo foi de {comparacao.uso_maximo} créditos.\n\n"
        f"{conclusao}\n\nMudar de plano: portal, página Créditos. Documentação: {docs_url}/creditos\n"
    )
    evidencia: dict = {
        "planoAtual": atual.codigo,
        "pagoCentavos": comparacao.pago_centavos,
        "usoMaximo": comparacao.uso_maximo,
        "recargas": [r.id for r in comparacao.pacotes],
    }
    if sugerido is not None:
        evidencia |= {"planoSugerido": sugerido.codigo, "custoSugeridoCentavos": comparacao.custo_sugerido_centavos}
    await alertas.abrir(
        carteira.integrador_id,
        carteira.ambiente,
        TIPO_PACOTE,
        chave,
        mensagem,
        evidencia=evidencia,
        smtp_url=smtp_url,
        assunto_email=f"Vitrine: pacotes comprados em dois ciclos seguidos ({carteira.ambiente})",
        texto_email=texto,
    )
