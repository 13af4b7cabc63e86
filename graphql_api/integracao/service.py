"""Integration steps and production access.

Steps are judged from what really happened in `teste`, as it happens: the call log hands every
written batch of calls to `registrar_chamadas` (keys, accounts, idempotency, 429s) and domain
events reach `registrar_evento` (products checked, generations finished). Each step keeps its
verdict, evidence and the facts it depends on in its row, so nothing rescans the log and a
restart loses nothing. Production is released automatically once all 8 are ok."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from graphql_api.aviso.testes import RodadaConcluida
from graphql_api.chamada import repository as chamadas
from graphql_api.chamada.writer import TipoChamada
from graphql_api.core.alertas import NovoAlerta
from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.principal import Ambiente, Principal
from graphql_api.core.relogio import agora
from graphql_api.core.scalars import format_timestamp
from graphql_api.core.transactions import transaction
from graphql_api.integracao import alertas, repository
from graphql_api.integracao.etapas import ETAPAS
from graphql_api.integracao.models import Espera429, EtapaIntegracao
from graphql_api.integrador.models import Integrador

IDEMPOTENCY_WINDOW = timedelta(days=7)
ERROR_RATE_WINDOW = timedelta(minutes=15)
ERROR_RATE_MIN_CALLS = 50
ERROR_RATE_THRESHOLD = 0.20


def _ts(value: datetime) -> str:
    return format_timestamp(value)


async def _row(integrador_id: str, codigo: str) -> EtapaIntegracao:
    row, _ = await EtapaIntegracao.get_or_create(integrador_id=integrador_id, codigo=codigo)
    return row


async def _etapa_travada(integrador_id: str, codigo: str) -> EtapaIntegracao:
    return await repository.travar_etapa(integrador_id, codigo) or await _row(integrador_id, codigo)


async def _succeed(integrador_id: str, codigo: str, evidencia: dict[str, str], when: datetime) -> None:
    async with transaction():
        row = await _etapa_travada(integrador_id, codigo)
        row.situacao, row.verificado_em, row.evidencia = "ok", when, evidencia
        await row.save()


async def _fail(
    integrador_id: str, codigo: str, motivo: str, evidencia: dict[str, str], when: datetime, *, keep_ok: bool = False
) -> None:
    async with transaction():
        row = await _etapa_travada(integrador_id, codigo)
        if keep_ok and row.situacao == "ok":
            return
        row.situacao, row.verificado_em, row.evidencia = "falhou", when, evidencia
        row.ultima_falha, row.falhou_em = motivo, when
        await row.save()


class _OkCache:
    """Steps already ok whose condition cannot be undone: skip the database for them."""

    def __init__(self) -> None:
        self._done: set[tuple[str, str]] = set()

    def __contains__(self, key: tuple[str, str]) -> bool:
        return key in self._done

    def add(self, key: tuple[str, str]) -> None:
        if len(self._done) > 200_000:
            self._done.clear()
        self._done.add(key)

    def forget(self, integrador_id: str) -> None:
        self._done = {key for key in self._done if key[0] != integrador_id}


_permanent_ok = _OkCache()

# Published when an integrator's steps start over (test data cleared): every process forgets the
# steps it holds as done for good, or a new first call would never be judged again.
ETAPAS_TOPIC = "etapas:"


def on_bus(topic: str) -> None:
    if topic.startswith(ETAPAS_TOPIC):
        _permanent_ok.forget(topic.removeprefix(ETAPAS_TOPIC))


async def esquecer_etapas(integrador_id: str, bus) -> None:
    await bus.publish(ETAPAS_TOPIC + integrador_id)


async def _succeed_once(integrador_id: str, codigo: str, evidencia: dict[str, str], when: datetime) -> None:
    if (integrador_id, codigo) in _permanent_ok:
        return
    await _succeed(integrador_id, codigo, evidencia, when)
    _permanent_ok.add((integrador_id, codigo))


# -- calls --------------------------------------------------------------------------------------


async def registrar_chamadas(batch: list, *, smtp_url: str | None = None) -> None:
    """Judge the call-based steps from a batch of logged calls (graphql_api.chamada.writer)."""
    tests = sorted(
        (r for r in batch if r.ambiente == Ambiente.TESTE.value and r.credencial == "api_key"),
        key=lambda r: r.criado_em,
    )
    for r in tests:
        if 200 <= r.status < 300:
            await _succeed_once(r.integrador_id, "CHAVE_E_PRIMEIRA_CHAMADA", {"requestId": r.id}, r.criado_em)
        if r.tipo is TipoChamada.CRIA_SUBCONTA and r.status == 201 and not r.replay:
            await _succeed_once(r.integrador_id, "SUBCONTA_CRIADA", {"requestId": r.id}, r.criado_em)
        # Only credit-spending calls judge the missing key (POST /recargas requires it too, as a
        # purchase, but is not what the step is about); any safe repeat counts.
        if (r.codigo_erro == "IDEMPOTENCY_KEY_REQUIRED" and r.tipo is TipoChamada.GASTA_CREDITOS) or r.replay:
            await _note_idempotency(r)
    await _judge_429s(tests)
    await _judge_error_rates(batch, smtp_url)


async def _note_idempotency(r) -> None:
    async with transaction():
        row = await _etapa_travada(r.integrador_id, "IDEMPOTENCIA")
        fact = {"em": _ts(r.criado_em), "requestId": r.id, "endpoint": r.endpoint}
        estado = dict(row.estado or {})
        estado["ultimaSemChave" if r.codigo_erro == "IDEMPOTENCY_KEY_REQUIRED" else "ultimaRepeticao"] = fact
        row.estado = estado
        _apply_idempotency(row, r.criado_em)
        await row.save()


def _apply_idempotency(row: EtapaIntegracao, now: datetime) -> None:
    """IDEMPOTENCIA: failed while a credit-spending POST without the key is < 7 days old;
    otherwise ok once a repeat was answered with Idempotent-Replayed: true."""
    estado = row.estado or {}
    missing, repeat = estado.get("ultimaSemChave"), estado.get("ultimaRepeticao")
    if missing and now - _parse(missing["em"]) < IDEMPOTENCY_WINDOW:
        row.situacao = "falhou"
        row.evidencia = {"requestId": missing["requestId"]}
        row.ultima_falha = (
            f"POST {missing['endpoint']} chegou sem Idempotency-Key (requestId {missing['requestId']}); "
            "a etapa volta a ok 7 dias depois da última chamada assim."
        )
        row.falhou_em = _parse(missing["em"])
        row.verificado_em = _parse(missing["em"])
    elif repeat:
        row.situacao = "ok"
        row.evidencia = {"requestId": repeat["requestId"]}
        row.verificado_em = _parse(repeat["em"])
    else:
        row.situacao = "pendente"


def _parse(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


async def _judge_429s(tests: list) -> None:
    """LIMITE_429: after a 429, the next call with the same key must arrive after Retry-After."""
    keys = {r.chave_id for r in tests if r.chave_id}
    if not keys:
        return
    waiting = {e.chave_id: e for e in await repository.esperas_of(keys)}
    for r in tests:
        espera = waiting.get(r.chave_id)
        if espera is not None and espera.request_id != r.id:
            early = (espera.ate - r.criado_em).total_seconds()
            if early > 0:
                await _fail(
                    r.integrador_id,
                    "LIMITE_429",
                    f"A chamada {r.id} chegou {early:.1f} s antes do fim do Retry-After do 429 {espera.request_id}.",
                    {"requestId": r.id},
                    r.criado_em,
                )
            else:
                await _succeed(r.integrador_id, "LIMITE_429", {"requestId": r.id}, r.criado_em)
            await Espera429.filter(id=espera.id).delete()
            del waiting[r.chave_id]
        # Only the per-minute limit counts: a product's daily check limit (CHECK_LIMIT_EXCEEDED)
        # answers 429 too, but its Retry-After is about that product, not about the key.
        if r.status == 429 and r.codigo_erro == "TOO_MANY_REQUESTS" and r.retry_after is not None:
            answered = r.criado_em + timedelta(milliseconds=r.duracao_ms)
            until = answered + timedelta(seconds=r.retry_after)
            await repository.drop_esperas_of(r.chave_id)
            waiting[r.chave_id] = await Espera429.create(
                integrador_id=r.integrador_id, chave_id=r.chave_id, ate=until, request_id=r.id
            )


# Error-rate alerts are re-judged at most once a minute per integrator and environment.
_last_rate_check: dict[tuple[str, str], datetime] = {}


async def _judge_error_rates(batch: list, smtp_url: str | None) -> None:
    now = agora()
    for integrador_id, ambiente in {(r.integrador_id, r.ambiente) for r in batch}:
        key = (integrador_id, ambiente)
        last = _last_rate_check.get(key)
        if last is not None and now - last < timedelta(minutes=1):
            continue
        _last_rate_check[key] = now
        total, errors = await chamadas.count_since(integrador_id, ambiente, now - ERROR_RATE_WINDOW)
        if total >= ERROR_RATE_MIN_CALLS and errors / total > ERROR_RATE_THRESHOLD:
            await alertas.abrir(
                NovoAlerta(
                    integrador_id,
                    ambiente,
                    "taxa_de_erros",
                    "chamadas",
                    f"{errors} de {total} chamadas ({errors / total:.0%}) dos últimos 15 minutos responderam 4xx/5xx. "
                    "Veja GET /v1/integracao/erros para os tipos mais frequentes.",
                    evidencia={"total": total, "erros": errors},
                    smtp_url=smtp_url,
                    now=now,
                )
            )
        else:
            await alertas.fechar(integrador_id, ambiente, "taxa_de_erros", "chamadas")


# -- events and other proofs --------------------------------------------------------------------


async def registrar_evento(evento) -> None:
    """Judge the event-based steps: a check approved something, a test generation finished. A
    sample (POST /avisos/disparos) is delivered like any event but proves nothing."""
    if evento.amostra or evento.ambiente != Ambiente.TESTE.value:
        return
    when = evento.criado_em or agora()
    proof = {"eventId": evento.id}
    if evento.tipo == "produto.conferido":
        conferencia = (evento.dados or {}).get("conferencia") or {}
        if any(r.get("aprovado") for r in conferencia.get("resultados") or []):
            await _succeed(evento.integrador_id, "PRODUTO_APROVADO", proof, when)
        else:
            await _fail(
                evento.integrador_id,
                "PRODUTO_APROVADO",
                f"A conferência do produto {conferencia.get('produtoId')} reprovou todos os tipos de mídia; "
                f"veja as pendências em POST /v1/produtos/{conferencia.get('produtoId')}/conferencia.",
                proof,
                when,
                keep_ok=True,
            )
    elif evento.tipo in ("geracao.concluida", "geracao.falhou"):
        dados = evento.dados or {}
        codigo = (
            "GALERIA_TESTE"
            if dados.get("tipo") == "galeria"
            else "VIDEO_TESTE"
            if str(dados.get("tipo", "")).startswith("video")
            else None
        )
        if codigo is None:
            return
        proof = {"eventId": evento.id, "geracaoId": dados.get("id") or dados.get("geracaoId")}
        if evento.tipo == "geracao.concluida":
            await _succeed(evento.integrador_id, codigo, proof, when)
        else:
            await _fail(
                evento.integrador_id,
                codigo,
                f"A geração {proof['geracaoId']} falhou: {dados.get('motivo', 'veja GET /v1/geracoes/{id}')}.",
                proof,
                when,
                keep_ok=True,
            )


async def registrar_rodada_de_avisos(rodada: RodadaConcluida) -> None:
    """AVISOS_ASSINATURA, from a finished POST /avisos/teste run of the test environment."""
    await registrar_teste_de_avisos(
        rodada.integrador_id, aprovado=rodada.aprovado, teste_ids=rodada.teste_ids, motivo=rodada.motivo
    )


async def registrar_teste_de_avisos(
    integrador_id: str, *, aprovado: bool, teste_ids: list[str], motivo: str | None
) -> None:
    """AVISOS_ASSINATURA, from the three deliveries of a POST /avisos/teste run."""
    proof = {"eventId": ",".join(teste_ids)}
    if aprovado:
        await _succeed(integrador_id, "AVISOS_ASSINATURA", proof, agora())
    else:
        await _fail(
            integrador_id,
            "AVISOS_ASSINATURA",
            motivo or "As entregas de teste não foram respondidas como esperado.",
            proof,
            agora(),
        )


# -- status and production access --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EtapaStatus:
    codigo: str
    situacao: str
    verificado_em: datetime | None
    evidencia: dict[str, Any] | None
    ultima_falha: str | None
    como_concluir: str
    titulo: str


@dataclass(frozen=True, slots=True)
class StatusIntegracao:
    ambiente: str
    etapas: list[EtapaStatus]
    producao_situacao: str
    producao_liberacao: str | None
    producao_motivo: str
    producao_liberada_em: datetime | None
    alertas: list

    @property
    def concluidas(self) -> int:
        return sum(1 for e in self.etapas if e.situacao == "ok")

    @property
    def pendentes(self) -> list[EtapaStatus]:
        return [e for e in self.etapas if e.situacao != "ok"]


def _motivo(integrador: Integrador, pendentes: list[EtapaStatus]) -> str:
    if integrador.producao_situacao == "suspensa":
        return integrador.producao_motivo or "Acesso de produção suspenso pelo serviço."
    if integrador.producao_situacao == "liberada":
        return "Produção liberada automaticamente: as 8 etapas foram concluídas."
    if pendentes:
        return "Faltam etapas: " + ", ".join(e.codigo for e in pendentes) + "."
    return "Todas as etapas estão ok: peça a liberação em POST /v1/integracao/pedido-producao."


async def status(principal: Principal, *, now: datetime | None = None) -> StatusIntegracao:
    now = now or agora()
    integrador = await Integrador.get(id=principal.integrador_id)
    rows = {r.codigo: r for r in await repository.etapas_of(integrador.id)}
    etapas = []
    for etapa in ETAPAS:
        row = rows.get(etapa.codigo)
        if row is not None and etapa.codigo == "IDEMPOTENCIA":
            _apply_idempotency(row, now)  # the 7-day window moves with time, not with calls
        etapas.append(
            EtapaStatus(
                codigo=etapa.codigo,
                situacao=row.situacao if row else "pendente",
                verificado_em=row.verificado_em if row else None,
                evidencia=row.evidencia if row else None,
                ultima_falha=row.ultima_falha if row else None,
                como_concluir=etapa.como_concluir,
                titulo=etapa.titulo,
            )
        )
    pendentes = [e for e in etapas if e.situacao != "ok"]
    return StatusIntegracao(
        ambiente=principal.ambiente.value,
        etapas=etapas,
        producao_situacao=integrador.producao_situacao,
        producao_liberacao=integrador.producao_liberacao,
        producao_motivo=_motivo(integrador, pendentes),
        producao_liberada_em=integrador.producao_liberada_em,
        alertas=await alertas.abertos(integrador.id, principal.ambiente.value),
    )


async def pedir_producao(principal: Principal) -> StatusIntegracao:
    """All 8 ok: released at once (automatica). Repeating it returns the same access."""
    current = await status(principal)
    if current.producao_situacao == "suspensa":
        raise ApiError("FORBIDDEN", description=current.producao_motivo)
    if current.producao_situacao == "liberada":
        return current
    if current.pendentes:
        raise ApiError(
            "INTEGRATION_STEPS_PENDING",
            fields=[FieldError("etapas", e.codigo, e.como_concluir) for e in current.pendentes],
        )
    assert principal.integrador_id is not None  # status() above answered for this integrator
    await repository.release_production(principal.integrador_id, agora())
    return await status(principal)
