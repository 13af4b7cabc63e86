"""Header text made storable: bytes that were not UTF-8 become U+FFFD, the rest is kept."""

import orjson
import pytest

from graphql_api.core.texto import texto_de_cabecalho


@pytest.mark.parametrize(
    "bytes_recebidos, esperado",
    [
        (b"sk_test_abc", "sk_test_abc"),
        ("Navegador ção".encode(), "Navegador ção"),
        (b"chave-\xff\xfe", "chave-\ufffd\ufffd"),
        (b"meio \xed\xa0\x80 fim", "meio \ufffd\ufffd\ufffd fim"),
    ],
)
def test_a_header_as_the_parser_hands_it_over_becomes_storable_text(bytes_recebidos, esperado):
    # the HTTP parser decodes header bytes with surrogateescape
    valor = bytes_recebidos.decode("utf-8", "surrogateescape")
    texto = texto_de_cabecalho(valor)
    assert texto == esperado
    assert orjson.loads(orjson.dumps(texto)) == texto


def test_a_lone_surrogate_the_parser_did_not_make_is_replaced_too():
    assert texto_de_cabecalho("a\ud800b") == "a\ufffd\ufffd\ufffdb"
