"""The composition root's wiring of the domains to one another (docs/desenvolvimento.md,
"Camadas"): a lower domain publishes a signal or calls a port (graphql_api/core/sinais.py), and
here the higher domain that reacts or answers is connected. Every process that runs domain code
calls `ligar()` once at start-up (Runtime.build, the CLI, the test harness); calling it again
changes nothing."""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable
from typing import Any

from graphql_api.aviso import entregas, escutas, testes
from graphql_api.aviso import repository as avisos
from graphql_api.chamada import repository as chamadas
from graphql_api.chave import service as chaves
from graphql_api.conferencia import repository as conferencias
from graphql_api.conta import repository as contas
from graphql_api.core import alertas, dados_de_teste
from graphql_api.creditos import avaliacao
from graphql_api.evento import repository as eventos_repository
from graphql_api.evento import service as eventos
from graphql_api.geracao import repository as geracoes_repository
from graphql_api.idempotencia import service as idempotencia
from graphql_api.imagem import repository as imagens
from graphql_api.integracao import alertas as integracao_alertas
from graphql_api.integracao import contrato
from graphql_api.integracao import service as integracao
from graphql_api.produto import repository as produtos
from graphql_api.produto import service as produto
from graphql_api.recarga import repository as recargas


def _ao_usar(modulo: str, nome: str) -> Callable[..., Awaitable[Any]]:
    """A receiver whose module loads OpenCV and NumPy (the checks' and the generations'
    services), imported on its first call: a CLI command that never saves a product or clears
    test data starts without them. The web process and the workers import them anyway."""

    async def receber(*args: Any) -> Any:
        return await getattr(importlib.import_module(modulo), nome)(*args)

    receber.__qualname__ = f"{modulo}.{nome}"
    return receber


# Made once, so that wiring again finds the same receivers connected.
TARDIOS = {
    "conferir_versao_nova": _ao_usar("graphql_api.conferencia.service", "conferir_versao_nova"),
    "cancelar_conferencias": _ao_usar("graphql_api.conferencia.service", "cancelar"),
    "liberar_reservas_de_teste": _ao_usar("graphql_api.geracao.service", "liberar_reservas_de_teste"),
}


def ligar() -> None:
    # Each event, in its transaction: the notices' outbox first, then the integration steps.
    eventos.registrado.ligar(entregas.enfileirar_entregas)
    eventos.registrado.ligar(escutas.enfileirar_entregas)
    eventos.registrado.ligar(integracao.registrar_evento)
    testes.rodada_concluida.ligar(integracao.registrar_rodada_de_avisos)
    chaves.bloqueio_producao.instalar(contrato.bloqueio_de_chave_live)
    produto.versao_nova.ligar(TARDIOS["conferir_versao_nova"])
    produto.excluido.ligar(TARDIOS["cancelar_conferencias"])
    # Alerts are the integration status's (graphql_api/integracao/alertas.py); avisos and créditos
    # open and close them.
    alertas.abrir.instalar(integracao_alertas.abrir)
    alertas.fechar.instalar(integracao_alertas.fechar)
    alertas.fechar_exceto.instalar(integracao_alertas.fechar_exceto)
    avaliacao.pacotes_pagos.instalar(recargas.pagas_entre)
    # Clearing the test environment: rows that point at others go before the rows they point at.
    dados_de_teste.instalar(
        [
            TARDIOS["liberar_reservas_de_teste"],  # reservations back to the wallet while the rows exist
            avisos.apagar_dados_de_teste,  # attempts, then deliveries (they point at events)
            eventos_repository.apagar_dados_de_teste,
            imagens.apagar_dados_de_teste,  # images point at generations and products
            geracoes_repository.apagar_dados_de_teste,
            conferencias.apagar_dados_de_teste,  # checks, then photos (of products)
            produtos.apagar_dados_de_teste,  # versions, then products (of accounts)
            contas.apagar_dados_de_teste,
            idempotencia.apagar_dados_de_teste,
            chamadas.apagar_dados_de_teste,
        ]
    )
