"""Every text a person reads from a catalogue is whole: no placeholder left unfilled. A path
template such as /contas/{contaId} is content (camelCase, as the contract writes paths); a
snake_case name in braces ({docs_url}) is a placeholder someone forgot to fill."""

import re

import pytest

from graphql_api.conferencia.catalog import MOTIVOS, PENDENCIAS
from graphql_api.core.errors import CATALOG
from graphql_api.integracao.alertas import TIPOS
from graphql_api.integracao.etapas import ETAPAS
from portal.web import FLASH_MESSAGES

PLACEHOLDER = re.compile(r"\{[a-z]+(?:_[a-z]+)+\}|\{\}|\{[0-9]+\}")


def textos():
    for kind in CATALOG.values():
        yield f"erro {kind.type}", (kind.message, kind.causa, kind.correcao)
    for codigo in [*MOTIVOS.values(), *PENDENCIAS.values()]:
        yield f"código {codigo.codigo}", (codigo.titulo, codigo.causa, codigo.correcao)
    for etapa in ETAPAS:
        yield f"etapa {etapa.codigo}", (etapa.titulo, etapa.como_concluir)
    for tipo, texto in TIPOS.items():
        yield f"alerta {tipo}", (str(texto),)
    for codigo, texto in FLASH_MESSAGES.items():
        yield f"mensagem do portal {codigo}", (texto,)


@pytest.mark.parametrize(("nome", "partes"), list(textos()), ids=lambda v: v if isinstance(v, str) else "")
def test_nenhum_texto_de_catalogo_tem_marcador_vazio(nome, partes):
    for parte in partes:
        assert not PLACEHOLDER.search(parte), f"{nome}: {parte}"


def test_o_detector_reconhece_marcadores_e_respeita_caminhos():
    assert PLACEHOLDER.search("na referência ({docs_url}).")
    assert not PLACEHOLDER.search("POST /imagens/{id}/edicoes e /contas/{contaId}/produtos/{codigo}")
