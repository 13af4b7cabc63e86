"""Credit and quota e-mail alerts: judged from the wallet's state after a movement that may call
for one (graphql_api/creditos/avaliacao.py); idempotent, so a repeated task changes nothing."""

from graphql_api.core.transactions import transaction
from graphql_api.creditos import alertas, avaliacao
from tasks.broker import broker, runtime


@broker.task(task_name=alertas.TAREFA)
async def alertar(integrador_id: str, ambiente: str) -> None:
    settings = runtime().settings
    async with transaction():
        await avaliacao.avaliar(integrador_id, ambiente, smtp_url=settings.smtp_url, docs_url=settings.docs_url)
