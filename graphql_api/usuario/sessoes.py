"""Portal sessions: server-side, opened after a sign-in, re-authentication for sensitive
operations, the environment being looked at, and the retention of what sign-in leaves behind."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.principal import ROLE_SCOPES, Ambiente, CredentialKind, Papel, Principal
from graphql_api.core.relogio import agora
from graphql_api.usuario import repository
from graphql_api.usuario.autenticacao import FAILURE_WINDOW, verificar_senha
from graphql_api.usuario.models import Sessao
from graphql_api.usuario.senhas import new_token, token_hash

SESSION_IDLE = timedelta(hours=12)  # a session unused this long ends
SESSION_MAX = timedelta(days=7)  # and none lives longer than this
SESSION_TOUCH = timedelta(minutes=5)  # how often a used session's expiry is pushed (one write)
REAUTH_WINDOW = timedelta(minutes=5)


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
    """A new session for a person who just proved who they are. A fresh token every time, and
    the browser's previous session is deleted: a planted session id never becomes signed in."""
    if anterior:
        await repository.delete_session(token_hash(anterior))
    token = new_token()
    now = agora()
    await Sessao.create(
        id=token_hash(token),
        usuario_id=usuario_id,
        ultimo_uso_em=now,
        expira_em=now + SESSION_IDLE,
        ip=ip[:64],
        agente=agente[:200],
    )
    await repository.touch_user(usuario_id, now)
    return token


async def sessao_ativa(token: str) -> SessaoAtiva | None:
    row = await repository.session_row(token_hash(token))
    if row is None:
        return None
    now = agora()
    if row["expira_em"] <= now or row["criado_em"] + SESSION_MAX <= now:
        await repository.delete_session(row["id"])
        return None
    if now - row["ultimo_uso_em"] > SESSION_TOUCH:
        await repository.update_session(
            row["id"], ultimo_uso_em=now, expira_em=min(now + SESSION_IDLE, row["criado_em"] + SESSION_MAX)
        )
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
        reautenticado=reauth is not None and now - reauth <= REAUTH_WINDOW,
    )


async def encerrar_sessao(token: str) -> None:
    await repository.delete_session(token_hash(token))


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
    await repository.update_session(sessao.id, reautenticado_em=agora())


async def trocar_ambiente(sessao: SessaoAtiva, ambiente: str) -> None:
    if ambiente not in {a.value for a in Ambiente}:
        raise ApiError("VALIDATION_FAILED", fields=[FieldError("ambiente", "valor_invalido", "Use teste ou producao.")])
    await repository.update_session(sessao.id, ambiente=ambiente)


async def expurgar(now: datetime | None = None) -> tuple[int, int, int]:
    """Expired sessions, failures outside the counting window, links expired a day ago."""
    now = now or agora()
    return await repository.purge(now, now - FAILURE_WINDOW, now - timedelta(days=1))
