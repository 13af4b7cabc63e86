"""The notice payload models (graphql_api/evento/payloads.py): their enumerations are the domains'
own lists, `registrar` takes only the type's model, and a delivery body is the envelope's dump."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import get_args

import pytest
from pydantic import ValidationError

from graphql_api.conferencia import catalog as conferencia_catalog
from graphql_api.core.principal import Ambiente
from graphql_api.creditos.ciclo import LIMIARES
from graphql_api.creditos.precos import PRECOS
from graphql_api.evento import payloads, service
from graphql_api.evento.amostras import AMOSTRAS, amostra
from graphql_api.evento.catalog import EVENT_TYPES, TEST_EVENT
from graphql_api.geracao.repository import CONCLUIDA, FALHOU, PARCIAL
from graphql_api.produto.models import APROVADO, REPROVADO


def test_every_event_type_and_the_test_event_have_a_model():
    assert list(payloads.DADOS) == [*EVENT_TYPES, TEST_EVENT]
    assert all(tipo == modelo.TIPO for tipo, modelo in payloads.DADOS.items())


def test_the_enumerations_are_the_domains_own_lists():
    assert set(get_args(payloads.TipoGeracao)) == set(PRECOS)
    assert set(get_args(payloads.TipoMidia)) == {"galeria", *(r.tipo for r in conferencia_catalog.VIDEOS)}
    assert set(get_args(payloads.Severidade)) == {conferencia_catalog.BLOQUEIO, conferencia_catalog.FRACO}
    assert get_args(payloads.Limiar) == LIMIARES
    assert set(get_args(payloads.Ambiente)) == {a.value for a in Ambiente}
    situacao = payloads.DadosGeracaoConcluida.model_fields["situacao"].annotation
    assert set(get_args(situacao)) == {CONCLUIDA, PARCIAL}
    assert get_args(payloads.DadosGeracaoFalhou.model_fields["situacao"].annotation) == (FALHOU,)
    assert set(get_args(payloads.ProdutoConferido.model_fields["situacao"].annotation)) == {APROVADO, REPROVADO}


def test_conta_desvinculada_has_exactly_the_four_reasons():
    assert [m.value for m in payloads.MotivoDesvinculacao] == [
        "vendedor_revogou",
        "integrador_revogou",
        "app_desativado",
        "credencial_reutilizada",
    ]
    assert set(payloads.MOTIVOS_DESVINCULACAO) == set(payloads.MotivoDesvinculacao)
    with pytest.raises(ValidationError):
        payloads.DadosContaDesvinculada.model_validate(
            {"contaId": "cta_x", "clientId": "app_x", "motivo": "outro", "desvinculadaEm": datetime.now(UTC)}
        )


def test_a_field_no_model_declares_is_refused():
    dados = AMOSTRAS["creditos.baixos"].dados.model_dump(mode="json")
    with pytest.raises(ValidationError, match="extra"):
        payloads.DadosCreditosBaixos.model_validate(dados | {"novo": 1})


@pytest.mark.parametrize(
    "tipo, dados",
    [
        ("geracao.concluida", {"id": "ger_1"}),  # a dict: only a model goes in
        ("geracao.concluida", AMOSTRAS["geracao.falhou"].dados),  # another type's model
        ("conta.desvinculada", AMOSTRAS["produto.conferido"].dados),
    ],
)
async def test_registrar_takes_only_the_model_of_the_type(tipo, dados):
    with pytest.raises(TypeError, match=payloads.DADOS[tipo].__name__):
        await service.registrar(tipo, integrador_id="int_x", ambiente="teste", conta_id=None, dados=dados)


def test_the_body_is_the_envelope_of_the_type_with_moments_as_the_contract_writes_them():
    criado = datetime(2026, 11, 23, 18, 17, 24, 512_345, tzinfo=UTC)
    exemplo = amostra("cota.alerta")
    body = payloads.corpo("evt_1", "cota.alerta", criado, None, exemplo.dados)
    assert list(body) == ["id", "tipo", "criadoEm", "contaId", "data"]
    assert body["criadoEm"] == "2026-11-23T18:17:24.512Z"
    assert body["data"]["cicloInicioEm"] == "2026-11-01T00:00:00.000Z"
    # the stored form of the data (a JSON dict) gives the same body as the model
    stored = json.loads(json.dumps(exemplo.dados.model_dump(mode="json")))
    assert payloads.corpo("evt_1", "cota.alerta", criado, None, stored) == body
    with pytest.raises(ValidationError):
        payloads.corpo("evt_1", "creditos.baixos", criado, None, exemplo.dados)
