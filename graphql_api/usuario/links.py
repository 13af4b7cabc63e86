"""Password links (reset and invite): single-use, e-mailed, of which only the SHA-256 is stored."""

from __future__ import annotations

from datetime import timedelta

from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.relogio import agora
from graphql_api.core.transactions import transaction
from graphql_api.email import service as emails
from graphql_api.usuario import repository
from graphql_api.usuario.autenticacao import USUARIOS
from graphql_api.usuario.models import LinkSenha, Usuario
from graphql_api.usuario.schemas import normalise_email, password_problem
from graphql_api.usuario.senhas import hash_password, new_token, token_hash

RESET_LINK_LIFE = timedelta(hours=1)
INVITE_LINK_LIFE = timedelta(hours=72)
MAX_RESET_LINKS_PER_HOUR = 3


async def send_link(
    usuario: Usuario, motivo: str, *, base_url: str, smtp_url: str | None, convidado_por: str = ""
) -> None:
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
        para=usuario.email,
        assunto=assunto,
        texto=texto,
        tipo=f"senha_{motivo}",
        integrador_id=usuario.integrador_id,
        smtp_url=smtp_url,
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
        await send_link(usuario, "redefinicao", base_url=base_url, smtp_url=smtp_url)


def _link_invalid() -> ApiError:
    return ApiError(
        "VALIDATION_FAILED",
        fields=[
            FieldError(
                "token", "valor_invalido", "Este link expirou ou já foi usado. Peça um novo em “Esqueci a senha”."
            )
        ],
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
        await repository.forget_failures(usuario.email, USUARIOS.tipo)
    return usuario
