"""People of an integrator and their portal sessions: sign-up, sign-in with a failure counter,
server-side sessions, re-authentication, password links (reset and invite) and the team.

Passwords are hashed with argon2id at OWASP's parameters (19 MiB, 2 passes, 1 lane: about 35 ms
here), in threads of their own (argon2 releases the interpreter lock) so the event loop keeps
serving and a sign-in never queues behind other work sent to the default executor. Session
cookies, reset and invite links are random tokens of which only the SHA-256 is stored: a leaked
table opens nothing."""

from __future__ import annotations

import asyncio
import hashlib
import os
import secrets
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError
from tortoise.exceptions import IntegrityError

from graphql_api.core.relogio import agora
from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.ids import encontrar, new_id
from graphql_api.core.principal import ROLE_SCOPES, Ambiente, CredentialKind, Papel, Principal
from graphql_api.core.transactions import transaction
from graphql_api.core.validation import validate
from graphql_api.email import service as emails
from graphql_api.integrador import service as integradores
from graphql_api.usuario import repository
from graphql_api.usuario.models import LinkSenha, Sessao, TentativaEntrada, Usuario
from graphql_api.usuario.schemas import Cadastro, Convite, normalise_email, password_problem

SESSION_IDLE = timedelta(hours=12)  # a session unused this long ends
SESSION_MAX = timedelta(days=7)  # and none lives longer than this
SESSION_TOUCH = timedelta(minutes=5)  # how often a used session's expiry is pushed (one write)
REAUTH_WINDOW = timedelta(minutes=5)

FAILURE_WINDOW = timedelta(minutes=15)
MAX_FAILURES_PER_EMAIL = 5
MAX_FAILURES_PER_IP = 20

RESET_LINK_LIFE = timedelta(hours=1)
INVITE_LINK_LIFE = timedelta(hours=72)
MAX_RESET_LINKS_PER_HOUR = 3

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


async def _password_matches(stored: str | None, senha: str) -> bool:
    global _dummy_hash
    if stored is None:
        # Same work for an unknown e-mail as for a wrong password: timing tells nothing.
        _dummy_hash = _dummy_hash or await hash_password("senha-que-nao-existe")
        stored, senha = _dummy_hash, senha + "x"
    try:
        return await _hashing(_hasher.verify, stored, senha)
    except (VerificationError, InvalidHashError):
        return False


def _email_taken() -> ApiError:
    return ApiError(
        "VALIDATION_FAILED",
        fields=[FieldError("email", "duplicado", "Já existe uma pessoa com este e-mail: entre ou redefina a senha.")],
    )


# --- sign-up and sign-in ------------------------------------------------------------------------


async def cadastrar(dados: dict) -> Usuario:
    """A new integrator (no API key yet) and its first person, the owner."""
    cadastro = validate(Cadastro, dados)
    if await repository.by_email(cadastro.email) is not None:
        raise _email_taken()
    hashed = await hash_password(cadastro.senha)
    try:
        async with transaction():
            criado = await integradores.criar_integrador(
                nome=cadastro.empresa, email=cadastro.emailAlertas, chave_teste=False
            )
            return await Usuario.create(
                id=new_id("usr_"), integrador_id=criado.integrador.id, nome=cadastro.nome,
                email=cadastro.email, papel=Papel.DONO.value, hash_senha=hashed,
            )
    except IntegrityError:  # the same e-mail signed up concurrently
        raise _email_taken() from None


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
    if not await _password_matches(usuario.hash_senha if usuario else None, senha):
        await _count_failure(email, ip)
        raise ApiError("UNAUTHORIZED", message="E-mail ou senha incorretos.", description="E-mail ou senha incorretos.")
    await repository.forget_failures(email)
    if _hasher.check_needs_rehash(usuario.hash_senha):
        usuario.hash_senha = await hash_password(senha)
        await usuario.save(update_fields=["hash_senha"])
    return usuario


# --- sessions -----------------------------------------------------------------------------------


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
        id=token_hash(token), usuario_id=usuario_id, ultimo_uso_em=now, expira_em=now + SESSION_IDLE,
        ip=ip[:64], agente=agente[:200],
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
        raise ApiError("VALIDATION_FAILED", fields=[FieldError("senha", "valor_invalido", "Senha incorreta.")]) from None
    await repository.update_session(sessao.id, reautenticado_em=agora())


async def trocar_ambiente(sessao: SessaoAtiva, ambiente: str) -> None:
    if ambiente not in {a.value for a in Ambiente}:
        raise ApiError("VALIDATION_FAILED", fields=[FieldError("ambiente", "valor_invalido", "Use teste ou producao.")])
    await repository.update_session(sessao.id, ambiente=ambiente)


# --- password links (reset and invite) ----------------------------------------------------------


async def _send_link(usuario: Usuario, motivo: str, *, base_url: str, smtp_url: str | None, convidado_por: str = "") -> None:
    """Create a single-use link and queue the e-mail that carries it (inside a transaction)."""
    token = new_token()
    life = INVITE_LINK_LIFE if motivo == "convite" else RESET_LINK_LIFE
    await LinkSenha.create(id=token_hash(token), usuario_id=usuario.id, motivo=motivo, expira_em=agora() + life)
    url = f"{base_url}/senha/definir?token={token}"
    if motivo == "convite":
        assunto = "Convite para o portal da Vitrine"
        texto = (
            f"Olá, {usuario.nome}.\n\n{convidado_por} convidou você para o portal da Vitrine.\n"
            f"Defina a sua senha neste link (vale 72 horas, uma única vez):\n\n{url}\n"
        )
    else:
        assunto = "Redefinição de senha da Vitrine"
        texto = (
            f"Olá, {usuario.nome}.\n\nPara escolher uma nova senha, abra este link (vale 1 hora, uma única vez):\n\n"
            f"{url}\n\nSe não foi você quem pediu, ignore este e-mail: a senha atual continua valendo.\n"
        )
    await emails.enviar(
        para=usuario.email, assunto=assunto, texto=texto, tipo=f"senha_{motivo}",
        integrador_id=usuario.integrador_id, smtp_url=smtp_url,
    )


