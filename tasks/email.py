"""Sending queued e-mail through SMTP: one attempt per task. Retries and lost messages are queued
by the sweep from the rows (graphql_api.email.service), never by a task that sleeps."""

from graphql_api.email import service
from tasks.broker import broker, runtime


@broker.task(task_name="email.enviar")
async def enviar_email(email_id: str) -> bool:
    settings = runtime().settings
    if not settings.smtp_url:
        return False
    return await service.entregar(email_id, settings.smtp_url, settings)


@broker.task(task_name="email.varrer")
async def varrer() -> dict:
    return await service.varrer()
