"""Notice signatures (Standard Webhooks, docs/avisos.md) and the secrets behind them.

A secret is `whsec_` + base64 of 32 random bytes; the key is those bytes. Only the key is kept,
encrypted with Fernet under a key derived (HKDF) from the service's secret key, so a database
dump alone does not let anyone forge notices."""

from __future__ import annotations

import base64
import secrets
from datetime import UTC, datetime
from functools import lru_cache

from cryptography.fernet import Fernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from standardwebhooks import Webhook

PREFIXO = "whsec_"


def novo_segredo() -> tuple[str, bytes]:
    """(the whsec_ secret shown once to the integrator, the key bytes that sign)."""
    chave = secrets.token_bytes(32)
    return PREFIXO + base64.b64encode(chave).decode(), chave


@lru_cache(maxsize=4)
def _fernet(chave_mestra: bytes) -> Fernet:
    derivada = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"vitrine/avisos/segredos").derive(
        chave_mestra
    )
    return Fernet(base64.urlsafe_b64encode(derivada))


def cifrar(chave: bytes, chave_mestra: bytes) -> str:
    return _fernet(chave_mestra).encrypt(chave).decode()


def decifrar(cifrado: str, chave_mestra: bytes) -> bytes:
    return _fernet(chave_mestra).decrypt(cifrado.encode())


def assinatura(chaves: list[bytes], msg_id: str, momento: datetime, corpo: str) -> str:
    """The webhook-signature value: one `v1,<base64>` per key, space-separated (rotation)."""
    momento = momento.astimezone(UTC)
    return " ".join(Webhook(chave).sign(msg_id, momento, corpo) for chave in chaves)


def cabecalhos(chaves: list[bytes], msg_id: str, momento: datetime, corpo: str) -> dict[str, str]:
    valor = assinatura(chaves, msg_id, momento, corpo)
    return {
        "Content-Type": "application/json",
        "webhook-id": msg_id,
        "webhook-timestamp": str(int(momento.timestamp())),
        "webhook-signature": valor,
        "X-Vitrine-Signature": valor,
    }
