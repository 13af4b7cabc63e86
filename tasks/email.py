"""Sending queued e-mail through SMTP, retried with backoff."""

import asyncio

from graphql_api.email import service
from tasks.broker import broker, runtime

BACKOFF_SECONDS = (5, 30, 120, 600)


@broker.task(task_name="email.enviar")
async def enviar_email(email_id: str) -> bool:
    smtp_url = runtime().settings.smtp_url
    if not smtp_url:
        return False
    for attempt, pause in enumerate((0, *BACKOFF_SECONDS)):
        await asyncio.sleep(pause)
        if await service.entregar(email_id, smtp_url):
            return True
    return False
