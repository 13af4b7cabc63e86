"""A sample of every event type, with the payload shape its real emitter produces: what
`vitrine-cli trigger <tipo>` (POST /avisos/disparos) emits in the test environment, so a receiver
can be built before any real check or generation. tests/unit/test_amostras.py holds each sample
against its emitter (graphql_api/geracao/service.dados_do_evento,
graphql_api/conferencia/service.dados_do_evento, graphql_api/plano/alertas.dados_*)."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

# Sample identifiers: well-formed, but of nothing that exists (a GET on them answers 404).
CONTA = "cta_0000000000000000000amostra"
PRODUTO = "prd_0000000000000000000amostra"
GERACAO = "ger_0000000000000000000amostra"
CONFERENCIA = "cnf_0000000000000000000amostra"


@dataclass(frozen=True, slots=True)
class Amostra:
    conta_id: str | None  # the account the event is about; None for the integrator's own events
    dados: dict[str, Any]


def _resultados() -> list[dict[str, Any]]:
    return [
        {
            "tipo": "galeria",
            "aprovado": True,
            "quantidadeMaximaImagens": 7,
            "quantidadesAprovadas": [3, 5, 7],
            "notaVideo": None,
            "pendencias": [],
        },
        {
            "tipo": "video_apresentacao",
            "aprovado": True,
            "quantidadeMaximaImagens": None,
            "quantidadesAprovadas": None,
            "notaVideo": 82,
            "pendencias": [],
        },
        {
            "tipo": "video_cinepremium",
            "aprovado": False,
            "quantidadeMaximaImagens": None,
            "quantidadesAprovadas": None,
            "notaVideo": 40,
            "pendencias": [{"codigo": "CINEPREMIUM_FOTOS_INSUFICIENTES", "severidade": "bloqueio", "campo": "imagens"}],
        },
    ]


def _geracao(situacao: str, *, cobrados: int, motivo: str | None) -> dict[str, Any]:
    return {
        "id": GERACAO,
        "tipo": "galeria",
        "situacao": situacao,
        "produtoId": PRODUTO,
        "creditosReservados": 5,
        "creditosCobrados": cobrados,
        "falhas": [],
        "motivo": motivo,
    }


AMOSTRAS: dict[str, Amostra] = {
    "produto.conferido": Amostra(
        CONTA,
        {
            "produto": {
                "id": PRODUTO,
                "contaId": CONTA,
                "codigo": "SKU-AMOSTRA-1",
                "situacao": "aprovado",
                "versao": 1,
            },
            "conferencia": {
                "id": CONFERENCIA,
                "produtoId": PRODUTO,
                "versaoProduto": 1,
                "situacao": "concluida",
                "resultados": _resultados(),
            },
        },
    ),
    "geracao.concluida": Amostra(CONTA, _geracao("concluida", cobrados=5, motivo=None)),
    "geracao.falhou": Amostra(
        CONTA, _geracao("falhou", cobrados=0, motivo="Nenhuma saída pôde ser gerada (evento de amostra).")
    ),
    "creditos.baixos": Amostra(
        None,
        {
            "ambiente": "teste",
            "creditosDisponiveis": 40,
            "creditosPlano": 0,
            "creditosPacote": 40,
            "creditosReservados": 20,
            "limite": 50,
            "cotaMensal": 0,
        },
    ),
    "cota.alerta": Amostra(
        None,
        {
            "ambiente": "teste",
            "limiar": 70,
            "percentualUsado": 70,
            "cotaMensal": 500,
            "creditosUsados": 350,
            "creditosRestantes": 150,
            "creditosPacote": 0,
            "cicloInicioEm": "2026-11-01T00:00:00Z",
            "cicloFimEm": "2026-12-01T00:00:00Z",
        },
    ),
    "conta.desvinculada": Amostra(
        CONTA,
        {
            "contaId": CONTA,
            "clientId": "app_0000000000000000000amostra",
            "motivo": "vendedor_revogou",
            "desvinculadaEm": "2026-11-27T12:00:00Z",
        },
    ),
}


def amostra(tipo: str) -> Amostra:
    """A fresh copy of the sample of `tipo` (callers may change it)."""
    found = AMOSTRAS[tipo]
    return Amostra(found.conta_id, copy.deepcopy(found.dados))