async def pedir_redefinicao(email: str, *, base_url: str, smtp_url: str | None) -> None:
    """Send a reset link when the e-mail belongs to someone. The answer is the same either way,
    so the form does not reveal who has an account; at most 3 links per person per hour."""
    usuario = await repository.by_email(normalise_email(email)[:254])
    if usuario is None or usuario.hash_senha is None:
        return
    if await repository.links_since(usuario.id, agora() - timedelta(hours=1)) >= MAX_RESET_LINKS_PER_HOUR:
        return
    async with transaction():
        await _send_link(usuario, "redefinicao", base_url=base_url, smtp_url=smtp_url)


def _link_invalid() -> ApiError:
    return ApiError(
        "VALIDATION_FAILED",
        fields=[FieldError("token", "valor_invalido", "Este link expirou ou já foi usado. Peça um novo em “Esqueci a senha”.")],
    )


async def link_valido(token: str) -> LinkSenha | None:
    link = await repository.link(token_hash(token)) if token else None
    if link is None or link.usado_em is not None or link.expira_em <= agora():
        return None
    return link


async def definir_senha(token: str, senha: str) -> Usuario:
    """Use a reset or invite link once: set the password, close every other link of the person
    and end all their sessions (whoever knew the old password is out)."""
    link = await link_valido(token)
    if link is None:
        raise _link_invalid()
    usuario = link.usuario
    problem = password_problem(senha, usuario.email)
    if problem:
        raise ApiError("VALIDATION_FAILED", fields=[FieldError("senha", "muito_curto", problem)])
    hashed = await hash_password(senha)
    async with transaction():
        # Mark used first, conditionally: of two concurrent uses only one changes the row.
        used = await LinkSenha.filter(id=link.id, usado_em__isnull=True).update(usado_em=agora())
        if not used:
            raise _link_invalid()
        usuario.hash_senha = hashed
        await usuario.save(update_fields=["hash_senha"])
        await repository.close_links_of(usuario.id, agora())
        await repository.delete_sessions_of(usuario.id)
        await repository.forget_failures(usuario.email)
    return usuario


# --- the team -----------------------------------------------------------------------------------


async def obter(principal: Principal, usuario_id: str) -> Usuario:
    return await encontrar(usuario_id, "usr_", lambda: repository.member(principal.integrador_id, usuario_id),
                           f"Pessoa {usuario_id} não encontrada neste integrador.")


async def listar(principal: Principal) -> list[Usuario]:
    return await repository.of_integrator(principal.integrador_id)


async def convidar(principal: Principal, dados: dict, *, base_url: str, smtp_url: str | None) -> Usuario:
    """Add a person with a role; they get an e-mail with a link to choose their password."""
    convite = validate(Convite, dados)
    if await repository.by_email(convite.email) is not None:
        raise _email_taken()
    autor = await obter(principal, principal.ator_id)
    try:
        async with transaction():
            usuario = await Usuario.create(
                id=new_id("usr_"), integrador_id=principal.integrador_id, nome=convite.nome,
                email=convite.email, papel=convite.papel, hash_senha=None,
            )
            await _send_link(usuario, "convite", base_url=base_url, smtp_url=smtp_url, convidado_por=autor.nome)
    except IntegrityError:
        raise _email_taken() from None
    return usuario


def _last_owner(campo: str) -> ApiError:
    return ApiError(
        "VALIDATION_FAILED",
        fields=[FieldError(campo, "valor_invalido", "O integrador precisa de pelo menos um dono: promova outra pessoa antes.")],
    )


async def alterar_papel(principal: Principal, usuario_id: str, papel: str) -> Usuario:
    if papel not in {p.value for p in Papel}:
        raise ApiError("VALIDATION_FAILED", fields=[FieldError("papel", "valor_invalido", "Escolha dono, desenvolvedor ou financeiro.")])
    usuario = await obter(principal, usuario_id)
    if usuario.papel == Papel.DONO.value and papel != Papel.DONO.value:
        if await repository.count_owners(principal.integrador_id) <= 1:
            raise _last_owner("papel")
    usuario.papel = papel
    await usuario.save(update_fields=["papel"])
    return usuario


async def remover(principal: Principal, usuario_id: str) -> None:
    """Remove a person: their sessions and links go with them at once."""
    usuario = await obter(principal, usuario_id)
    if usuario.id == principal.ator_id:
        raise ApiError("VALIDATION_FAILED", fields=[FieldError("usuarioId", "valor_invalido", "Você não pode remover a si mesmo.")])
    if usuario.papel == Papel.DONO.value and await repository.count_owners(principal.integrador_id) <= 1:
        raise _last_owner("usuarioId")
    await usuario.delete()


async def expurgar(now: datetime | None = None) -> tuple[int, int, int]:
    """Expired sessions, failures outside the counting window, links expired a day ago."""
    now = now or agora()
    return await repository.purge(now, now - FAILURE_WINDOW, now - timedelta(days=1))
