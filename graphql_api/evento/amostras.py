"""A sample of each event type, with the shape the real event has (`data` of the notice body),
for "Enviar evento de teste": an integrator sees and handles each event before it happens.
tests/unit/test_amostras.py compares every sample with what the domain really emits."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from graphql_api.core.ids import new_id
from graphql_api.core.relogio import agora
from graphql_api.core.scalars import format_timestamp

# The account a sample of an account's event names (wallet events name none).
CONTA_AMOSTRA = "cta_amostra0000000000000000000"


def _produto_conferido() -> dict[str, Any]:
    produto_id = new_id("prd_")
    return {
        "produto": {
            "id": produto_id,
            "contaId": CONTA_AMOSTRA,
            "codigo": "SKU-AMOSTRA-1",
            "situacao": "aprovado",
            "versao": 1,
        },
        "conferencia": {
            "id": new_id("cnf_"),
            "produtoId": produto_id,
            "versaoProduto": 1,
            "situacao": "concluida",
            "resultados": [
                {
                    "tipo": "galeria",
                    "aprovado": True,
                    "quantidadeMaximaImagens": 6,
                    "quantidadesAprovadas": [3, 6],
                    "notaVideo": None,
                    "pendencias": [],
                },
                {
                    "tipo": "video_apresentacao",
                    "aprovado": True,
                    "quantidadeMaximaImagens": None,
                    "quantidadesAprovadas": None,
                    "notaVideo": 80,
                    "pendencias": [],
                },
                {
                    "tipo": "video_cinepremium",
                    "aprovado": False,
                    "quantidadeMaximaImagens": None,
                    "quantidadesAprovadas": None,
                    "notaVideo": 40,
                    "pendencias": [
                        {"codigo": "CINEPREMIUM_FOTOS_INSUFICIENTES", "severidade": "bloqueio", "campo": "imagens"}
                    ],
                },
            ],
        },
    }


def _geracao(situacao: str) -> Callable[[], dict[str, Any]]:
    def build() -> dict[str, Any]:
        concluida = situacao == "concluida"
        return {
            "id": new_id("ger_"),
            "tipo": "galeria",
            "situacao": situacao,
            "produtoId": new_id("prd_"),
            "creditosReservados": 3,
            "creditosCobrados": 3 if concluida else 0,
            "falhas": [],
            "motivo": None if concluida else "A renderização falhou; os créditos reservados foram devolvidos.",
        }

    return build


def _creditos_baixos() -> dict[str, Any]:
    return {
        "ambiente": "teste",
        "creditosDisponiveis": 40,
        "creditosPlano": 0,
        "creditosPacote": 40,
        "creditosReservados": 20,
        "limite": 50,
        "cotaMensal": 0,
    }


def _cota_alerta() -> dict[str, Any]:
    inicio = agora().replace(microsecond=0)
    return {
        "ambiente": "teste",
        "limiar": 70,
        "percentualUsado": 70,
        "cotaMensal": 500,
        "creditosUsados": 350,
        "creditosRestantes": 150,
        "creditosPacote": 0,
        "cicloInicioEm": format_timestamp(inicio),
        "cicloFimEm": format_timestamp(inicio + timedelta(days=30)),
    }


# event type -> builder of the sample's `data` (a new one per call: fresh ids)
AMOSTRAS: dict[str, Callable[[], dict[str, Any]]] = {
    "produto.conferido": _produto_conferido,
    "geracao.concluida": _geracao("concluida"),
    "geracao.falhou": _geracao("falhou"),
    "creditos.baixos": _creditos_baixos,
    "cota.alerta": _cota_alerta,
}

# Events of the integrator's wallet: of no account (contaId null), as the real ones.
SEM_CONTA = frozenset({"creditos.baixos", "cota.alerta"})


def conta_da_amostra(tipo: str) -> str | None:
    return None if tipo in SEM_CONTA else CONTA_AMOSTRA
