"""Deliveries of events to notice addresses: one row per address, written with its event in the
same transaction; a task sends it and records each attempt, with a backoff schedule of growing
waits. A delivery is claimed before it is sent (pendente -> enviando with a token), so two
workers never send it at once and nothing is sent after a 2XX was recorded."""

from __future__ import annotations

import json
import random
import secrets
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any, cast

from tortoise.queryset import QuerySet

from graphql_api.aviso import assinatura, repository
from graphql_api.aviso.enderecos import chaves, obter_aviso
from graphql_api.aviso.falhas import desativar
from graphql_api.aviso.models import Aviso, Entrega, Tentativa
from graphql_api.core import alertas, relogio
from graphql_api.core.errors import ApiError
from graphql_api.core.ids import encontrar, new_id
from graphql_api.core.pagination import PageRequest, paginate
from graphql_api.core.principal import Principal
from graphql_api.core.tarefas import enfileirar
from graphql_api.core.transactions import after_commit, transaction
from graphql_api.core.validation import exigir_aceito
from graphql_api.evento import payloads
from graphql_api.evento.amostras import AMOSTRAS, amostra
from graphql_api.evento.catalog import EVENT_TYPES
from vitrine.infra import log_context
from vitrine.infra.outbound import USER_AGENT, OutboundError

if TYPE_CHECKING:
    from graphql_api.core.recursos import Configuracao, Recursos
    from graphql_api.evento.models import Evento

SITUACOES_ENTREGA = ("pendente", "enviando", "entregue", "falhou")
RESPOSTA_MAX = 4096  # bytes of an answer kept with each attempt
JITTER = 0.2  # each wait is its nominal value +-20%

# Why an attempt got no answer (Tentativa.falha), from the outbound client's failure codes: a
# delivery Vitrine could not make is told apart from a server that answered wrong.
FALHA_DO_CODIGO = {
    "dns_falhou": "dns",
    "tls_falhou": "tls",
    "tempo_esgotado": "tempo_esgotado",
    "conexao_recusada": "recusada",
    "endereco_proibido": "endereco_proibido",
}
FALHAS = {
    "dns": "o nome do servidor não foi encontrado no DNS",
    "tls": "a conexão segura (TLS) falhou: certificado inválido, vencido, de outro nome ou de uma CA não pública",
    "tempo_esgotado": "o servidor não respondeu a tempo",
    "recusada": "o servidor recusou a conexão (nada escuta nessa porta)",
    "endereco_proibido": "o nome resolve para um endereço privado, local ou reservado",
    "conexao": "a conexão caiu antes de uma resposta HTTP",
}


def motivo_falha(falha: str | None, erro: str | None) -> str | None:
    """How a person reads an attempt that got no answer: "não alcançamos seu servidor" and why."""
    if falha is None:
        return None
    detalhe = erro.split(": ", 1)[-1] if erro else ""
    return f"Não alcançamos seu servidor: {FALHAS.get(falha, FALHAS['conexao'])}." + (
        f" ({detalhe})" if detalhe else ""
    )


