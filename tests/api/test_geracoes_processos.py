"""Renders run in worker processes: one that dies mid-render fails its generation, and the next
generation is rendered by a new worker."""

import os
import signal
from datetime import datetime, timezone

import pytest

from graphql_api.geracao import render
from graphql_api.geracao import service as geracoes
from graphql_api.geracao.models import Geracao
from tests.factories import auth
from tests.fichas import RICA, fotos


def _die(*args) -> None:
    """Stands in for a renderer killed by the system (out of memory): its process ends at once.
    Were it run in the test's own process, the test run would end here."""
    os.kill(os.getpid(), signal.SIGKILL)


@pytest.fixture
async def aprovado(factory, integrator, photo_site):
    conta = await factory.conta(integrator)
    produto = await factory.produto(integrator, conta, **RICA, imagens=fotos(photo_site, 1, 2, 3, 4, 5, 6))
    return await factory.conferido(integrator, produto)


async def _again(geracao_id: str) -> None:
    """Back in the queue with no task message: only the call below renders it."""
    await Geracao.filter(id=geracao_id).update(
        situacao="na_fila", etapa="na_fila", reservada_ate=None, tentativas=0, resultados={}, erro=None,
        concluida_em=None, enfileirada_em=datetime.now(timezone.utc),
    )


async def test_a_render_process_that_dies_fails_its_generation_and_the_next_one_renders(
    client, factory, integrator, aprovado, monkeypatch
):
    criada = await factory.pedir(integrator.key, "/v1/galerias", {"produtoId": aprovado["id"], "quantidadeImagens": 3})
    assert (await factory.terminada(integrator.key, criada["id"]))["situacao"] == "concluida"
    runtime = factory.runtime

    await _again(criada["id"])
    monkeypatch.setattr(render, "render_gallery", _die)
    assert await geracoes.renderizar(criada["id"], runtime) == "falhou"
    falhou = (await (await client.get(f"/v1/geracoes/{criada['id']}", headers=auth(integrator.key))).json())["data"]
    assert falhou["situacao"] == "falhou" and falhou["erro"]["codigo"] == "ERRO_INTERNO"

    await _again(criada["id"])
    monkeypatch.undo()
    assert await geracoes.renderizar(criada["id"], runtime) == "concluida"
    pronta = (await (await client.get(f"/v1/geracoes/{criada['id']}", headers=auth(integrator.key))).json())["data"]
    assert [i["posicao"] for i in pronta["resultados"]["imagens"]] == [1, 2, 3]
