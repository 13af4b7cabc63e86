"""Verifying the notices (webhooks) the service delivers. The service signs with the Standard
Webhooks scheme (headers webhook-id, webhook-timestamp, webhook-signature; X-Vitrine-Signature
carries the same value), so the check is the `standardwebhooks` library's: HMAC-SHA256 compared
in constant time, timestamp within 5 minutes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from standardwebhooks import Webhook, WebhookVerificationError

from vitrine_client.erros import AvisoInvalido


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
        # besides WebhookVerificationError, a malformed signature header or secret surfaces as a
        # ValueError (binascii.Error): it is no notice of ours either
        except (WebhookVerificationError, ValueError) as erro:
            motivo = str(erro) or type(erro).__name__
    raise AvisoInvalido(f"Aviso recusado: {motivo}.")
