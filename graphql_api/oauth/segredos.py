"""Client secrets, codes and tokens: random values of which only the SHA-256 is kept.

Each carries at least 238 bits of entropy, so a fast hash is safe; comparisons run in constant
time. Format: a prefix that says what the value is (cs_test_, cs_live_, oac_, oat_test_,
oat_live_, ort_) and 40 characters from [A-Za-z0-9]."""

from __future__ import annotations

import hashlib
import hmac

from authlib.common.security import generate_token

from graphql_api.core.principal import Ambiente

SEGREDO_CLIENTE = {Ambiente.TESTE: "cs_test_", Ambiente.PRODUCAO: "cs_live_"}
TOKEN_ACESSO = {Ambiente.TESTE: "oat_test_", Ambiente.PRODUCAO: "oat_live_"}
CODIGO = "oac_"
TOKEN_RENOVACAO = "ort_"
TAMANHO = 40


def resumo(valor: str) -> str:
    """The SHA-256 (hex) under which a secret, code or token is stored and looked up."""
    return hashlib.sha256(valor.encode()).hexdigest()


def novo(prefixo: str) -> tuple[str, str]:
    """A new value with this prefix and its stored form: (value, resumo(value))."""
    valor = prefixo + generate_token(TAMANHO)  # secrets-grade randomness, [A-Za-z0-9]
    return valor, resumo(valor)


def confere(guardado: str | None, valor: str) -> bool:
    """Whether `valor` is the secret stored as `guardado`, in constant time."""
    return guardado is not None and hmac.compare_digest(guardado, resumo(valor))
