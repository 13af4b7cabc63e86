"""Outgoing e-mail: every message is a row of the outbox first (shown in the portal); with
VITRINE_SMTP_URL set, a task sends it through a real SMTP client (aiosmtplib), with retries."""

from __future__ import annotations

from datetime import datetime, timezone
from email.message import EmailMessage
from urllib.parse import unquote, urlparse

import aiosmtplib

from graphql_api.core.errors import ApiError
from graphql_api.core.ids import new_id, pode_existir
from graphql_api.core.pagination import PageRequest, paginate
from graphql_api.core.principal import Principal
from graphql_api.core.tarefas import enfileirar
from graphql_api.core.transactions import after_commit
from graphql_api.email.models import Email

MAX_ATTEMPTS = 5
SENDER = "Vitrine <nao-responda@vitrine.local>"


async def enviar(*, para: str, assunto: str, texto: str, tipo: str, integrador_id: str | None, smtp_url: str | None) -> Email:
    """Queue a message. Call inside the transaction of what caused it; it leaves after commit."""
    email = await Email.create(
        id=new_id("eml_"), integrador_id=integrador_id, para=para, assunto=assunto[:200], texto=texto,
        tipo=tipo, situacao="pendente" if smtp_url else "na_caixa",
    )
    if smtp_url:
        await after_commit(lambda: enfileirar("email.enviar", email.id))
    return email


def _smtp_params(smtp_url: str) -> dict:
    """smtp://user:pass@host:port, smtps:// for implicit TLS; ?starttls=1 to upgrade."""
    url = urlparse(smtp_url)
    params = {
        "hostname": url.hostname or "127.0.0.1",
        "port": url.port or (465 if url.scheme == "smtps" else 25),
        "use_tls": url.scheme == "smtps",
        "start_tls": "starttls=1" in (url.query or ""),
        "timeout": 15,
    }
    if url.username:
        params["username"] = unquote(url.username)
        params["password"] = unquote(url.password or "")
    return params


async def entregar(email_id: str, smtp_url: str) -> bool:
    """Send one queued message; True when sent (or already sent). Failures are recorded."""
    email = await Email.get_or_none(id=email_id)
    if email is None or email.situacao == "enviado":
        return True
    message = EmailMessage()
    message["From"] = SENDER
    message["To"] = email.para
    message["Subject"] = email.assunto
    message.set_content(email.texto)
    email.tentativas += 1
    try:
        await aiosmtplib.send(message, **_smtp_params(smtp_url))
    except (aiosmtplib.SMTPException, OSError) as exc:
        email.erro = str(exc)[:1000]
        email.situacao = "falhou" if email.tentativas >= MAX_ATTEMPTS else "pendente"
        await email.save()
        return False
    email.situacao = "enviado"
    email.enviado_em = datetime.now(timezone.utc)
    email.erro = None
    await email.save()
    return True


# --- the outbox as the portal shows it -------------------------------------------------------

# Messages that carry a password link: whoever reads one can take over that person's account.
SENSITIVE_PREFIX = "senha_"


def of_integrator(integrador_id: str):
    return Email.filter(integrador_id=integrador_id)


async def listar_emails(principal: Principal, page: PageRequest) -> tuple[list[Email], str | None]:
    return await paginate(of_integrator(principal.integrador_id), page)


async def obter_email(principal: Principal, email_id: str) -> Email:
    email = await of_integrator(principal.integrador_id).filter(id=email_id).first() if pode_existir(email_id, "eml_") else None
    if email is None:
        raise ApiError("NOT_FOUND", description=f"E-mail {email_id} não encontrado.")
    return email


def motivo_oculto(principal: Principal, email: Email) -> str | None:
    """Why the text of a message is hidden from this person: password links are shown only to
    owners (who can manage the team anyway) who typed their password again a moment ago."""
    if not email.tipo.startswith(SENSITIVE_PREFIX):
        return None
    if not principal.has_portal_scope("usuarios:gerenciar"):
        return "papel"
    if not principal.reautenticado:
        return "reautenticar"
    return None
