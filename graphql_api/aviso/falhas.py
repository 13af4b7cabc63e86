"""An address that keeps failing: the "failing for 1 hour" alert, and switching it off (after a
410 Gone or a whole window without success). Both are open alerts in the integration status,
e-mailed to the integrator."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from graphql_api.aviso import repository
from graphql_api.aviso.models import Aviso, Tentativa
from graphql_api.core import alertas, relogio
from graphql_api.core.scalars import format_timestamp
from graphql_api.core.transactions import transaction

if TYPE_CHECKING:
    from graphql_api.core.recursos import Recursos

ALERTA_APOS = timedelta(hours=1)


async def desativar(aviso_id: str, motivo: str, runtime: Recursos) -> None:
    """Switch an address off (once), fail its pending deliveries and tell the integrator."""
    agora = relogio.agora()
    changed = await Aviso.filter(id=aviso_id, situacao="ativo").update(
        situacao="desativado", desativado_em=agora, motivo_desativacao=motivo
    )
    if not changed:
        return
    pendentes = await repository.fail_pending_of(aviso_id)
    aviso = await Aviso.get(id=aviso_id)
    texto = (
        f"O endereço de avisos {aviso.url} (ambiente {aviso.ambiente}) foi desativado em "
        f"{format_timestamp(agora)}.\n\nMotivo: {motivo}\n\n"
        f"{pendentes} entrega(s) pendente(s) foram marcadas como falhou. Para reativar, corrija o "
        "servidor e registre a mesma url de novo (PUT /avisos); o segredo continua o mesmo. Depois "
        f"peça o reenvio das entregas que falharam (POST /avisos/{aviso.id}/entregas/{{entregaId}}/reenvio).\n\n"
        f"Documentação: {runtime.settings.docs_url}/avisos\n"
    )
    await _alertar(aviso, f"Vitrine: endereço de avisos desativado ({aviso.url})", texto, "aviso_desativado", runtime)


async def _alertar(aviso: Aviso, assunto: str, texto: str, tipo: str, runtime: Recursos) -> None:
    # An open alert in the integration status, e-mailed to the integrator's contacts (for now its
    # registered e-mail) at most once per kind every 6 hours; it closes when the address recovers.
    await alertas.abrir(
        alertas.NovoAlerta(
            aviso.integrador_id,
            aviso.ambiente,
            tipo,
            aviso.id,
            assunto.removeprefix("Vitrine: "),
            evidencia={"avisoId": aviso.id, "url": aviso.url},
            smtp_url=runtime.settings.smtp_url,
            assunto_email=assunto,
            texto_email=texto,
        )
    )


async def alertar_falhas(agora: datetime, runtime: Recursos) -> int:
    enviados = 0
    for aviso in await repository.failing_without_alert(agora - ALERTA_APOS):
        async with transaction():
            if not await repository.reservar_alerta(aviso.id, agora - ALERTA_APOS, agora):
                continue
            desde = aviso.falhando_desde
            assert desde is not None  # failing_without_alert selects on it
            ultima = await Tentativa.filter(entrega__aviso_id=aviso.id).order_by("-id").first()
            resposta = (
                "sem resposta"
                if ultima is None
                else (f"HTTP {ultima.status}" if ultima.status is not None else (ultima.erro or "sem resposta"))
            )
            texto = (
                f"O endereço de avisos {aviso.url} (ambiente {aviso.ambiente}) está falhando desde "
                f"{format_timestamp(desde)}.\n\nÚltima resposta: {resposta}.\n\n"
                "As entregas continuam sendo repetidas com espera crescente por pelo menos 24 horas. "
                "Confira se o servidor responde 2XX a um aviso válido (POST /avisos/teste ajuda) e "
                f"acompanhe as tentativas em GET /avisos/{aviso.id}/entregas. Se continuar falhando por "
                f"{round(runtime.settings.aviso_desativar_apos_horas)} horas, o endereço será desativado.\n\n"
                f"Documentação: {runtime.settings.docs_url}/avisos\n"
            )
            await _alertar(
                aviso, f"Vitrine: endereço de avisos falhando há 1 hora ({aviso.url})", texto, "aviso_falhando", runtime
            )
            enviados += 1
    return enviados
