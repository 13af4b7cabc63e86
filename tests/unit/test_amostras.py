"""Each sample event has the shape the domain really emits: the same keys, nested the same way,
as the builders of the real events make them."""

from graphql_api.conferencia.models import Conferencia
from graphql_api.conferencia.service import _evento as evento_produto
from graphql_api.evento.amostras import AMOSTRAS, CONTA_AMOSTRA, SEM_CONTA, conta_da_amostra
from graphql_api.evento.catalog import EVENT_TYPES
from graphql_api.geracao.models import Geracao
from graphql_api.geracao.service import _event_data as evento_geracao
from graphql_api.produto.models import Produto


def keys(value):
    """The keys of a value, recursively (lists by their first item): its shape without values."""
    if isinstance(value, dict):
        return {k: keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [keys(value[0])] if value else []
    return None


def test_every_event_type_has_a_sample_and_no_other():
    assert set(AMOSTRAS) == set(EVENT_TYPES)
    assert set(EVENT_TYPES) >= SEM_CONTA


def test_samples_are_new_each_time():
    assert AMOSTRAS["geracao.concluida"]()["id"] != AMOSTRAS["geracao.concluida"]()["id"]


def test_generation_samples_have_the_real_events_shape():
    geracao = Geracao(id="ger_x", tipo="galeria", situacao="concluida", produto_id="prd_x", creditos_reservados=3)
    real = evento_geracao(geracao)
    for tipo in ("geracao.concluida", "geracao.falhou"):
        assert keys(AMOSTRAS[tipo]()) == keys(real), tipo
    assert AMOSTRAS["geracao.falhou"]()["situacao"] == "falhou"


def test_the_product_sample_has_the_real_events_shape():
    produto = Produto(id="prd_x", conta_id="cta_x", codigo="SKU", situacao="aprovado", versao=1)
    conferencia = Conferencia(id="cnf_x", versao_produto=1, situacao="concluida", resultados=[])
    real = evento_produto(produto, conferencia)
    amostra = AMOSTRAS["produto.conferido"]()
    assert keys({**amostra, "conferencia": {**amostra["conferencia"], "resultados": []}}) == keys(real)
    # each result has the keys the check's rules produce (graphql_api/conferencia/regras.py)
    for item in amostra["conferencia"]["resultados"]:
        assert set(item) == {
            "tipo",
            "aprovado",
            "quantidadeMaximaImagens",
            "quantidadesAprovadas",
            "notaVideo",
            "pendencias",
        }


def test_wallet_samples_name_no_account_and_account_samples_do():
    assert conta_da_amostra("creditos.baixos") is None and conta_da_amostra("cota.alerta") is None
    assert conta_da_amostra("produto.conferido") == CONTA_AMOSTRA
    assert AMOSTRAS["creditos.baixos"]()["ambiente"] == "teste"
    assert {"limiar", "percentualUsado", "cicloInicioEm", "cicloFimEm"} <= set(AMOSTRAS["cota.alerta"]())
