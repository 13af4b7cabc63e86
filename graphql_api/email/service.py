"""Outgoing e-mail: every message is a row of the outbox first (shown in the portal); with
VITRINE_SMTP_URL set, a task sends it through a real SMTP client (aiosmtplib). Each task makes
one attempt; a failed attempt sets the row's next attempt time (BACKOFF_SECONDS) and the sweep
queues it then, as it does a message whose task was lost or whose worker died mid-send."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from email.message import EmailMessage
from urllib.parse import unquote, urlparse

import aiosmtplib

from graphql_api.core.ids import encontrar, new_id
from graphql_api.core.pagination import PageRequest, paginate
from graphql_api.core.principal import Principal
from graphql_api.core.recursos import Configuracao
from graphql_api.core.relogio import agora
from graphql_api.core.tarefas import enfileirar
from graphql_api.core.transactions import after_commit
from graphql_api.email import repository
from graphql_api.email.models import Email
from graphql_api.email.repository import of_integrator

MAX_ATTEMPTS = 5
BACKOFF_SECONDS = (5, 30, 120, 600)  # wait after failed attempt 1, 2, 3, 4
TASK_LOST_AFTER = timedelta(minutes=1)  # queued and not taken by then: the sweep queues it again
SENDER = "Vitrine <nao-responda@vitrine.local>"


async def enviar(
    *, para: str, assunto: str, texto: str, tipo: str, integrador_id: str | None, smtp_url: str | None
) -> Email:
    """Queue a message. Call inside the transaction of what caused it; it leaves after commit."""
    email = await Email.create(
        id=new_id("eml_"),
        integrador_id=integrador_id,
        para=para,
        assunto=assunto[:200],
        texto=texto,
        tipo=tipo,
        situacao="pendente" if smtp_url else "na_caixa",
        # If the task message is lost, the sweep queues the message once this passes.
        proxima_tentativa_em=agora() + TASK_LOST_AFTER if smtp_url else None,
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


async def entregar(email_id: str, smtp_url: str, settings: Configuracao) -> bool:
    """One attempt at a queued message; True when sent. A failure is recorded with the time of
    the next attempt (or falhou after MAX_ATTEMPTS); a message already sent, or held by another
    attempt, is left alone (False)."""
    now = agora()
    reserva = timedelta(seconds=settings.email_reserva_segundos)
    email = await repository.reservar(email_id, now, now + reserva)
    if email is None:
        return False
    message = EmailMessage()
    message["From"] = SENDER
    message["To"] = email.para
    message["Subject"] = email.assunto
    message.set_content(email.texto)
    try:
        # Within the claim: past it the sweep may hand the message to another attempt.
        async with asyncio.timeout(reserva.total_seconds() * 0.8):
            await aiosmtplib.send(message, **_smtp_params(smtp_url))
    except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
        ultima = email.tentativas >= MAX_ATTEMPTS
        espera = timedelta(seconds=BACKOFF_SECONDS[min(email.tentativas, len(BACKOFF_SECONDS)) - 1])
        await repository.concluir(
            email,
            erro=(str(exc) or type(exc).__name__)[:1000],
            situacao="falhou" if ultima else "pendente",
            proxima_tentativa_em=None if ultima else agora() + espera,
        )
        return False
    await repository.concluir(email, situacao="enviado", enviado_em=agora(), erro=None, proxima_tentativa_em=None)
    return True


async def varrer() -> dict[str, int]:
    """Queue every pendente message whose next attempt is due: after a failed attempt, a lost
    task message, or a worker that died holding it (its claim ran out)."""
    now = agora()
    requeue_at = now + TASK_LOST_AFTER
    queued = [
        email_id
        for email_id in await repository.devidas(now)
        if await repository.marcar_enfileirada(email_id, now, requeue_at)
    ]
    for email_id in queued:
        await enfileirar("email.enviar", email_id)
    return {"enfileirados": len(queued)}


# --- the outbox as the portal shows it -------------------------------------------------------

# Messages that carry a password link: whoever reads one can take over that person's account.
SENSITIVE_PREFIX = "senha_"


async def listar_emails(principal: Principal, page: PageRequest) -> tuple[list[Email], str | None]:
    return await paginate(of_integrator(principal.integrador_id), page)


async def obter_email(principal: Principal, email_id: str) -> Email:
    return await encontrar(
        email_id,
        "eml_",
        of_integrator(principal.integrador_id).filter(id=email_id).first,
        f"E-mail {email_id} não encontrado.",
    )


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
