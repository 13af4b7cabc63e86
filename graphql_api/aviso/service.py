"""Notices (avisos): addresses and their secrets, deliveries of events with retries, test runs.

Every delivery is a row first (written with its event, in the same transaction); a task sends
it and records each attempt. A sweep in every worker process queues the retries that are due,
takes back deliveries whose worker died mid-attempt, re-runs lost test runs and sends the
"failing for 1 hour" alert. A delivery is claimed before it is sent (pendente -> enviando with
a token), so two workers never send it at once and nothing is sent after a 2XX was recorded."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any

from tortoise.exceptions import IntegrityError

from graphql_api.aviso import assinatura, repository
from graphql_api.aviso.models import Aviso, Entrega, RodadaTeste, Tentativa, TesteAviso
from graphql_api.aviso.schemas import NovoAviso, PedidoTeste, Rotacao
from graphql_api.core import relogio
from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.ids import encontrar, new_id
from graphql_api.core.pagination import PageRequest, paginate
from graphql_api.core.permissions import exigir_reautenticacao
from graphql_api.core.principal import Principal
from graphql_api.core.scalars import format_timestamp
from graphql_api.core.tarefas import enfileirar
from graphql_api.core.transactions import after_commit, transaction
from graphql_api.core.validation import validate
from graphql_api.evento.catalog import TEST_EVENT
from graphql_api.integracao import alertas
from graphql_api.integracao import service as integracao
from vitrine.infra.outbound import OutboundError

if TYPE_CHECKING:
    from graphql_api.evento.models import Evento
    from vitrine.runtime import Runtime
    from vitrine.settings import Settings

log = logging.getLogger(__name__)

MAX_AVISOS = 20  # per integrator and environment
SITUACOES_ENTREGA = ("pendente", "enviando", "entregue", "falhou")
RESPOSTA_MAX = 1024  # bytes of an answer kept with each attempt
ALERTA_APOS = timedelta(hours=1)
JITTER = 0.2  # each wait is its nominal value +-20%
TESTE_ATRASO = timedelta(minutes=10)  # age of the timestamp of the old-timestamp test
TESTE_MAX_EXECUCOES = 3
STATUS_RECUSA = (400, 401, 403)  # what a receiver answers to a bad signature or an old timestamp
CASOS_TESTE = ("valida", "assinatura_errada", "timestamp_antigo")
ESPERADO = {"valida": "2XX", "assinatura_errada": "400, 401 ou 403", "timestamp_antigo": "400, 401 ou 403"}


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# ---------------------------------------------------------------- addresses

@dataclass(frozen=True, slots=True)
class Registro:
    aviso: Aviso
    criado: bool
    segredo: str | None  # shown once: on creation and on rotation


def _chave_mestra(settings: Settings) -> bytes:
    return settings.signing_key


async def registrar_aviso(principal: Principal, dados: Any, *, runtime: Runtime) -> Registro:
    """Create or update (by url) a notice address. Re-registering a switched-off url turns it on."""
    novo = validate(NovoAviso, dados)
    try:
        await runtime.outbound.check_destination(novo.url)
    except OutboundError as exc:
        code = "endereco_proibido" if exc.code == "endereco_proibido" else "formato_invalido"
        raise ApiError("VALIDATION_FAILED", fields=[FieldError("url", code, exc.detail)]) from None
    for attempt in range(2):
        try:
            async with transaction():
                return await _store_aviso(principal, novo, runtime)
        except IntegrityError:
            if attempt:  # a concurrent first registration of this url won; retry as an update
                raise
    raise AssertionError("unreachable")


async def _store_aviso(principal: Principal, novo: NovoAviso, runtime: Runtime) -> Registro:
    aviso = await repository.by_url(principal, novo.url)
    if aviso is not None:
        aviso.eventos = novo.eventos
        if aviso.situacao != "ativo":
            aviso.situacao = "ativo"
            aviso.desativado_em = aviso.motivo_desativacao = None
            aviso.falhando_desde = aviso.alerta_falha_em = None
            await alertas.fechar(aviso.integrador_id, aviso.ambiente, ("aviso_falhando", "aviso_desativado"), aviso.id)
        await aviso.save()
        return Registro(aviso, criado=False, segredo=None)
    if await repository.count(principal) >= MAX_AVISOS:
        raise ApiError("NOTICE_ADDRESS_LIMIT_REACHED")
    segredo, chave = assinatura.novo_segredo()
    aviso = await Aviso.create(
        id=new_id("avs_"), integrador_id=principal.integrador_id, ambiente=principal.ambiente.value,
        url=novo.url, eventos=novo.eventos,
        segredo_cifrado=assinatura.cifrar(chave, _chave_mestra(runtime.settings)),
    )
    return Registro(aviso, criado=True, segredo=segredo)


async def obter_aviso(principal: Principal, aviso_id: str) -> Aviso:
    return await encontrar(aviso_id, "avs_", lambda: repository.get_visible(principal, aviso_id), f"Endereço de avisos {aviso_id} não encontrado.")


async def listar_avisos(principal: Principal, page: PageRequest) -> tuple[list[Aviso], str | None]:
    return await paginate(repository.visible(principal), page)


async def remover_aviso(principal: Principal, aviso_id: str) -> None:
    """Remove an address with its deliveries; a delivery in flight finds nothing to record."""
    aviso = await obter_aviso(principal, aviso_id)
    await aviso.delete()


async def rotacionar_segredo(principal: Principal, aviso_id: str, dados: Any, *, runtime: Runtime) -> Registro:
    """A new secret, shown once. During the grace period deliveries carry both signatures.
    In the portal it reveals a secret: the person types the password again first."""
    exigir_reautenticacao(principal)
    pedido = validate(Rotacao, dados or {})
    async with transaction():
        aviso = await obter_aviso(principal, aviso_id)
        segredo, chave = assinatura.novo_segredo()
        if pedido.carenciaHoras:
            aviso.segredo_anterior_cifrado = aviso.segredo_cifrado
            aviso.segredo_anterior_expira_em = relogio.agora() + timedelta(hours=pedido.carenciaHoras)
        else:
            aviso.segredo_anterior_cifrado = aviso.segredo_anterior_expira_em = None
        aviso.segredo_cifrado = assinatura.cifrar(chave, _chave_mestra(runtime.settings))
        await aviso.save()
    return Registro(aviso, criado=False, segredo=segredo)


def _chaves(aviso: Aviso, settings: Settings, agora: datetime) -> list[bytes]:
    """The keys that sign now: the current one, and the previous one during its grace period."""
    mestra = _chave_mestra(settings)
    chaves = [assinatura.decifrar(aviso.segredo_cifrado, mestra)]
    if aviso.segredo_anterior_cifrado and aviso.segredo_anterior_expira_em and aviso.segredo_anterior_expira_em > agora:
        chaves.append(assinatura.decifrar(aviso.segredo_anterior_cifrado, mestra))
    return chaves


# ---------------------------------------------------------------- deliveries


def corpo_do_evento(evento: Evento) -> str:
    return _json(
        {
            "id": evento.id,
            "tipo": evento.tipo,
            "criadoEm": format_timestamp(evento.criado_em),
            "contaId": evento.conta_id,
            "data": evento.dados,
        }
    )


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
            id=new_id("ent_"), aviso_id=aviso.id, evento_id=evento.id, tipo=evento.tipo, corpo=corpo,
            proxima_tentativa_em=agora, enfileirada_em=agora,
        )
        for aviso in avisos
    ]
    await Entrega.bulk_create(entregas)
    ids = [e.id for e in entregas]
    await after_commit(lambda: _enfileirar(ids))
    return ids


async def _enfileirar(entrega_ids: list[str]) -> None:
    for entrega_id in entrega_ids:
        await enfileirar("aviso.entregar", entrega_id)


def agenda_nominal(settings: Settings) -> list[float]:
    """Nominal waits (seconds) after each failed attempt, until they add up to the window."""
    janela = settings.aviso_janela_horas * 3600
    esperas: list[float] = []
    while sum(esperas) < janela:
        esperas.append(min(settings.aviso_backoff_max_segundos, settings.aviso_backoff_base_segundos * settings.aviso_backoff_fator ** len(esperas)))
    return esperas


def proxima_espera(tentativas: int, retry_after: float | None, settings: Settings) -> float | None:
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


async def _enviar(runtime: Runtime, url: str, corpo: str, cabecalhos: dict[str, str]) -> Resposta:
    started = time.perf_counter()
    try:
        response = await runtime.outbound.request(
            "POST", url, data=corpo.encode(), headers=cabecalhos, max_bytes=RESPOSTA_MAX,
            timeout=runtime.settings.aviso_timeout_segundos, follow_redirects=False, truncate=True,
        )
    except OutboundError as exc:
        return Resposta(status=exc.status, erro=f"{exc.code}: {exc.detail}"[:300], duracao_ms=(time.perf_counter() - started) * 1000)
    return Resposta(
        status=response.status, corpo=response.body.decode("utf-8", "replace"), cabecalhos=response.headers,
        duracao_ms=(time.perf_counter() - started) * 1000,
    )


async def tentar_entrega(entrega_id: str, runtime: Runtime) -> str:
    """One attempt of a delivery, if it is due and nobody else holds it. Returns the outcome."""
    agora = relogio.agora()
    reserva = secrets.token_hex(8)
    if not await repository.claim_entrega(entrega_id, agora, reserva):
        return "ignorada"
    entrega = await Entrega.get_or_none(id=entrega_id).select_related("aviso")
    if entrega is None:  # the address was removed meanwhile
        return "ignorada"
    aviso = entrega.aviso
    if aviso.situacao != "ativo":
        await repository.finish_entrega(entrega.id, reserva, situacao="falhou", proxima_tentativa_em=None)
        return "falhou"
    cabecalhos = assinatura.cabecalhos(_chaves(aviso, runtime.settings, agora), entrega.id, agora, entrega.corpo)
    resposta = await _enviar(runtime, aviso.url, entrega.corpo, cabecalhos)
    return await _registrar_tentativa(entrega, aviso, reserva, agora, resposta, runtime)


async def _registrar_tentativa(
    entrega: Entrega, aviso: Aviso, reserva: str, iniciada_em: datetime, resposta: Resposta, runtime: Runtime
) -> str:
    settings = runtime.settings
    agora = relogio.agora()
    numero = entrega.tentativas  # read after the claim, which counted this attempt
    status = resposta.status
    async with transaction():
        await Tentativa.create(
            entrega_id=entrega.id, numero=numero, iniciada_em=iniciada_em, duracao_ms=round(resposta.duracao_ms, 1),
            status=status, resposta=resposta.corpo, erro=resposta.erro,
        )
        if status is not None and 200 <= status < 300:
            await repository.finish_entrega(entrega.id, reserva, situacao="entregue", entregue_em=agora, ultimo_status=status, proxima_tentativa_em=None)
            if aviso.falhando_desde is not None:  # read before the attempt: the common case skips a write
                await Aviso.filter(id=aviso.id).update(falhando_desde=None, alerta_falha_em=None)
                await alertas.fechar(aviso.integrador_id, aviso.ambiente, "aviso_falhando", aviso.id)
            return "entregue"
        await Aviso.filter(id=aviso.id, falhando_desde__isnull=True).update(falhando_desde=agora)
        if status == 410:
            await repository.finish_entrega(entrega.id, reserva, situacao="falhou", ultimo_status=status, proxima_tentativa_em=None)
            await _desativar(aviso.id, "O endereço respondeu 410 Gone: ele não quer mais receber avisos.", runtime)
            return "desativado"
        espera = proxima_espera(numero, retry_after(resposta.cabecalhos, agora), settings)
        if espera is None:
            await repository.finish_entrega(entrega.id, reserva, situacao="falhou", ultimo_status=status, proxima_tentativa_em=None)
        else:
            await repository.finish_entrega(
                entrega.id, reserva, situacao="pendente", ultimo_status=status,
                proxima_tentativa_em=agora + timedelta(seconds=espera),
            )
        desde = (await Aviso.filter(id=aviso.id).values_list("falhando_desde", flat=True) or [None])[0]
        if desde is not None and agora - desde >= timedelta(hours=settings.aviso_desativar_apos_horas):
            horas = round(settings.aviso_desativar_apos_horas)
            await _desativar(aviso.id, f"O endereço falhou sem nenhum sucesso por {horas} horas.", runtime)
            return "desativado"
    return "falhou" if espera is None else "reagendada"


async def _desativar(aviso_id: str, motivo: str, runtime: Runtime) -> None:
    """Switch an address off (once), fail its pending deliveries and tell the integrator."""
    agora = relogio.agora()
    changed = await Aviso.filter(id=aviso_id, situacao="ativo").update(situacao="desativado", desativado_em=agora, motivo_desativacao=motivo)
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


async def _alertar(aviso: Aviso, assunto: str, texto: str, tipo: str, runtime: Runtime) -> None:
    # An open alert in the integration status, e-mailed to the integrator's contacts (for now its
    # registered e-mail) at most once per kind every 6 hours; it closes when the address recovers.
    await alertas.abrir(
        aviso.integrador_id, aviso.ambiente, tipo, aviso.id, assunto.removeprefix("Vitrine: "),
        evidencia={"avisoId": aviso.id, "url": aviso.url}, smtp_url=runtime.settings.smtp_url,
        assunto_email=assunto, texto_email=texto,
    )


async def listar_entregas(
    principal: Principal, aviso_id: str, page: PageRequest, *, situacao: str | None = None
) -> tuple[list[Entrega], str | None, dict[str, list[Tentativa]]]:
    aviso = await obter_aviso(principal, aviso_id)
    query = repository.entregas_of(aviso.id)
    if situacao is not None:
        if situacao not in SITUACOES_ENTREGA:
            raise ApiError(
                "VALIDATION_FAILED",
                fields=[FieldError("situacao", "valor_invalido", f"Valores aceitos: {', '.join(SITUACOES_ENTREGA)}.")],
            )
        query = query.filter(situacao=situacao)
    rows, next_cursor = await paginate(query, page)
    return rows, next_cursor, await repository.tentativas_of([e.id for e in rows])


async def reenviar_entrega(principal: Principal, aviso_id: str, entrega_id: str) -> tuple[Entrega, list[Tentativa]]:
    """Send a delivery again now, same webhook-id and body (a retry waiting for later is
    brought forward). One being sent at this moment is left alone."""
    aviso = await obter_aviso(principal, aviso_id)
    if aviso.situacao != "ativo":
        raise ApiError("NOTICE_ADDRESS_DISABLED")
    entrega = await encontrar(entrega_id, "ent_", repository.entregas_of(aviso.id).filter(id=entrega_id).first,
                              f"Entrega {entrega_id} não encontrada neste endereço.")
    agora = relogio.agora()
    changed = await Entrega.filter(id=entrega.id, situacao__in=("entregue", "falhou", "pendente")).update(
        situacao="pendente", proxima_tentativa_em=agora, enfileirada_em=agora
    )
    if changed:
        await _enfileirar([entrega.id])
    await entrega.refresh_from_db()
    return entrega, (await repository.tentativas_of([entrega.id]))[entrega.id]


# ---------------------------------------------------------------- test deliveries


async def testar(principal: Principal, dados: Any) -> list[TesteAviso]:
    """Queue the three test deliveries (valid, wrong signature, 10-minute-old timestamp)."""
    pedido = validate(PedidoTeste, dados or {})
    if pedido.avisoId is not None:
        aviso = await obter_aviso(principal, pedido.avisoId)
        if aviso.situacao != "ativo":
            raise ApiError("NOTICE_ADDRESS_DISABLED")
    else:
        aviso = await repository.newest_active(principal)
        if aviso is None:
            raise ApiError("NOTICE_ADDRESS_REQUIRED")
    async with transaction():
        rodada = await RodadaTeste.create(
            id=new_id("rod_"), integrador_id=aviso.integrador_id, ambiente=aviso.ambiente, aviso=aviso, url=aviso.url
        )
        testes = [
            await TesteAviso.create(
                id=new_id("tst_"), rodada=rodada, integrador_id=aviso.integrador_id, ambiente=aviso.ambiente, caso=caso
            )
            for caso in CASOS_TESTE
        ]
        await after_commit(lambda: enfileirar("aviso.testar", rodada.id))
    return testes


async def obter_teste(principal: Principal, teste_id: str) -> TesteAviso:
    return await encontrar(teste_id, "tst_", lambda: repository.teste_visible(principal, teste_id), f"Teste de aviso {teste_id} não encontrado.")


async def ultima_rodada(principal: Principal, aviso_id: str | None = None) -> tuple[RodadaTeste, list[TesteAviso]] | None:
    """The latest test run of the caller's environment (of one address, when given) with its
    three tests: the run AVISOS_ASSINATURA is judged on, for the portal to show and poll."""
    if aviso_id is not None:
        aviso_id = (await obter_aviso(principal, aviso_id)).id
    rodada = await repository.latest_rodada(principal.integrador_id, principal.ambiente.value, aviso_id=aviso_id)
    if rodada is None:
        return None
    return rodada, await repository.testes_of(rodada.id)


def veredito(caso: str, status: int | None) -> str:
    if status is None:
        return "falhou"
    if caso == "valida":
        return "passou" if 200 <= status < 300 else "falhou"
    return "passou" if status in STATUS_RECUSA else "falhou"


def _cabecalhos_de_teste(caso: str, teste_id: str, corpo: str, chaves: list[bytes], agora: datetime) -> dict[str, str]:
    if caso == "assinatura_errada":
        return assinatura.cabecalhos([secrets.token_bytes(32)], teste_id, agora, corpo)
    if caso == "timestamp_antigo":
        return assinatura.cabecalhos(chaves, teste_id, agora - TESTE_ATRASO, corpo)
    return assinatura.cabecalhos(chaves, teste_id, agora, corpo)


async def executar_rodada(rodada_id: str, runtime: Runtime) -> bool:
    """Send the pending tests of a run and record the answers. False when the run was not due."""
    if not await repository.claim_rodada(rodada_id, relogio.agora()):
        return False
    rodada = await RodadaTeste.get(id=rodada_id).select_related("aviso")
    pendentes = [t for t in await repository.testes_of(rodada_id) if t.situacao == "pendente"]
    if rodada.aviso is None:
        for teste in pendentes:
            await _concluir_teste(teste, {}, "", Resposta(erro="O endereço foi removido antes do envio."))
    else:
        agora = relogio.agora()
        chaves = _chaves(rodada.aviso, runtime.settings, agora)

        async def enviar(teste: TesteAviso) -> None:
            corpo = _json({"id": new_id("evt_"), "tipo": TEST_EVENT, "criadoEm": format_timestamp(agora), "contaId": None, "data": {"testeId": teste.id}})
            cabecalhos = _cabecalhos_de_teste(teste.caso, teste.id, corpo, chaves, agora)
            await _concluir_teste(teste, cabecalhos, corpo, await _enviar(runtime, rodada.url, corpo, cabecalhos))

        await asyncio.gather(*(enviar(t) for t in pendentes))
    await RodadaTeste.filter(id=rodada_id).update(situacao="concluida", concluida_em=relogio.agora())
    if rodada.ambiente == "teste":
        situacao = await situacao_assinatura(rodada.integrador_id, rodada.ambiente)
        await integracao.registrar_teste_de_avisos(
            rodada.integrador_id, aprovado=situacao.situacao == "ok",
            teste_ids=[t.id for t in situacao.testes], motivo=situacao.ultima_falha,
        )
    return True


async def _concluir_teste(teste: TesteAviso, cabecalhos: dict[str, str], corpo: str, resposta: Resposta) -> None:
    await TesteAviso.filter(id=teste.id, situacao="pendente").update(
        situacao="concluido", cabecalhos_enviados=cabecalhos, corpo_enviado=corpo, status=resposta.status,
        resposta=resposta.corpo, erro=resposta.erro, duracao_ms=round(resposta.duracao_ms, 1),
        veredito=veredito(teste.caso, resposta.status), concluido_em=relogio.agora(),
    )


@dataclass(frozen=True, slots=True)
class SituacaoAssinatura:
    """For the AVISOS_ASSINATURA step: pendente (no address or no finished run), ok, falhou."""

    situacao: str
    verificado_em: datetime | None = None
    testes: list[TesteAviso] = field(default_factory=list)
    ultima_falha: str | None = None


async def situacao_assinatura(integrador_id: str, ambiente: str) -> SituacaoAssinatura:
    """Did the latest POST /avisos/teste run of this integrator and environment pass?"""
    if not await repository.active_for(integrador_id, ambiente):
        return SituacaoAssinatura("pendente", ultima_falha="Nenhum endereço de avisos ativo registrado.")
    rodada = await repository.latest_rodada(integrador_id, ambiente)
    if rodada is None or rodada.situacao != "concluida":
        return SituacaoAssinatura("pendente", ultima_falha=None if rodada else "Nenhum teste de avisos executado.")
    testes = await repository.testes_of(rodada.id)
    falhas = [
        f"{t.caso}: esperado {ESPERADO[t.caso]}, recebido {t.status if t.status is not None else t.erro}"
        for t in testes if t.veredito != "passou"
    ]
    return SituacaoAssinatura(
        "falhou" if falhas else "ok", verificado_em=rodada.concluida_em, testes=testes,
        ultima_falha="; ".join(falhas) or None,
    )


# ---------------------------------------------------------------- the sweep


async def varrer(runtime: Runtime) -> dict[str, int]:
    """Recover what a lost message or a dead worker left behind, queue due retries, alert."""
    settings = runtime.settings
    agora = relogio.agora()
    retomadas = 0
    for row in await repository.stale_in_flight(agora - timedelta(seconds=settings.aviso_em_voo_max_segundos)):
        async with transaction():
            if await repository.finish_entrega(row["id"], row["reserva"], situacao="pendente", proxima_tentativa_em=agora):
                await Tentativa.create(
                    entrega_id=row["id"], numero=row["tentativas"], iniciada_em=row["em_voo_desde"],
                    erro="interrompida: o processo que enviava parou; a entrega foi retomada",
                )
                retomadas += 1
    requeue_before = agora - timedelta(seconds=settings.aviso_reenfileirar_segundos)
    devidas = [
        entrega_id
        for entrega_id in await repository.due_not_queued(agora, requeue_before)
        if await repository.mark_queued(entrega_id, agora, requeue_before)
    ]
    await _enfileirar(devidas)
    await repository.drop_expired_previous_secrets(agora)  # keep only what signing still needs
    rodadas = await _retomar_rodadas(agora - timedelta(seconds=settings.aviso_em_voo_max_segundos))
    alertas = await _alertar_falhas(agora, runtime)
    return {"retomadas": retomadas, "enfileiradas": len(devidas), "rodadas": rodadas, "alertas": alertas}


async def _retomar_rodadas(before: datetime) -> int:
    retomadas = 0
    for rodada in await repository.stale_rodadas(before):
        if rodada.execucoes >= TESTE_MAX_EXECUCOES:
            for teste in await repository.testes_of(rodada.id):
                await _concluir_teste(teste, {}, "", Resposta(erro="O teste não pôde ser executado."))
            await RodadaTeste.filter(id=rodada.id).update(situacao="concluida", concluida_em=relogio.agora())
            continue
        changed = await RodadaTeste.filter(id=rodada.id, situacao=rodada.situacao, execucoes=rodada.execucoes).update(
            situacao="pendente", iniciada_em=relogio.agora()
        )
        if changed:
            await enfileirar("aviso.testar", rodada.id)
            retomadas += 1
    return retomadas


async def _alertar_falhas(agora: datetime, runtime: Runtime) -> int:
    enviados = 0
    for aviso in await repository.failing_without_alert(agora - ALERTA_APOS):
        async with transaction():
            if not await repository.claim_alert(aviso.id, agora - ALERTA_APOS, agora):
                continue
            ultima = await Tentativa.filter(entrega__aviso_id=aviso.id).order_by("-id").first()
            resposta = "sem resposta" if ultima is None else (
                f"HTTP {ultima.status}" if ultima.status is not None else (ultima.erro or "sem resposta")
            )
            texto = (
                f"O endereço de avisos {aviso.url} (ambiente {aviso.ambiente}) está falhando desde "
                f"{format_timestamp(aviso.falhando_desde)}.\n\nÚltima resposta: {resposta}.\n\n"
                "As entregas continuam sendo repetidas com espera crescente por pelo menos 24 horas. "
                "Confira se o servidor responde 2XX a um aviso válido (POST /avisos/teste ajuda) e "
                f"acompanhe as tentativas em GET /avisos/{aviso.id}/entregas. Se continuar falhando por "
                f"{round(runtime.settings.aviso_desativar_apos_horas)} horas, o endereço será desativado.\n\n"
                f"Documentação: {runtime.settings.docs_url}/avisos\n"
            )
            await _alertar(aviso, f"Vitrine: endereço de avisos falhando há 1 hora ({aviso.url})", texto, "aviso_falhando", runtime)
            enviados += 1
    return enviados
