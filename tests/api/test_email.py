"""Outgoing e-mail: outbox row first, then a real SMTP delivery by a task."""

from graphql_api.core.transactions import transaction
from graphql_api.email import service as emails
from graphql_api.email.models import Email
from tests.factories import eventually


async def test_message_goes_through_the_outbox_to_the_smtp_server(client, factory, settings, smtp_inbox):
    async with transaction():
        email = await emails.enviar(
            para="alertas@integradora.test", assunto="Teste de alerta", texto="Olá, acentuação ok.",
            tipo="teste", integrador_id=None, smtp_url=settings.smtp_url,
        )
        assert email.situacao == "pendente"

    async def delivered():
        assert any(m["Subject"] == "Teste de alerta" for m in smtp_inbox)
        assert (await Email.get(id=email.id)).situacao == "enviado"

    await eventually(delivered, timeout=15)
    message = next(m for m in smtp_inbox if m["Subject"] == "Teste de alerta")
    assert message["To"] == "alertas@integradora.test"
    assert "acentuação" in message.get_content()


async def test_without_smtp_the_message_stays_in_the_outbox(client):
    email = await emails.enviar(para="x@y.test", assunto="Só na caixa", texto="t", tipo="teste", integrador_id=None, smtp_url=None)
    assert (await Email.get(id=email.id)).situacao == "na_caixa"


async def test_an_unreachable_smtp_server_is_recorded(client):
    email = await emails.enviar(para="x@y.test", assunto="Falha", texto="t", tipo="teste", integrador_id=None, smtp_url=None)
    assert await emails.entregar(email.id, "smtp://127.0.0.1:1") is False
    stored = await Email.get(id=email.id)
    assert stored.tentativas == 1 and stored.erro and stored.situacao == "pendente"