def json_compacto(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def corpo_do_evento(evento: Evento) -> str:
    return corpo_json(evento.id, evento.tipo, evento.criado_em, evento.conta_id, evento.dados)


def corpo_json(
    evento_id: str, tipo: str, criado_em: datetime, conta_id: str | None, dados: payloads.DadosEvento | dict[str, Any]
) -> str:
    """The exact body of a delivery: the event type's envelope (graphql_api/evento/payloads.py) as
    compact JSON, what gets signed and sent."""
    return json_compacto(payloads.corpo(evento_id, tipo, criado_em, conta_id, dados))


def enviados(cabecalhos: dict[str, str]) -> dict[str, str]:
    """The headers of an attempt as they left: ours and the client's User-Agent."""
    return cabecalhos | {"User-Agent": USER_AGENT}


async def enviar_amostra(principal: Principal, aviso_id: str, tipo: str) -> Entrega:
    """A sample of an event type (graphql_api/evento/amostras.py) to one address, signed and
    shaped like the real event: a delivery with one attempt and no effect on the address health."""
    aviso = await obter_aviso(principal, aviso_id)
    if aviso.situacao != "ativo":
        raise ApiError("NOTICE_ADDRESS_DISABLED")
    exigir_aceito("tipo", tipo, tuple(AMOSTRAS))
    agora = relogio.agora()
    evento_id = new_id("evt_")
    entrega = await Entrega.create(
        id=new_id("ent_"),
        aviso_id=aviso.id,
        evento_id=evento_id,
        tipo=tipo,
        corpo=corpo_json(evento_id, tipo, agora, (exemplo := amostra(tipo)).conta_id, exemplo.dados),
        proxima_tentativa_em=agora,
        enfileirada_em=agora,
        amostra=True,
    )
    await after_commit(lambda: enfileirar_envios([entrega.id]))
    return entrega


async def enfileirar_entregas(evento: Evento) -> list[str]:
    """One delivery per active address of the event's integrator and environment subscribed to
    its type. Runs inside the event's transaction; the sends are queued after the commit."""
    avisos = [a for a in await repository.active_for(evento.integrador_id, evento.ambiente) if evento.tipo in a.eventos]
    if not avisos:
        return []
    agora = relogio.agora()
    corpo = corpo_do_evento(evento)
    entregas = [
        Entrega(
            id=new_id("ent_"),
            aviso_id=aviso.id,
            evento_id=evento.id,
            tipo=evento.tipo,
            corpo=corpo,
            proxima_tentativa_em=agora,
            enfileirada_em=agora,
            # a sample event (vitrine-cli trigger) is a sample delivery, as the portal's is: one
            # attempt, and the address's health is not touched
            amostra=evento.amostra,
        )
        for aviso in avisos
    ]
    await Entrega.bulk_create(entregas)
    ids = [e.id for e in entregas]
    await after_commit(lambda: enfileirar_envios(ids))
    return ids


async def enfileirar_envios(entrega_ids: list[str]) -> None:
    for entrega_id in entrega_ids:
        await enfileirar("aviso.entregar", entrega_id)


def agenda_nominal(settings: Configuracao) -> list[float]:
    """Nominal waits (seconds) after each failed attempt, until they add up to the window."""
    janela = settings.aviso_janela_horas * 3600
    esperas: list[float] = []
    while sum(esperas) < janela:
        esperas.append(
            min(
                settings.aviso_backoff_max_segundos,
                settings.aviso_backoff_base_segundos * settings.aviso_backoff_fator ** len(esperas),
            )
        )
    return esperas


def proxima_espera(tentativas: int, retry_after: float | None, settings: Configuracao) -> float | None:
    """Seconds to wait after failed attempt number `tentativas`, or None when it was the last.
    A Retry-After from the receiver is honoured (up to the longest wait of the schedule)."""
    agenda = agenda_nominal(settings)
    if tentativas > len(agenda):
        return None
    espera = agenda[tentativas - 1] * random.uniform(1 - JITTER, 1 + JITTER)
    if retry_after is not None:
        espera = max(espera, min(retry_after, settings.aviso_backoff_max_segundos))
    return espera


def retry_after(headers: dict[str, str], agora: datetime) -> float | None:
    value = next((v for k, v in headers.items() if k.lower() == "retry-after"), None)
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        return max(0.0, (parsedate_to_datetime(value) - agora).total_seconds())
    except (TypeError, ValueError):
        return None


@dataclass(slots=True)
class Resposta:
    """What one exchange with an address gave: a status and the start of the body, or an error."""

    status: int | None = None
    corpo: str | None = None
    erro: str | None = None
    duracao_ms: float = 0.0
    cabecalhos: dict[str, str] = field(default_factory=dict)
    falha: str | None = None  # why no answer came (FALHAS); None when the server answered


async def enviar(runtime: Recursos, url: str, corpo: str, cabecalhos: dict[str, str]) -> Resposta:
    started = time.perf_counter()
    try:
        response = await runtime.outbound.request(
            "POST",
            url,
            data=corpo.encode(),
            headers=cabecalhos,
            max_bytes=RESPOSTA_MAX,
            timeout=runtime.settings.aviso_timeout_segundos,
            follow_redirects=False,
            truncate=True,
        )
    except OutboundError as exc:
        return Resposta(
            status=exc.status,
            erro=f"{exc.code}: {exc.detail}"[:300],
            duracao_ms=(time.perf_counter() - started) * 1000,
            falha=None if exc.status is not None else FALHA_DO_CODIGO.get(exc.code, "conexao"),
        )
    return Resposta(
        status=response.status,
        corpo=response.body.decode("utf-8", "replace"),
        cabecalhos=response.headers,
        duracao_ms=(time.perf_counter() - started) * 1000,
    )


async def tentar_entrega(entrega_id: str, runtime: Recursos) -> str:
    """One attempt of a delivery, if it is due and nobody else holds it. Returns the outcome."""
    agora = relogio.agora()
    reserva = secrets.token_hex(8)
    if not await repository.reservar_entrega(entrega_id, agora, reserva):
        return "ignorada"
    entrega = await Entrega.get_or_none(id=entrega_id).select_related("aviso")
    if entrega is None:  # the address was removed meanwhile
        return "ignorada"
    aviso = entrega.aviso
    log_context.bind(integrador_id=aviso.integrador_id)  # on this task's log lines
    if aviso.situacao != "ativo":
        await repository.concluir_entrega(entrega.id, reserva, situacao="falhou", proxima_tentativa_em=None)
        return "falhou"
    cabecalhos = assinatura.cabecalhos(chaves(aviso, runtime.settings, agora), entrega.id, agora, entrega.corpo)
    resposta = await enviar(runtime, aviso.url, entrega.corpo, cabecalhos)
    return await _registrar_tentativa(entrega, aviso, reserva, agora, cabecalhos, resposta, runtime)


async def _registrar_tentativa(
    entrega: Entrega,
    aviso: Aviso,
    reserva: str,
    iniciada_em: datetime,
    cabecalhos: dict[str, str],
    resposta: Resposta,
    runtime: Recursos,
) -> str:
    settings = runtime.settings
    agora = relogio.agora()
    numero = entrega.tentativas  # read after the claim, which counted this attempt
    status = resposta.status
    async with transaction():
        await Tentativa.create(
            entrega_id=entrega.id,
            numero=numero,
            iniciada_em=iniciada_em,
            duracao_ms=round(resposta.duracao_ms, 1),
            status=status,
            resposta=resposta.corpo,
            erro=resposta.erro,
            cabecalhos_enviados=enviados(cabecalhos),
            cabecalhos_resposta=resposta.cabecalhos or None,
            falha=resposta.falha,
        )
        entregue = status is not None and 200 <= status < 300
        if entrega.amostra:  # a sample: this attempt is its outcome, the address health is not touched
            await repository.concluir_entrega(
                entrega.id,
                reserva,
                situacao="entregue" if entregue else "falhou",
                entregue_em=agora if entregue else None,
                ultimo_status=status,
                proxima_tentativa_em=None,
            )
            return "entregue" if entregue else "falhou"
        if entregue:
            await repository.concluir_entrega(
                entrega.id,
                reserva,
                situacao="entregue",
                entregue_em=agora,
                ultimo_status=status,
                proxima_tentativa_em=None,
            )
            if aviso.falhando_desde is not None:  # read before the attempt: the common case skips a write
                await Aviso.filter(id=aviso.id).update(falhando_desde=None, alerta_falha_em=None)
                await alertas.fechar(aviso.integrador_id, aviso.ambiente, "aviso_falhando", aviso.id)
            return "entregue"
        await Aviso.filter(id=aviso.id, falhando_desde__isnull=True).update(falhando_desde=agora)
        if status == 410:
            await repository.concluir_entrega(
                entrega.id, reserva, situacao="falhou", ultimo_status=status, proxima_tentativa_em=None
            )
            await desativar(aviso.id, "O endereço respondeu 410 Gone: ele não quer mais receber avisos.", runtime)
            return "desativado"
        espera = proxima_espera(numero, retry_after(resposta.cabecalhos, agora), settings)
        if espera is None:
            await repository.concluir_entrega(
                entrega.id, reserva, situacao="falhou", ultimo_status=status, proxima_tentativa_em=None
            )
        else:
            await repository.concluir_entrega(
                entrega.id,
                reserva,
                situacao="pendente",
                ultimo_status=status,
                proxima_tentativa_em=agora + timedelta(seconds=espera),
            )
        rows = await Aviso.filter(id=aviso.id).values_list("falhando_desde", flat=True)
        # tortoise types flat values_list rows as tuples
        desde = cast(list[datetime | None], rows)[0] if rows else None
        if desde is not None and agora - desde >= timedelta(hours=settings.aviso_desativar_apos_horas):
            horas = round(settings.aviso_desativar_apos_horas)
            await desativar(aviso.id, f"O endereço falhou sem nenhum sucesso por {horas} horas.", runtime)
            return "desativado"
    return "falhou" if espera is None else "reagendada"


async def listar_entregas(
    principal: Principal, aviso_id: str, page: PageRequest, *, situacao: str | None = None, tipo: str | None = None
) -> tuple[list[Entrega], str | None, dict[str, list[Tentativa]]]:
    aviso = await obter_aviso(principal, aviso_id)
    if situacao is not None:
        exigir_aceito("situacao", situacao, SITUACOES_ENTREGA)
    if tipo is not None:
        exigir_aceito("tipo", tipo, tuple(EVENT_TYPES))
    rows, next_cursor = await paginate(
        consulta_entregas(aviso.id, situacao, tipo), page, escopo=repository.entregas_of(aviso.id)
    )
    return rows, next_cursor, await repository.tentativas_of([e.id for e in rows])


def consulta_entregas(aviso_id: str, situacao: str | None, tipo: str | None = None) -> QuerySet[Entrega]:
    """An address's deliveries before their page: the (aviso, id), (aviso, situacao, id) and
    (aviso, tipo, id) indexes; with both filters, the planner picks one."""
    query = repository.entregas_of(aviso_id)
    if situacao is not None:
        query = query.filter(situacao=situacao)
    if tipo is not None:
        query = query.filter(tipo=tipo)
    return query


async def obter_entrega(principal: Principal, aviso_id: str, entrega_id: str) -> tuple[Entrega, list[Tentativa]]:
    """One delivery of an address with every attempt: the exact body and headers sent, and what
    came back (status, headers, the first 4 KB of the body) or why nothing did."""
    aviso = await obter_aviso(principal, aviso_id)
    entrega = await encontrar(
        entrega_id,
        "ent_",
        repository.entregas_of(aviso.id).filter(id=entrega_id).first,
        f"Entrega {entrega_id} não encontrada neste endereço.",
    )
    return entrega, (await repository.tentativas_of([entrega.id]))[entrega.id]


async def reenviar_entrega(principal: Principal, aviso_id: str, entrega_id: str) -> tuple[Entrega, list[Tentativa]]:
    """Send a delivery again now, same webhook-id and body (a retry waiting for later is
    brought forward). One being sent at this moment is left alone."""
    aviso = await obter_aviso(principal, aviso_id)
    if aviso.situacao != "ativo":
        raise ApiError("NOTICE_ADDRESS_DISABLED")
    entrega = await encontrar(
        entrega_id,
        "ent_",
        repository.entregas_of(aviso.id).filter(id=entrega_id).first,
        f"Entrega {entrega_id} não encontrada neste endereço.",
    )
    agora = relogio.agora()
    changed = await Entrega.filter(id=entrega.id, situacao__in=("entregue", "falhou", "pendente")).update(
        situacao="pendente", proxima_tentativa_em=agora, enfileirada_em=agora
    )
    if changed:
        await enfileirar_envios([entrega.id])
    await entrega.refresh_from_db()
    return entrega, (await repository.tentativas_of([entrega.id]))[entrega.id]
