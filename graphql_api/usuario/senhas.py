"""Passwords and tokens. Passwords are hashed with argon2id at OWASP's parameters (19 MiB,
2 passes, 1 lane; docs/portal.md says what one costs), in threads of their own (argon2 releases the interpreter
lock) so the event loop keeps serving and a sign-in never queues behind other work sent to the
default executor. Session cookies, reset and invite links are random tokens of which only the
SHA-256 is stored: a leaked table opens nothing."""

from __future__ import annotations

import asyncio
import hashlib
import os
import secrets
from concurrent.futures import ThreadPoolExecutor

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError

_hasher = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1, type=Type.ID)
# One thread per core at most: more would only share the cores and hold 19 MiB each.
_HASHING = ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1), thread_name_prefix="argon2")
_dummy_hash: str | None = None


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


async def _hashing(function, *args):
    return await asyncio.get_running_loop().run_in_executor(_HASHING, function, *args)


async def hash_password(senha: str) -> str:
    return await _hashing(_hasher.hash, senha)


async def password_matches(stored: str | None, senha: str) -> bool:
    global _dummy_hash
    if stored is None:
        # Same work for an unknown e-mail as for a wrong password: timing tells nothing.
        _dummy_hash = _dummy_hash or await hash_password("senha-que-nao-existe")
        stored, senha = _dummy_hash, senha + "x"
    try:
        return await _hashing(_hasher.verify, stored, senha)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    return _hasher.check_needs_rehash(stored)
