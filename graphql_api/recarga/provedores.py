"""Payment providers: who shows the integrator how to pay a purchase (the payment link) and who
may say it was paid. Two implementations of one small protocol:

- `CheckoutDoPortal`: the portal's checkout page (/checkout/<rec_id>). The only provider of test
  purchases, paid with play money (buttons "Pagar" and "Recusar"), and the default of production,
  where the page shows the charge and how to pay it; an offline payment (PIX, bank slip) is then
  confirmed by the staff, or by a provider adapter through the webhook below.
- `ProvedorExterno`: a real provider (PIX, card) behind a thin adapter. The payment link is the
  adapter's page (VITRINE_PAGAMENTO_LINK with {recargaId}); the adapter confirms each payment
  with a signed message to POST /pagamentos/confirmacao (`verificar` reads it).

A confirmation from any of them goes through the same exactly-once rule (service.confirmar)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, ClassVar, Protocol

from graphql_api.core.errors import ApiError
from graphql_api.core.json_body import parse_object
from graphql_api.core.principal import Ambiente
from graphql_api.core.validation import validate
from graphql_api.recarga.schemas import ConfirmacaoDoProvedor

if TYPE_CHECKING:
    from graphql_api.core.recursos import Configuracao

# A confirmation signed further than this from the service's clock is refused (replays).
TOLERANCIA = timedelta(minutes=5)
# The webhook-id is the confirmation's id (the primary key of confirmacoes_pagamento).
WEBHOOK_ID = re.compile(r"^[A-Za-z0-9_\-:.]{1,120}$")


class ProvedorPagamento(Protocol):
    nome: ClassVar[str]  # kept in Recarga.provedor

    def link_pagamento(self, recarga_id: str) -> str:
        """Where the integrator's people pay this purchase."""
        ...


@dataclass(frozen=True, slots=True)
class CheckoutDoPortal:
    base_url: str
    nome: ClassVar[str] = "checkout"

    def link_pagamento(self, recarga_id: str) -> str:
        return f"{self.base_url}/checkout/{recarga_id}"


@dataclass(frozen=True, slots=True)
class ProvedorExterno:
    modelo_link: str  # https://…{recargaId}…
    nome: ClassVar[str] = "webhook"

    def link_pagamento(self, recarga_id: str) -> str:
        return self.modelo_link.replace("{recargaId}", recarga_id)


def do_nome(nome: str, settings: Configuracao) -> ProvedorPagamento:
    if nome == ProvedorExterno.nome and settings.pagamento_link:
        return ProvedorExterno(settings.pagamento_link)
    return CheckoutDoPortal(settings.base_url)


def para(ambiente: str, settings: Configuracao) -> ProvedorPagamento:
    """The provider of a new purchase: play money only ever goes through the checkout page."""
    if ambiente == Ambiente.TESTE.value:
        return CheckoutDoPortal(settings.base_url)
    return do_nome(settings.pagamento_provedor, settings)


@dataclass(frozen=True, slots=True)
class ConfirmacaoRecebida:
    id: str  # the webhook-id
    recarga_id: str
    resultado: str
    referencia: str | None


def _recusada(descricao: str) -> ApiError:
    return ApiError("PAYMENT_SIGNATURE_INVALID", description=descricao)


def _chave(segredo: str) -> bytes:
    return base64.b64decode(segredo.removeprefix("whsec_"))


def _assinatura(chave: bytes, msg_id: str, timestamp: str, corpo: bytes) -> bytes:
    """The Standard Webhooks signature: HMAC-SHA256 of "<id>.<timestamp>.<raw body>"."""
    return base64.b64encode(hmac.new(chave, f"{msg_id}.{timestamp}.".encode() + corpo, hashlib.sha256).digest())


def verificar(corpo: bytes, cabecalhos: Mapping[str, str], segredo: str | None, agora: datetime) -> ConfirmacaoRecebida:
    """A provider's confirmation, read only if its signature and time check out (Standard
    Webhooks: headers webhook-id, webhook-timestamp, webhook-signature, compared in constant time
    over the raw bytes). Refusals: 401 PAYMENT_SIGNATURE_INVALID, 400 PAYMENT_TIMESTAMP_INVALID,
    then the body's own (400 INVALID_JSON, 422 VALIDATION_FAILED: graphql_api/core/json_body.py)."""
    if not segredo:
        raise _recusada("O serviço não tem VITRINE_PAGAMENTO_SEGREDO configurado: não aceita confirmações de fora.")
    msg_id = cabecalhos.get("webhook-id", "")
    timestamp = cabecalhos.get("webhook-timestamp", "")
    assinaturas = cabecalhos.get("webhook-signature", "")
    if not msg_id or not assinaturas:
        raise _recusada("Faltam os cabeçalhos webhook-id e webhook-signature.")
    if not (timestamp.isascii() and timestamp.isdigit() and len(timestamp) <= 12):
        raise ApiError(
            "PAYMENT_TIMESTAMP_INVALID", description="webhook-timestamp deve ser um inteiro de segundos Unix."
        )
    # Compared as numbers: a datetime of a timestamp centuries away is out of its range.
    distancia = abs(int(timestamp) - agora.timestamp())
    if distancia > TOLERANCIA.total_seconds():
        raise ApiError(
            "PAYMENT_TIMESTAMP_INVALID",
            description=f"webhook-timestamp está a {int(distancia)} segundos do relógio do serviço; "
            f"o máximo é {int(TOLERANCIA.total_seconds())}.",
        )
    esperada = _assinatura(_chave(segredo), msg_id, timestamp, corpo)
    enviadas = [item.partition(",") for item in assinaturas.split()]
    if not any(
        versao == "v1" and hmac.compare_digest(valor.encode(), esperada)
        for versao, _, valor in enviadas
        if valor.isascii()
    ):
        raise _recusada("Nenhuma assinatura v1 de webhook-signature confere com o segredo configurado.")
    if not WEBHOOK_ID.fullmatch(msg_id):
        raise ApiError("BAD_REQUEST", description="webhook-id: de 1 a 120 caracteres entre letras, dígitos, _ - : .")
    confirmacao = validate(ConfirmacaoDoProvedor, parse_object(corpo))
    return ConfirmacaoRecebida(msg_id, confirmacao.recargaId, confirmacao.resultado, confirmacao.referencia)
