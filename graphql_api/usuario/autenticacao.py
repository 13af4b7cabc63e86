"""Sign-in with a failure counter: too many wrong passwords for an e-mail or from an address
in 15 minutes refuse even the right one for a while."""

from __future__ import annotations

from datetime import timedelta

from graphql_api.core.errors import ApiError
from graphql_api.core.relogio import agora
from graphql_api.usuario import repository
from graphql_api.usuario.models import TentativaEntrada, Usuario
from graphql_api.usuario.schemas import normalise_email
from graphql_api.usuario.senhas import hash_password, needs_rehash, password_matches

FAILURE_WINDOW = timedelta(minutes=15)
MAX_FAILURES_PER_EMAIL = 5
MAX_FAILURES_PER_IP = 20


async def _refuse_if_guessing(email: str, ip: str) -> None:
    """Too many failed sign-ins for this e-mail or from this address in the last 15 minutes:
    refuse even a right password until the oldest failure leaves the window."""
    now = agora()
    since = now - FAILURE_WINDOW
    for failures, limit in (
        (await repository.failures_since(email=email, since=since), MAX_FAILURES_PER_EMAIL),
        (await repository.failures_since(ip=ip, since=since), MAX_FAILURES_PER_IP),
    ):
        if len(failures) >= limit:
            wait = failures[-limit] + FAILURE_WINDOW - now
            seconds = max(1, int(wait.total_seconds()) + 1)
            raise ApiError(
                "TOO_MANY_REQUESTS",
                message="Muitas tentativas de entrada.",
                description=f"Muitas senhas erradas em pouco tempo. Tente de novo em {max(1, round(seconds / 60))} minuto(s) "
                "ou redefina a senha.",
                headers={"Retry-After": str(seconds)},
            )


async def _count_failure(email: str, ip: str) -> None:
    await TentativaEntrada.create(email=email, ip=ip, criado_em=agora())


async def verificar_senha(email: str, senha: str, *, ip: str) -> Usuario:
    """The person with this e-mail and password. Failures are counted per e-mail and address."""
    email = normalise_email(email)[:254]
    await _refuse_if_guessing(email, ip)
    usuario = await repository.by_email(email)
    stored = usuario.hash_senha if usuario else None
    # password_matches runs for an unknown e-mail too (same timing); the None checks only narrow.
    if not await password_matches(stored, senha) or usuario is None or stored is None:
        await _count_failure(email, ip)
        raise ApiError("UNAUTHORIZED", message="E-mail ou senha incorretos.", description="E-mail ou senha incorretos.")
    await repository.forget_failures(email)
    if needs_rehash(stored):
        usuario.hash_senha = await hash_password(senha)
        await usuario.save(update_fields=["hash_senha"])
    return usuario
