"""Sessions: server-side, opened after a sign-in. The mechanics (`Sessoes`) are shared by both
kinds of people who sign in, portal staff (`SESSOES`, here) and sellers (graphql_api/vendedor);
the rest is the portal's: re-authentication for sensitive operations, the environment being looked
at, and the retention of what sign-in leaves behind."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from tortoise.models import Model

from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.principal import ROLE_SCOPES, Ambiente, CredentialKind, Papel, Principal
from graphql_api.core.purge import Purge
from graphql_api.core.relogio import agora
from graphql_api.core.texto import texto_de_cabecalho
from graphql_api.usuario import repository
from graphql_api.usuario.autenticacao import FAILURE_WINDOW, verificar_senha
from graphql_api.usuario.models import Sessao
from graphql_api.usuario.senhas import new_token, token_hash

SESSION_IDLE = timedelta(hours=12)  # a session unused this long ends
SESSION_MAX = timedelta(days=7)  # and none lives longer than this
SESSION_TOUCH = timedelta(minutes=5)  # how often a used session's expiry is pushed (one write)
REAUTH_WINDOW = timedelta(minutes=5)


@dataclass(frozen=True, slots=True)
class Sessoes:
    """The sessions of one kind of person. The cookie carries a random token of which only the
    SHA-256 is stored; every sign-in gets a fresh token; a session ends 12 hours after its last use
    and 7 days after the sign-in, whichever comes first."""

    modelo: type[Model]  # Sessao | SessaoVendedor
    dono: str  # the column of the person: usuario_id | vendedor_id
    campos: tuple[str, ...]  # what a request reads of its person, in the same query
    marcar_acesso: Callable[[str, datetime], Awaitable[None]]  # the person's ultimo_acesso_em

    async def abrir(self, dono_id: str, *, ip: str, agente: str, anterior: str | None = None) -> str:
        """A new session for a person who just proved who they are. A fresh token every time, and
        the browser's previous session is deleted: a planted session id never becomes signed in."""
        if anterior:
            await repository.delete_session(self.modelo, token_hash(anterior))
        token = new_token()
        now = agora()
        row: dict[str, Any] = {self.dono: dono_id}
        await self.modelo.create(
            id=token_hash(token),
            ultimo_uso_em=now,
            expira_em=now + SESSION_IDLE,
            ip=ip[:64],
            agente=texto_de_cabecalho(agente)[:200],
            **row,
        )
        await self.marcar_acesso(dono_id, now)
        return token

    async def ler(self, token: str) -> dict[str, Any] | None:
        """The row of a session still valid (its use pushes the idle expiry), or None."""
        row = await repository.session_row(self.modelo, token_hash(token), self.campos)
        if row is None:
            return None
        now = agora()
        if row["expira_em"] <= now or row["criado_em"] + SESSION_MAX <= now:
            await repository.delete_session(self.modelo, row["id"])
            return None
        if now - row["ultimo_uso_em"] > SESSION_TOUCH:
            await repository.update_session(
                self.modelo,
                row["id"],
                ultimo_uso_em=now,
                expira_em=min(now + SESSION_IDLE, row["criado_em"] + SESSION_MAX),
            )
        return row

    async def encerrar(self, token: str) -> None:
        await repository.delete_session(self.modelo, token_hash(token))

    async def expurgar(self, now: datetime, purge: Purge) -> int:
        """Expired sessions (the maintenance task)."""
        return await repository.purge_sessions(purge, self.modelo, now)


SESSOES = Sessoes(Sessao, "usuario_id", repository.SESSION_FIELDS, repository.touch_user)


@dataclass(frozen=True, slots=True)
class SessaoAtiva:
    """A valid session, as each portal request sees it."""

    id: str  # the SHA-256 of the cookie value
    usuario_id: str
    nome: str
    email: str
    papel: Papel
    integrador_id: str
    integrador_nome: str
    integrador_pausado: bool
    ambiente: Ambiente
    reautenticado: bool

    def principal(self) -> Principal:
        return Principal(
            kind=CredentialKind.PORTAL,
            ambiente=self.ambiente,
            scopes=ROLE_SCOPES[self.papel],
            integrador_id=self.integrador_id,
            ator_id=self.usuario_id,
            reautenticado=self.reautenticado,
        )


async def abrir_sessao(usuario_id: str, *, ip: str, agente: str, anterior: str | None = None) -> str:
    return await SESSOES.abrir(usuario_id, ip=ip, agente=agente, anterior=anterior)


async def sessao_ativa(token: str) -> SessaoAtiva | None:
    row = await SESSOES.ler(token)
    if row is None:
        return None
    reauth = row["reautenticado_em"]
    return SessaoAtiva(
        id=row["id"],
        usuario_id=row["usuario_id"],
        nome=row["usuario__nome"],
        email=row["usuario__email"],
        papel=Papel(row["usuario__papel"]),
        integrador_id=row["usuario__integrador_id"],
        integrador_nome=row["usuario__integrador__nome"],
        integrador_pausado=row["usuario__integrador__situacao"] == "pausado",
        ambiente=Ambiente(row["ambiente"]),
        reautenticado=reauth is not None and agora() - reauth <= REAUTH_WINDOW,
    )


async def encerrar_sessao(token: str) -> None:
    await SESSOES.encerrar(token)


async def reautenticar(sessao: SessaoAtiva, senha: str, *, ip: str) -> None:
    """The person typed the password again: sensitive operations are open for 5 minutes."""
    try:
        await verificar_senha(sessao.email, senha, ip=ip)
    except ApiError as error:
        if error.type != "UNAUTHORIZED":
            raise
        raise ApiError(
            "VALIDATION_FAILED", fields=[FieldError("senha", "valor_invalido", "Senha incorreta.")]
        ) from None
    await repository.update_session(Sessao, sessao.id, reautenticado_em=agora())


async def trocar_ambiente(sessao: SessaoAtiva, ambiente: str) -> None:
    if ambiente not in {a.value for a in Ambiente}:
        raise ApiError("VALIDATION_FAILED", fields=[FieldError("ambiente", "valor_invalido", "Use teste ou producao.")])
    await repository.update_session(Sessao, sessao.id, ambiente=ambiente)


async def expurgar(now: datetime | None = None, purge: Purge | None = None) -> tuple[int, int, int]:
    """Expired sessions, failures outside the counting window, links expired a day ago."""
    now = now or agora()
    purge = purge or Purge()
    sessions = await SESSOES.expurgar(now, purge)
    failures, links = await repository.purge(purge, now - FAILURE_WINDOW, now - timedelta(days=1))
    return sessions, failures, links
