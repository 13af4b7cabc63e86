"""A sample of every event type, built with its payload model (graphql_api/evento/payloads.py):
what `vitrine-cli trigger <tipo>` (POST /avisos/disparos) emits in the test environment, so a
receiver can be built before any real check or generation, and the example of each event in the
OpenAPI document and in docs/avisos.md. tests/unit/test_amostras.py holds each sample against
its real emitter (graphql_api/geracao/service.dados_do_evento,
graphql_api/conferencia/service.dados_do_evento, graphql_api/creditos/alertas.dados_*)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from graphql_api.evento import payloads as p
from graphql_api.evento.catalog import TEST_EVENT

# Sample identifiers: well-formed, but of nothing that exists (a GET on them answers 404).
CONTA = "cta_0000000000000000000amostra"
PRODUTO = "prd_0000000000000000000amostra"
GERACAO = "ger_0000000000000000000amostra"
CONFERENCIA = "cnf_0000000000000000000amostra"
APP = "app_0000000000000000000amostra"
TESTE = "tst_0000000000000000000amostra"
EVENTO = "evt_0000000000000000000amostra"  # the examples' event id (a sample sent gets a real one)
MOMENTO = datetime(2026, 11, 23, 18, 17, 24, 512000, tzinfo=UTC)  # the examples' criadoEm


@dataclass(frozen=True, slots=True)
class Amostra:
    conta_id: str | None  # the account the event is about; None for the integrator's own events
    dados: p.DadosEvento


def _resultados() -> list[p.ResultadoConferido]:
    return [
        p.ResultadoConferido(
            tipo="galeria",
            aprovado=True,
            quantidadeMaximaImagens=7,
            quantidadesAprovadas=[3, 5, 7],
            notaVideo=None,
            pendencias=[],
        ),
        p.ResultadoConferido(
            tipo="video_apresentacao",
            aprovado=True,
            quantidadeMaximaImagens=None,
            quantidadesAprovadas=None,
            notaVideo=82,
            pendencias=[],
        ),
        p.ResultadoConferido(
            tipo="video_cinepremium",
            aprovado=False,
            quantidadeMaximaImagens=None,
            quantidadesAprovadas=None,
            notaVideo=40,
            pendencias=[
                p.PendenciaConferida(codigo="CINEPREMIUM_FOTOS_INSUFICIENTES", severidade="bloqueio", campo="imagens")
            ],
        ),
    ]


# Events a notice address can subscribe to (EVENT_TYPES), each with its sample.
AMOSTRAS: dict[str, Amostra] = {
    "produto.conferido": Amostra(
        CONTA,
        p.DadosProdutoConferido(
            produto=p.ProdutoConferido(
                id=PRODUTO, contaId=CONTA, codigo="SKU-AMOSTRA-1", situacao="aprovado", versao=1
            ),
            conferencia=p.ConferenciaConferida(
                id=CONFERENCIA, produtoId=PRODUTO, versaoProduto=1, situacao="concluida", resultados=_resultados()
            ),
        ),
    ),
    "geracao.concluida": Amostra(
        CONTA,
        p.DadosGeracaoConcluida(
            id=GERACAO,
            tipo="galeria",
            situacao="concluida",
            produtoId=PRODUTO,
            creditosReservados=5,
            creditosCobrados=5,
            falhas=[],
            motivo=None,
        ),
    ),
    "geracao.falhou": Amostra(
        CONTA,
        p.DadosGeracaoFalhou(
            id=GERACAO,
            tipo="galeria",
            situacao="falhou",
            produtoId=PRODUTO,
            creditosReservados=5,
            creditosCobrados=0,
            falhas=[],
            motivo="Nenhuma saída pôde ser gerada (evento de amostra).",
        ),
    ),
    "creditos.baixos": Amostra(
        None,
        p.DadosCreditosBaixos(
            ambiente="teste",
            creditosDisponiveis=40,
            creditosPlano=0,
            creditosPacote=40,
            creditosReservados=20,
            limite=50,
            cotaMensal=0,
        ),
    ),
    "cota.alerta": Amostra(
        None,
        p.DadosCotaAlerta(
            ambiente="teste",
            limiar=70,
            percentualUsado=70,
            cotaMensal=500,
            creditosUsados=350,
            creditosRestantes=150,
            creditosPacote=0,
            cicloInicioEm=datetime(2026, 11, 1, tzinfo=UTC),
            cicloFimEm=datetime(2026, 12, 1, tzinfo=UTC),
        ),
    ),
    "conta.desvinculada": Amostra(
        CONTA,
        p.DadosContaDesvinculada(
            contaId=CONTA,
            clientId=APP,
            motivo=p.MotivoDesvinculacao.VENDEDOR_REVOGOU,
            desvinculadaEm=MOMENTO,
        ),
    ),
}

# The test delivery's event: not selectable, not emitted by `trigger`; the examples show it.
AMOSTRA_TESTE = Amostra(None, p.DadosAvisoTeste(testeId=TESTE))


def amostra(tipo: str) -> Amostra:
    """A fresh copy of the sample of `tipo` (callers may change it)."""
    found = AMOSTRA_TESTE if tipo == TEST_EVENT else AMOSTRAS[tipo]
    return Amostra(found.conta_id, found.dados.model_copy(deep=True))


def exemplo(tipo: str) -> dict[str, Any]:
    """The body of a delivery of the sample of `tipo`, as the docs and the OpenAPI document show it."""
    found = amostra(tipo)
    return p.corpo(EVENTO, tipo, MOMENTO, found.conta_id, found.dados)
