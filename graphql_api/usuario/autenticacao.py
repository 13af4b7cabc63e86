"""Sign-in with a failure counter: too many wrong passwords for an e-mail or from an address
in 15 minutes refuse even the right one for a while. One implementation for both kinds of people
who sign in with a password: portal staff (USUARIOS) and sellers (graphql_api/vendedor)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Generic, TypeVar

from graphql_api.core.errors import ApiError
from graphql_api.core.relogio import agora
from graphql_api.usuario import repository
from graphql_api.usuario.models import TentativaEntrada, Usuario
from graphql_api.usuario.schemas import normalise_email
from graphql_api.usuario.senhas import hash_password, needs_rehash, password_matches

FAILURE_WINDOW = timedelta(minutes=15)
MAX_FAILURES_PER_EMAIL = 5
MAX_FAILURES_PER_IP = 20


if TYPE_CHECKING:  # sellers build on this module (graphql_api/vendedor): named for the type only
    from graphql_api.vendedor.models import Vendedor

# The two kinds of people who sign in with a password.
P = TypeVar("P", "Usuario", "Vendedor")


@dataclass(frozen=True, slots=True)
class Entrada(Generic[P]):
    """How one kind of person signs in: who has an e-mail, and the name its failures are counted
    under. Failures per e-mail are counted per kind (a seller account made with a staff person's
    e-mail must not clear that person's failures); failures per address count across kinds."""

    tipo: str  # TentativaEntrada.tipo: usuario | vendedor
    por_email: Callable[[str], Awaitable[P | None]]
    alternativa: str = ""  # what else a locked-out person can do, after "try again in N minutes"

    async def verificar_senha(self, email: str, senha: str, *, ip: str) -> P:
        """The person with this e-mail and password. Failures are counted per e-mail and address."""
        email = normalise_email(email)[:254]
        await self._refuse_if_guessing(email, ip)
        pessoa = await self.por_email(email)
        stored = pessoa.hash_senha if pessoa else None
        # password_matches runs for an unknown e-mail too (same timing); the None checks only narrow.
        if not await password_matches(stored, senha) or pessoa is None or stored is None:
            await TentativaEntrada.create(email=email, ip=ip, tipo=self.tipo, criado_em=agora())
            raise ApiError(
                "UNAUTHORIZED", message="E-mail ou senha incorretos.", description="E-mail ou senha incorretos."
            )
        await repository.forget_failures(email, self.tipo)
        if needs_rehash(stored):
            pessoa.hash_senha = await hash_password(senha)
            await pessoa.save(update_fields=["hash_senha"])
        return pessoa

    async def _refuse_if_guessing(self, email: str, ip: str) -> None:
        """Too many failed sign-ins for this e-mail or from this address in the last 15 minutes:
        refuse even a right password until the oldest failure leaves the window."""
        now = agora()
        since = now - FAILURE_WINDOW
        for failures, limit in (
            (await repository.failures_since(email=email, tipo=self.tipo, since=since), MAX_FAILURES_PER_EMAIL),
            (await repository.failures_since(ip=ip, since=since), MAX_FAILURES_PER_IP),
        ):
            if len(failures) >= limit:
                wait = failures[-limit] + FAILURE_WINDOW - now
                seconds = max(1, int(wait.total_seconds()) + 1)
                raise ApiError(
                    "TOO_MANY_REQUESTS",
                    message="Muitas tentativas de entrada.",
                    description="Muitas senhas erradas em pouco tempo. "
                    f"Tente de novo em {max(1, round(seconds / 60))} minuto(s){self.alternativa}.",
                    headers={"Retry-After": str(seconds)},
                )


USUARIOS: Entrada[Usuario] = Entrada("usuario", repository.by_email, alternativa=" ou redefina a senha")


async def verificar_senha(email: str, senha: str, *, ip: str) -> Usuario:
    """A portal person with this e-mail and password (USUARIOS.verificar_senha)."""
    return await USUARIOS.verificar_senha(email, senha, ip=ip)
