"""Renders run in worker processes: one that dies mid-render fails its generation, and the next
generation is rendered by a new worker."""

import logging
import os
import signal
from datetime import UTC, datetime

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
        situacao="na_fila",
        etapa="na_fila",
        reservada_ate=None,
        tentativas=0,
        resultados={},
        erro=None,
        concluida_em=None,
        enfileirada_em=datetime.now(UTC),
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


@pytest.mark.parametrize("momento", ["local_file", "publish"], ids=["lendo-as-fotos", "depois-de-renderizar"])
async def test_a_generation_whose_test_data_was_cleared_mid_render_ends_quietly(
    client, factory, integrator, aprovado, monkeypatch, caplog, momento
):
    # given a test generation queued again (rendered once, so its photos are on hand)
    from graphql_api.core import dados_de_teste

    criada = await factory.pedir(integrator.key, "/v1/galerias", {"produtoId": aprovado["id"], "quantidadeImagens": 3})
    await factory.terminada(integrator.key, criada["id"])
    runtime = factory.runtime
    await _again(criada["id"])
    # when "Limpar dados de teste" deletes the test data while a worker renders it: as it reads
    # the photos, or once the render is done
    real = getattr(runtime.storage, momento)
    cleared = []

    async def clear_then(*args, **kwargs):
        if not cleared:
            cleared.append(await dados_de_teste.apagar(integrator.id))
        return await real(*args, **kwargs)

    monkeypatch.setattr(runtime.storage, momento, clear_then)
    caplog.set_level(logging.INFO)
    # then the worker drops it: nothing to settle, nothing to retry, and no error in the log
    assert await geracoes.renderizar(criada["id"], runtime) is None
    assert cleared and not await Geracao.filter(id=criada["id"]).exists()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info], [
        r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info
    ]
    assert any("deleted" in r.getMessage() and criada["id"] in r.getMessage() for r in caplog.records)
