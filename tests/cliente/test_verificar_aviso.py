"""verificar_aviso against notices signed by the service's own signer
(graphql_api/aviso/assinatura.py): valid, tampered, expired, rotated, malformed."""

import json
from datetime import UTC, datetime, timedelta

import pytest
from pydantic import ValidationError

from graphql_api.aviso.assinatura import cabecalhos, novo_segredo
from graphql_api.evento.amostras import exemplo
from vitrine_client import AvisoInvalido, verificar_aviso
from vitrine_client.modelos import EventoGeracaoConcluida, EventoGeracaoFalhou

EVENTO = exemplo("geracao.concluida")  # a body as the service sends it
CORPO = json.dumps(EVENTO, separators=(",", ":"))


def assinado(*chaves: bytes, ha: timedelta = timedelta(0), corpo: str = CORPO) -> tuple[bytes, dict[str, str]]:
    """A delivery as the service sends it: the raw body and its headers."""
    return corpo.encode(), cabecalhos(list(chaves), "msg_01", datetime.now(UTC) - ha, corpo)


def test_a_valid_notice_gives_its_event():
    segredo, chave = novo_segredo()
    corpo, headers = assinado(chave)
    assert verificar_aviso(corpo, headers, segredo) == EVENTO


def test_the_event_reads_into_the_generated_model_of_its_type():
    segredo, chave = novo_segredo()
    evento = verificar_aviso(*assinado(chave), segredo)
    concluida = EventoGeracaoConcluida.model_validate(evento)
    assert concluida.data.id == EVENTO["data"]["id"] and concluida.data.creditosCobrados == 5
    with pytest.raises(ValidationError):  # another type's body is not this type's event
        EventoGeracaoFalhou.model_validate(evento)


def test_a_tampered_body_or_another_secret_is_refused():
    segredo, chave = novo_segredo()
    corpo, headers = assinado(chave)
    with pytest.raises(AvisoInvalido):
        verificar_aviso(corpo.replace(b"ger_0", b"ger_1"), headers, segredo)
    with pytest.raises(AvisoInvalido, match="não confere"):
        verificar_aviso(corpo, headers, novo_segredo()[0])
    with pytest.raises(AvisoInvalido):
        verificar_aviso(corpo, headers | {"webhook-id": "msg_02"}, segredo)  # the id is signed too


def test_a_notice_older_than_five_minutes_is_refused():
    segredo, chave = novo_segredo()
    with pytest.raises(AvisoInvalido, match="5 minutos atrás"):
        verificar_aviso(*assinado(chave, ha=timedelta(minutes=10)), segredo)
    assert verificar_aviso(*assinado(chave, ha=timedelta(minutes=4)), segredo) == EVENTO
    with pytest.raises(AvisoInvalido, match="no futuro"):
        verificar_aviso(*assinado(chave, ha=-timedelta(minutes=10)), segredo)


def test_during_a_rotation_either_secret_verifies():
    antigo, chave_antiga = novo_segredo()
    novo, chave_nova = novo_segredo()
    corpo, headers = assinado(chave_nova, chave_antiga)  # both signatures, space-separated
    assert verificar_aviso(corpo, headers, novo) == EVENTO
    assert verificar_aviso(corpo, headers, antigo) == EVENTO
    corpo, headers = assinado(chave_nova)
    assert verificar_aviso(corpo, headers, [antigo, novo]) == EVENTO  # a receiver holding both


def test_headers_in_any_case_and_the_service_named_header_alone():
    segredo, chave = novo_segredo()
    corpo, headers = assinado(chave)
    so_vitrine = {k.upper(): v for k, v in headers.items() if k != "webhook-signature"}
    assert verificar_aviso(corpo, so_vitrine, segredo) == EVENTO


@pytest.mark.parametrize("assinatura", ["lixo", "v1,@@@", ""])
def test_a_malformed_or_missing_signature_is_refused_not_crashed(assinatura):
    segredo, chave = novo_segredo()
    corpo, headers = assinado(chave)
    headers = headers | {"webhook-signature": assinatura, "X-Vitrine-Signature": assinatura}
    with pytest.raises(AvisoInvalido):
        verificar_aviso(corpo, headers, segredo)
