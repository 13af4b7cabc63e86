"""API keys: creation (shown once), authentication on every call, immediate revocation.

Format: sk_test_ or sk_live_ + a 12-character identifier + '_' + a 40-character secret.
Only SHA-256 of the secret is stored; the secret carries ~238 bits of entropy, so a fast hash is
safe, and a constant-time comparison keeps timing from leaking it. Authentication results are
cached in-process; revocation and integrator pauses clear the cache in every process at once
(vitrine.infra.bus)."""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from graphql_api.chave import repository
from graphql_api.chave.models import ChaveApi
from graphql_api.chave.situacao import RateLimits, SituacaoIntegrador
from graphql_api.core import topicos
from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.ids import random_token
from graphql_api.core.permissions import exigir_reautenticacao
from graphql_api.core.principal import ALL_SCOPES, Ambiente, CredentialKind, Principal
from graphql_api.core.sinais import porta
from vitrine.infra.cache import CredentialCache

KEY_PATTERN = re.compile(r"^sk_(test|live)_([A-Za-z0-9]{12})_([A-Za-z0-9]{40})$")
PREFIX_BY_AMBIENTE = {Ambiente.TESTE: "sk_test_", Ambiente.PRODUCAO: "sk_live_"}
AMBIENTE_BY_MARK = {"test": Ambiente.TESTE, "live": Ambiente.PRODUCAO}

CACHE_TOPIC = topicos.CHAVES
USO_INTERVALO = timedelta(minutes=1)  # a key's last use is written at most this often per process


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Autenticacao:
    """What a valid credential (an API key, an OAuth token) proves: who calls, and their limits."""

    principal: Principal
    limits: RateLimits


@dataclass(frozen=True, slots=True)
class _CachedKey:
    hash_segredo: str
    ambiente: Ambiente
    revogada: bool
    integrador_id: str
    integrador: SituacaoIntegrador


# identifier -> what authentication needs. Cleared on revocation or pause (bus topic).
KeyCache = CredentialCache[_CachedKey]


def split_key(token: str) -> tuple[Ambiente, str, str] | None:
    """(ambiente, identifier, secret) of a well-formed key, else None."""
    match = KEY_PATTERN.match(token)
    if match is None:
        return None
    return AMBIENTE_BY_MARK[match.group(1)], match.group(2), match.group(3)


async def _ler(identificador: str) -> _CachedKey | None:
    row = await repository.credential_row(identificador)
    if row is None:
        return None
    return _CachedKey(
        hash_segredo=row["hash_segredo"],
        ambiente=Ambiente(row["ambiente"]),
        revogada=row["revogada_em"] is not None,
        integrador_id=row["integrador_id"],
        integrador=await SituacaoIntegrador.ler(row, "integrador__", row["integrador_id"], row["ambiente"]),
    )


async def _load(identificador: str, cache: KeyCache) -> _CachedKey | None:
    return await cache.get_or_load(identificador, _ler)


async def identify(token: str, cache: KeyCache) -> str | None:
    """The integrator a well-formed key names, even if the secret is wrong (for the call log)."""
    parts = split_key(token)
    if parts is None:
        return None
    entry = await _load(parts[1], cache)
    return entry.integrador_id if entry else None


async def autenticar_chave(token: str, cache: KeyCache, *, default_limits: RateLimits) -> Autenticacao:
    parts = split_key(token)
    if parts is None:
        raise ApiError("UNAUTHORIZED", description="A chave não tem o formato sk_test_… ou sk_live_….")
    ambiente, identificador, secret = parts
    entry = await _load(identificador, cache)
    if entry is None or not hmac.compare_digest(entry.hash_segredo, _hash(secret)):
        raise ApiError("UNAUTHORIZED", description="Chave de API inexistente ou incorreta.")
    if entry.ambiente is not ambiente:
        raise ApiError("UNAUTHORIZED", description="O prefixo da chave não corresponde ao ambiente dela.")
    if entry.revogada:
        raise ApiError("UNAUTHORIZED", description="Esta chave de API foi revogada.")
    limits = entry.integrador.admitir(ambiente, default_limits)
    principal = Principal(
        kind=CredentialKind.API_KEY,
        ambiente=ambiente,
        scopes=ALL_SCOPES,
        integrador_id=entry.integrador_id,
        chave_id=identificador,
    )
    return Autenticacao(principal, limits)


