"""Verifying the notices (webhooks) the service delivers. The service signs with the Standard
Webhooks scheme (headers webhook-id, webhook-timestamp, webhook-signature; X-Vitrine-Signature
carries the same value), so the check is the `standardwebhooks` library's: HMAC-SHA256 compared
in constant time, timestamp within 5 minutes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from standardwebhooks import Webhook, WebhookVerificationError

from vitrine_client.erros import AvisoInvalido

# The library's reasons, as the receiver's logs should read them.
_MOTIVOS = {
    "Missing required headers": "faltam os cabeçalhos webhook-id, webhook-timestamp ou webhook-signature",
    "Message timestamp too old": "horário (webhook-timestamp) de mais de 5 minutos atrás",
    "Message timestamp too new": "horário (webhook-timestamp) mais de 5 minutos no futuro",
    "Invalid Signature Headers": "webhook-timestamp não é um número de segundos",
    "No matching signature found": "a assinatura não confere com o segredo",
}


def verificar_aviso(corpo: bytes | str, cabecalhos: Mapping[str, str], segredo: str | Iterable[str]) -> dict[str, Any]:
    """The notice's event (the JSON body) when its signature is valid for `segredo` (the whsec_
    secret shown when the address was registered; a list of them while a rotation's grace
    period lasts). Raises AvisoInvalido otherwise. `corpo` must be the raw body, as received."""
    normalizados = {k.lower(): v for k, v in cabecalhos.items()}
    if "webhook-signature" not in normalizados and "x-vitrine-signature" in normalizados:
        normalizados["webhook-signature"] = normalizados["x-vitrine-signature"]
    segredos = [segredo] if isinstance(segredo, str) else list(segredo)
    motivo = "nenhum segredo informado"
    for um in segredos:
        try:
            return Webhook(um).verify(corpo, normalizados)
        except WebhookVerificationError as erro:
            motivo = _MOTIVOS.get(str(erro), str(erro))
        # a malformed signature header or secret surfaces as a ValueError (binascii.Error)
        except ValueError:
            motivo = "assinatura ou segredo malformado"
    raise AvisoInvalido(f"Aviso recusado: {motivo}.")
