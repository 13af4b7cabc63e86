"""The credit e-mail alerts (docs/creditos.md, "Alertas"): the quota passed and packages bought
cycle after cycle, judged from the wallet's state by the task `creditos.alertar` that a movement
queues (graphql_api/creditos/alertas.py). Idempotent: a repeated or late task changes
nothing."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from graphql_api.core import alertas
from graphql_api.core.scalars import format_timestamp
from graphql_api.core.sinais import porta
from graphql_api.creditos import alertas as eventos_de_saldo
from graphql_api.creditos import ciclo, repository
from graphql_api.creditos import service as creditos
from graphql_api.creditos.models import Assinatura, Carteira, Lancamento, Plano


@porta("creditos.pacotes_pagos")
async def pacotes_pagos(integrador_id: str, ambiente: str, desde: datetime, ate: datetime) -> list[Any]:
    """The packages paid in [desde, ate), oldest first (graphql_api/recarga/repository.py, which
    builds on this domain: installed by the composition root)."""
    raise NotImplementedError


def _reais(centavos: int) -> str:
    inteiro, resto = divmod(centavos, 100)
    return f"R$ {inteiro:,}".replace(",", ".") + f",{resto:02d}"


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
    inicio, fim = assinatura.ciclo_inicio_em, assinatura.ciclo_fim_em
    anterior = ciclo.ciclo_em(assinatura.criado_em, inicio - timedelta(seconds=1))
    if anterior[0] >= inicio:  # the first cycle has no previous one
        return None
    pagas = await pacotes_pagos(carteira.integrador_id, carteira.ambiente, anterior[0], fim)
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


# -- the e-mail alerts ------------------------------------------------------------------------------


def _periodo(intervalo: tuple[datetime, datetime]) -> str:
    return f"{intervalo[0]:%d/%m/%Y} a {intervalo[1]:%d/%m/%Y}"


async def avaliar(integrador_id: str, ambiente: str, *, smtp_url: str | None, docs_url: str = "") -> None:
    """Open the alerts the wallet's state calls for (e-mailed at most once per kind every 6 h),
    close the ones it no longer does. Idempotent; the task `creditos.alertar` runs it, inside a transaction."""
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
        manter.append((eventos_de_saldo.TIPO_PACOTE, chave))
        await _abrir_pacote(carteira, comparacao, chave, smtp_url=smtp_url, docs_url=docs_url)
    await alertas.fechar_exceto(
        integrador_id, ambiente, (*eventos_de_saldo.TIPOS_COTA, eventos_de_saldo.TIPO_PACOTE), manter
    )


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
        alertas.NovoAlerta(
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
        alertas.NovoAlerta(
            carteira.integrador_id,
            carteira.ambiente,
            eventos_de_saldo.TIPO_PACOTE,
            chave,
            mensagem,
            evidencia=evidencia,
            smtp_url=smtp_url,
            assunto_email=f"Vitrine: pacotes comprados em dois ciclos seguidos ({carteira.ambiente})",
            texto_email=texto,
        )
    )
