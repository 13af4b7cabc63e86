"""Alerts: opened and closed by the conditions that cause them, e-mailed to the integrator's
contacts at most once per kind every 6 hours. An alert closes itself when the situation
normalises."""

from __future__ import annotations

from datetime import timedelta

from graphql_api.core.alertas import NovoAlerta
from graphql_api.core.ids import new_id
from graphql_api.core.relogio import agora
from graphql_api.email import service as emails
from graphql_api.integracao import repository
from graphql_api.integracao.models import Alerta, EmailAlertaEnviado
from graphql_api.integrador.models import Integrador

EMAIL_INTERVAL = timedelta(hours=6)

TIPOS = {
    "taxa_de_erros": "Mais de 20% das chamadas dos últimos 15 minutos responderam 4xx ou 5xx (com ao menos 50 chamadas).",
    "aviso_falhando": "Um endereço de avisos falha há mais de 1 hora.",
    "aviso_desativado": "Um endereço de avisos foi desativado (respondeu 410 ou falhou sem parar).",
    "cota_70": "70% da cota do mês usados.",
    "cota_90": "90% da cota do mês usados.",
    "cota_100": "A cota do mês acabou (100% usados).",
    "pacote_recorrente": "Pacotes avulsos comprados em dois ciclos seguidos; um plano pode custar menos.",
}


async def abrir(novo: NovoAlerta) -> Alerta:
    """Open the alert (or keep the open one) and e-mail it unless one of its kind went out < 6 h ago."""
    now = novo.now or agora()
    alerta = await repository.open_alerta(novo.integrador_id, novo.ambiente, novo.tipo, novo.chave)
    if alerta is not None:
        return alerta
    alerta = await Alerta.create(
        id=new_id("alr_"),
        integrador_id=novo.integrador_id,
        ambiente=novo.ambiente,
        tipo=novo.tipo,
        chave=novo.chave,
        mensagem=novo.mensagem,
        evidencia=novo.evidencia,
    )
    last = await EmailAlertaEnviado.get_or_none(integrador_id=novo.integrador_id, tipo=novo.tipo)
    if last is None or now - last.enviado_em >= EMAIL_INTERVAL:
        integrador = await Integrador.get(id=novo.integrador_id)
        await emails.enviar(
            para=integrador.email,
            assunto=(novo.assunto_email or f"Vitrine: alerta — {TIPOS.get(novo.tipo, novo.tipo)}")[:200],
            texto=novo.texto_email or f"{novo.mensagem}\n\nAmbiente: {novo.ambiente}\nAberto em: {now.isoformat()}\n",
            tipo=f"alerta_{novo.tipo}",
            integrador_id=novo.integrador_id,
            smtp_url=novo.smtp_url,
        )
        if last is None:
            await EmailAlertaEnviado.create(integrador_id=novo.integrador_id, tipo=novo.tipo, enviado_em=now)
        else:
            last.enviado_em = now
            await last.save()
    return alerta


async def fechar(integrador_id: str, ambiente: str, tipo: str | tuple[str, ...], chave: str) -> int:
    tipos = (tipo,) if isinstance(tipo, str) else tipo
    return await repository.close_alertas(integrador_id, ambiente, tipos, chave, agora())


async def fechar_exceto(
    integrador_id: str, ambiente: str, tipos: tuple[str, ...], manter: list[tuple[str, str]]
) -> int:
    """Close the open alerts of these kinds but the (tipo, chave) pairs in `manter`."""
    fechados = 0
    for alerta in await repository.open_alertas(integrador_id, ambiente):
        if alerta.tipo in tipos and (alerta.tipo, alerta.chave) not in manter:
            fechados += await fechar(integrador_id, ambiente, alerta.tipo, alerta.chave)
    return fechados


async def abertos(integrador_id: str, ambiente: str) -> list[Alerta]:
    return await repository.open_alertas(integrador_id, ambiente)