async def criar_chave(integrador_id: str, ambiente: Ambiente, *, nome: str = "") -> tuple[ChaveApi, str]:
    """A new key; the full token is returned once and never stored. A live key needs production
    released and the current contract accepted."""
    if ambiente is Ambiente.PRODUCAO and (bloqueio := await bloqueio_producao(integrador_id)) is not None:
        raise bloqueio
    while True:
        identificador = random_token(12)
        if not await repository.exists(identificador):
            break
    secret = random_token(40)
    row = await ChaveApi.create(
        id=identificador,
        integrador_id=integrador_id,
        ambiente=ambiente.value,
        nome=nome[:100],
        hash_segredo=_hash(secret),
    )
    return row, f"{PREFIX_BY_AMBIENTE[ambiente]}{identificador}_{secret}"


def display_id(row: ChaveApi) -> str:
    """How a key is shown after creation: its prefix and identifier, never the secret."""
    return f"{PREFIX_BY_AMBIENTE[Ambiente(row.ambiente)]}{row.id}"


async def revogar_chave(integrador_id: str, identificador: str, *, bus) -> None:
    changed = await repository.revoke(integrador_id, identificador)
    if not changed:
        raise ApiError("NOT_FOUND", description="Chave inexistente ou já revogada.")
    await bus.publish(CACHE_TOPIC)


@porta("chave.bloqueio_producao")
async def bloqueio_producao(integrador_id: str) -> ApiError | None:
    """Why this integrator may not create sk_live_ keys yet (for the portal to say before the
    attempt); None when it may. The rule (production released, the current contract accepted)
    lives in graphql_api/integracao/contrato.py, which builds on the keys: the composition root
    installs it here."""
    raise NotImplementedError


async def emitir_chave(principal: Principal, *, nome: str = "") -> tuple[ChaveApi, str]:
    """A key for the caller's environment, created by a person in the portal. A live key needs
    the password typed again a moment ago and production access."""
    nome = nome.strip()
    if len(nome) > 100:
        raise ApiError("VALIDATION_FAILED", fields=[FieldError("nome", "muito_longo", "Máximo de 100 caracteres.")])
    if principal.ambiente is Ambiente.PRODUCAO:
        exigir_reautenticacao(principal)
    assert principal.integrador_id is not None  # portal-only: a person of an integrator
    return await criar_chave(principal.integrador_id, principal.ambiente, nome=nome)


async def listar_chaves(principal: Principal) -> list[ChaveApi]:
    return await repository.list_for(principal.integrador_id, principal.ambiente.value)


def identificador_de(value: str) -> str:
    """The 12-character identifier from `sk_test_<id>`, `sk_live_<id>` or the bare id."""
    return value.removeprefix("sk_test_").removeprefix("sk_live_")


class UltimoUso:
    """Fills each key's last use from the call log's batches, off the request path: at most one
    write per key per minute in this process (the time shown is at most that late)."""

    def __init__(self) -> None:
        self._written: dict[str, datetime] = {}

    async def registrar(self, batch: list) -> None:
        latest: dict[str, datetime] = {}
        for r in batch:
            # A refused credential was not a use of the key (a wrong secret names the key too).
            if r.chave_id and r.status != 401 and (r.chave_id not in latest or r.criado_em > latest[r.chave_id]):
                latest[r.chave_id] = r.criado_em
        for identificador, when in latest.items():
            written = self._written.get(identificador)
            if written is not None and when - written < USO_INTERVALO:
                continue
            if len(self._written) > 100_000:
                self._written.clear()
            self._written[identificador] = when
            await repository.touch(identificador, when)
