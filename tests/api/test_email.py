"""Outgoing e-mail: outbox row first, then a real SMTP delivery by a task."""

import asyncio
import secrets

from graphql_api.core.relogio import agora
from graphql_api.core.transactions import transaction
from graphql_api.email import service as emails
from graphql_api.email.models import Email
from tests.factories import eventually


async def test_message_goes_through_the_outbox_to_the_smtp_server(client, factory, settings, smtp_inbox):
    async with transaction():
        email = await emails.enviar(
            para="alertas@integradora.test",
            assunto="Teste de alerta",
            texto="Olá, acentuação ok.",
            tipo="teste",
            integrador_id=None,
            smtp_url=settings.smtp_url,
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
    email = await emails.enviar(
        para="x@y.test", assunto="Só na caixa", texto="t", tipo="teste", integrador_id=None, smtp_url=None
    )
    assert (await Email.get(id=email.id)).situacao == "na_caixa"


async def test_a_failed_attempt_is_recorded_with_its_next_attempt_and_holds_no_worker(client, settings):
    # A row no task was queued for: the attempt below is the only one.
    email = await emails.enviar(
        para="x@y.test", assunto="Falha", texto="t", tipo="teste", integrador_id=None, smtp_url=None
    )
    await Email.filter(id=email.id).update(situacao="pendente")
    before = agora()
    assert await emails.entregar(email.id, "smtp://127.0.0.1:1", settings) is False
    stored = await Email.get(id=email.id)
    assert stored.tentativas == 1 and stored.erro and stored.situacao == "pendente" and stored.em_voo_ate is None
    waited = (stored.proxima_tentativa_em - before).total_seconds()
    assert emails.BACKOFF_SECONDS[0] <= waited < emails.BACKOFF_SECONDS[0] + 2


async def test_a_message_the_server_refuses_for_now_is_retried_by_the_sweep_and_sent_once(
    client, settings, smtp_inbox, smtp_control
):
    subject = f"Recusado uma vez {secrets.token_hex(4)}"
    smtp_control.refuse[subject] = 1
    async with transaction():
        email = await emails.enviar(
            para="alertas@integradora.test",
            assunto=subject,
            texto="t",
            tipo="teste",
            integrador_id=None,
            smtp_url=settings.smtp_url,
        )

    async def refused():
        stored = await Email.get(id=email.id)
        assert stored.tentativas == 1 and stored.erro and "451" in stored.erro
        return stored

    stored = await eventually(refused, timeout=15)
    assert stored.situacao == "pendente" and stored.proxima_tentativa_em > agora()  # waits in the row

    async def sent():
        stored = await Email.get(id=email.id)
        assert stored.situacao == "enviado"
        return stored

    stored = await eventually(sent, timeout=30, interval=0.2)
    assert stored.tentativas == 2 and stored.erro is None and smtp_control.refuse[subject] == 0
    await asyncio.sleep(3 * settings.email_varredura_segundos)  # a few more sweeps send nothing more
    assert [m["Subject"] for m in smtp_inbox].count(subject) == 1


async def test_a_message_whose_worker_dies_mid_send_goes_out_once(
    client, settings, smtp_inbox, smtp_control, worker_process
):
    address = f"morto-{secrets.token_hex(4)}@integradora.test"
    subject = f"Worker morto {address}"
    smtp_control.hold.add(address)  # the server stalls this message before its data is sent
    async with transaction():
        email = await emails.enviar(
            para=address, assunto=subject, texto="t", tipo="teste", integrador_id=None, smtp_url=settings.smtp_url
        )

    async def sending():
        assert address in smtp_control.held

    await eventually(sending, timeout=15)
    worker_process.kill()
    smtp_control.hold.discard(address)  # the stalled server now answers a client that is gone
    stored = await Email.get(id=email.id)
    assert stored.situacao == "pendente" and stored.tentativas == 1 and stored.em_voo_ate is not None
    worker_process.start()

    async def sent():
        stored = await Email.get(id=email.id)
        assert stored.situacao == "enviado"
        return stored

    stored = await eventually(sent, timeout=45, interval=0.2)
    assert stored.tentativas == 2
    await asyncio.sleep(3 * settings.email_varredura_segundos)
    assert [m["Subject"] for m in smtp_inbox].count(subject) == 1
