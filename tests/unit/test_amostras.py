"""The sample events of `vitrine-cli trigger` (graphql_api/evento/amostras.py): one per event
type, an instance of that type's payload model (graphql_api/evento/payloads.py) that validates
against the JSON Schema the model publishes, and shaped as its real emitter shapes the event: the
same keys at every level, and values of the same kind wherever both are filled."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from graphql_api.conferencia import catalog as conferencia_catalog
from graphql_api.conferencia import regras
from graphql_api.conferencia.models import Conferencia
from graphql_api.conferencia.service import dados_do_evento as dados_conferencia
from graphql_api.creditos.alertas import dados_cota_alerta, dados_creditos_baixos
from graphql_api.creditos.models import Assinatura, Carteira
from graphql_api.evento.amostras import AMOSTRA_TESTE, AMOSTRAS, amostra, exemplo
from graphql_api.evento.catalog import EVENT_TYPES, TEST_EVENT
from graphql_api.evento.payloads import DADOS, DadosEvento, envelope
from graphql_api.geracao.models import Geracao
from graphql_api.geracao.service import dados_do_evento as dados_geracao
from graphql_api.oauth.repository import Desvinculo
from graphql_api.oauth.revogacao import dados_do_evento as dados_desvinculo
from graphql_api.produto.models import Produto

FATOS = regras.Fatos(
    aprovadas=4,
    aprovadas_hd=2,
    principal_aprovada=True,
    principal_recortavel=True,
    alguma_recortavel=True,
    principal_texto_sobreposto=False,
    principal_ampliacao=1.0,
    descricao=400,
    atributos=5,
    marca=True,
    medidas=True,
    composicao=True,
    garantia=True,
    prova_social=False,
    perguntas=0,
)


def _real(tipo: str) -> DadosEvento:
    """The payload the real emitter of `tipo` builds, from rows as the service holds them."""
    if tipo == "produto.conferido":
        produto = Produto(id="prd_x", conta_id="cta_x", codigo="SKU-1", situacao="aprovado", versao=2)
        resultados = [regras.galeria(FATOS), *(regras.video(FATOS, r) for r in conferencia_catalog.VIDEOS)]
        conferencia = Conferencia(id="cnf_x", versao_produto=2, situacao="concluida", resultados=resultados)
        return dados_conferencia(produto, conferencia)
    if tipo in ("geracao.concluida", "geracao.falhou"):
        erro = {"codigo": "ERRO_INTERNO", "mensagem": "Falhou.", "falhas": [{"saida": "imagem_2", "erro": "x"}]}
        geracao = Geracao(
            id="ger_x",
            tipo="galeria",
            situacao=tipo.split(".")[1],
            produto_id="prd_x",
            creditos_reservados=5,
            creditos_cobrados=0 if tipo == "geracao.falhou" else 5,
            erro=erro if tipo == "geracao.falhou" else None,
        )
        return dados_geracao(geracao)
    carteira = Carteira(
        ambiente="teste", creditos_disponiveis=40, creditos_plano=10, creditos_pacote=30, creditos_reservados=5
    )
    if tipo == "creditos.baixos":
        return dados_creditos_baixos(carteira, 50, 0)
    if tipo == "cota.alerta":
        inicio = datetime(2026, 11, 1, tzinfo=UTC)
        assinatura = Assinatura(ambiente="teste", cota_ciclo=500, ciclo_inicio_em=inicio, ciclo_fim_em=inicio)
        return dados_cota_alerta(assinatura, carteira, 90)
    if tipo == "conta.desvinculada":
        desvinculo = Desvinculo(conta_id="cta_x", app_id="app_x", integrador_id="itg_x", ambiente="teste")
        return dados_desvinculo(desvinculo, "renovacao_reutilizada", datetime(2026, 11, 2, tzinfo=UTC))
    raise AssertionError(f"no real emitter known for {tipo}: add it here")


def _kind(value: Any) -> str:
    return "number" if isinstance(value, (int, float)) and not isinstance(value, bool) else type(value).__name__


def assert_same_shape(sample: Any, real: Any, path: str = "data") -> None:
    if sample is None or real is None:  # a nullable field: either side may be empty
        return
    assert _kind(sample) == _kind(real), f"{path}: {_kind(sample)} in the sample, {_kind(real)} in the event"
    if isinstance(real, dict):
        assert sorted(sample) == sorted(real), (
            f"{path}: keys {sorted(sample)} in the sample, {sorted(real)} in the event"
        )
        for key in real:
            assert_same_shape(sample[key], real[key], f"{path}.{key}")
    elif isinstance(real, list) and sample and real:
        for item in sample:
            assert_same_shape(item, real[0], f"{path}[]")


def test_every_event_type_has_a_sample():
    assert sorted(AMOSTRAS) == sorted(EVENT_TYPES)


@pytest.mark.parametrize("tipo", list(EVENT_TYPES))
def test_each_sample_has_the_shape_of_its_real_event(tipo):
    assert_same_shape(AMOSTRAS[tipo].dados.model_dump(mode="json"), _real(tipo).model_dump(mode="json"))


@pytest.mark.parametrize("tipo", [*EVENT_TYPES, TEST_EVENT])
def test_each_sample_is_its_models_and_its_body_validates_against_the_published_schema(tipo):
    # the model of the type (registrar refuses any other), and the body a delivery of it carries
    # passes the JSON Schema of the event's envelope, as rest_v1/openapi.py publishes it
    assert type(amostra(tipo).dados) is DADOS[tipo]
    schema = envelope(tipo).model_json_schema(mode="serialization")
    Draft202012Validator(schema).validate(exemplo(tipo))
    errors = list(Draft202012Validator(schema).iter_errors(exemplo(tipo) | {"tipo": "outro.tipo"}))
    assert errors, "a body of another type must not pass this type's schema"


def test_every_emitter_builds_its_types_model():
    # registrar takes exactly DADOS[tipo]: geracao's emitter picks concluida or falhou by situacao
    assert {tipo: type(_real(tipo)) for tipo in EVENT_TYPES} == {tipo: DADOS[tipo] for tipo in EVENT_TYPES}


def test_the_shape_check_catches_a_missing_or_changed_field():
    real = _real("geracao.concluida").model_dump(mode="json")
    with pytest.raises(AssertionError, match="keys"):
        assert_same_shape({k: v for k, v in real.items() if k != "produtoId"}, real)
    with pytest.raises(AssertionError, match="creditosCobrados"):
        assert_same_shape(real | {"creditosCobrados": "5"}, real)


def test_account_events_carry_an_account_and_wallet_events_none():
    assert {t for t, a in AMOSTRAS.items() if a.conta_id is None} == {"creditos.baixos", "cota.alerta"}
    assert AMOSTRA_TESTE.conta_id is None
    copia = amostra("geracao.concluida")
    copia.dados.id = "outro"
    assert AMOSTRAS["geracao.concluida"].dados.id != "outro"
