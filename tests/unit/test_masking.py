"""Phone numbers, CPF and CNPJ in logged text: what is masked, and what is left alone because it
is a product code, an order number or another harmless figure."""

import pytest

from graphql_api.chamada.masking import MASK, _cnpj_valid, _cpf_valid, mask_text, mask_value

MASKED = [
    # Brazilian phones, written every usual way
    "11912345678",  # bare mobile: DDD 11, 9 + 8 digits
    "1133334444",  # bare landline: DDD 11, 3 + 7 digits
    "21987654321",
    "(11) 98765-4321",
    "(11)98765-4321",
    "(21) 3333-4444",
    "11 98765-4321",
    "11 9 8765-4321",
    "+55 11 98765-4321",
    "+55 (11) 98765-4321",
    "+5511987654321",
    "5511987654321",  # as messaging APIs write it
    "551133334444",
    # toll-free and shared-cost numbers
    "0800 123 4567",
    "0800-123-4567",
    "08001234567",
    "0300 123 4567",
    "0500 1234 567",
    "0900-123-4567",
    # international (E.164)
    "+1 415 555 2671",
    "+1 (415) 555-2671",
    "+44 20 7946 0958",
    "+14155552671",
    "+351 912 345 678",
    "+376 123456",
    # documents
    "123.456.789-09",
    "52998224725",  # bare, valid CPF
    "11.222.333/0001-81",
    "11222333000181",  # bare, valid CNPJ
]

NOT_MASKED = [
    "7891234567895",  # EAN-13
    "789123456789",  # GTIN-12
    "96385074",  # EAN-8
    "17891234567892",  # GTIN-14, not a valid CNPJ
    "2024000123",  # order number: 20 is no area code
    "10912345678",  # 10 is no area code
    "0123456789",
    "11812345678",  # DDD 11, but 8 starts neither a mobile nor a landline, and no valid CPF
    "12345678901",  # no valid CPF; 3 after the DDD is no mobile of 11 digits
    "PED-2024-000123",
    "R$ 1.234.567,89",
    "2026-11-23T14:00:00Z",
    "95% poliéster + 5% elastano",
    "abc+12345678xyz",  # inside a token, not a number written on its own
    "Tamanho 42, cor 11",
]


@pytest.mark.parametrize("text", MASKED)
def test_masked(text):
    assert mask_text(text) == MASK
    assert mask_text(f"Contato: {text}, das 9h às 18h") == f"Contato: {MASK}, das 9h às 18h"


@pytest.mark.parametrize("text", NOT_MASKED)
def test_not_masked(text):
    assert mask_text(text) == text


def test_the_unmasked_runs_are_what_the_table_says():
    # The table's claims about check digits hold, so the cases above test what they name.
    assert _cpf_valid("52998224725") and _cnpj_valid("11222333000181")
    assert not _cnpj_valid("17891234567892")
    assert not _cpf_valid("11812345678") and not _cpf_valid("12345678901")


def test_several_numbers_in_one_text_keep_the_words_between():
    text = "Loja: (21) 3333-4444 ou +1 (415) 555-2671; SAC 0800 123 4567; EAN 7891234567895"
    assert mask_text(text) == f"Loja: {MASK} ou {MASK}; SAC {MASK}; EAN 7891234567895"


def test_a_ficha_keeps_its_codes_and_loses_its_phones():
    ficha = {
        "gtin": "7891234567895",
        "pedido": "2024000123",
        "descricao": "Fale no 11912345678",
        "contatos": ["+44 20 7946 0958", "SKU-1"],
    }
    assert mask_value(ficha) == {
        "gtin": "7891234567895",
        "pedido": "2024000123",
        "descricao": f"Fale no {MASK}",
        "contatos": [MASK, "SKU-1"],
    }


@pytest.mark.parametrize(
    "credential",
    [
        "sk_test_abcdefghijkl_" + "x" * 40,
        "oat_test_" + "A1b2" * 10,
        "oat_live_" + "Zz9" * 13 + "q",
        "oat_test_" + "x" * 39 + "é",  # not a token this service makes: the general rule
        "oat_test_curto",
        "ort_" + "y" * 40,
    ],
)
def test_the_authorization_fast_paths_mask_as_the_general_rule(credential):
    from graphql_api.chamada.masking import mask_authorization

    masked = mask_text(credential)
    assert mask_authorization(f"Bearer {credential}") == f"Bearer {masked if masked != credential else MASK}"
    assert credential not in mask_authorization(f"Bearer {credential}")
