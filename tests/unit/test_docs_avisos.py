"""docs/avisos.md's payload section is what vitrine/docs_avisos.py makes of the notice models and
samples, and its examples are bodies the published schemas accept."""

from __future__ import annotations

import difflib
import json
import re

import pytest
from jsonschema import Draft202012Validator

from graphql_api.evento.catalog import EVENT_TYPES, TEST_EVENT
from graphql_api.evento.payloads import DADOS, envelope
from vitrine import docs_avisos
from vitrine.templating import render_markdown


def _secao_guardada() -> str:
    texto = docs_avisos.GUIA.read_text()
    return texto.split(docs_avisos.INICIO, 1)[1].split(docs_avisos.FIM, 1)[0]


def test_the_committed_section_is_the_one_the_models_give():
    guardado = docs_avisos.GUIA.read_text()
    gerado = docs_avisos.substituir(guardado)
    diferenca = "".join(difflib.unified_diff(guardado.splitlines(True), gerado.splitlines(True), "guardado", "gerado"))
    assert gerado == guardado, (
        "docs/avisos.md está desatualizado em relação aos modelos dos avisos; rode "
        "`.venv/bin/python -m vitrine.docs_avisos`.\n" + diferenca[:4000]
    )


def test_a_hand_edit_or_a_model_change_is_caught():
    guardado = docs_avisos.GUIA.read_text()
    editado = guardado.replace("| `creditosCobrados` | inteiro |", "| `creditosCobrados` | string |", 1)
    assert editado != guardado and docs_avisos.substituir(editado) == guardado
    with pytest.raises(ValueError, match="payloads:inicio"):
        docs_avisos.substituir(guardado.replace(docs_avisos.INICIO, ""))


@pytest.mark.parametrize("tipo", [*EVENT_TYPES, TEST_EVENT])
def test_each_event_has_its_table_and_an_example_its_schema_accepts(tipo):
    secao = _secao_guardada()
    trecho = secao.split(f"### `{tipo}`\n", 1)[1].split("\n### ", 1)[0]
    campos = re.findall(r"^\| `([^`]+)` \|", trecho, flags=re.MULTILINE)
    assert set(DADOS[tipo].model_fields) <= set(campos)
    (bloco,) = re.findall(r"```json\n(.*?)\n```", trecho, flags=re.DOTALL)
    exemplo = json.loads(bloco)
    Draft202012Validator(envelope(tipo).model_json_schema(mode="serialization")).validate(exemplo)
    assert exemplo["tipo"] == tipo


def test_the_old_hand_written_geracao_example_is_gone():
    exemplo = json.loads(
        re.findall(r"```json\n(.*?)\n```", _secao_guardada().split("### `geracao.concluida`", 1)[1], re.DOTALL)[0]
    )
    assert "geracaoId" not in exemplo["data"]
    assert {"id", "tipo", "situacao", "produtoId", "creditosReservados", "creditosCobrados", "falhas", "motivo"} == set(
        exemplo["data"]
    )


def test_the_markers_do_not_show_on_the_page():
    html = render_markdown(docs_avisos.GUIA.read_text())
    assert "payloads:inicio" not in html and "receptor:inicio" not in html
    assert '<h3 id="contadesvinculada"><code>conta.desvinculada</code></h3>' in html
