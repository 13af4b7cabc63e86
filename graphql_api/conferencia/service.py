"""The quality check (conferencia) of a product version: admission under the daily limit, the run
(photo intake, screening, rules per media type), its outcome on the product, and the recovery of
checks whose task message or worker was lost.

Lifecycle of a check (docs/conferencia.md):
  agendada -> em_andamento      a slot of the product's daily count frees (the sweep admits it)
  em_andamento -> concluida     the run ends; product aprovado / reprovado; event produto.conferido
  em_andamento -> falhou        the run broke MAX_TENTATIVAS times; product conferencia_falhou
  agendada | em_andamento -> cancelada   a newer version or the deletion of the product"""

from __future__ import annotations

import logging
import math
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from graphql_api.conferencia import regras, repository
from graphql_api.conferencia.catalog import CATALOG
from graphql_api.conferencia.fotos import Recebimento, garantir_miniatura
from graphql_api.conferencia.models import Conferencia
from graphql_api.conferencia.repository import AGENDADA, CANCELADA, CONCLUIDA, EM_ANDAMENTO, FALHOU
from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.ids import encontrar, new_id
from graphql_api.core.principal import Principal
from graphql_api.core.relogio import agora
from graphql_api.core.tarefas import enfileirar
from graphql_api.core.transactions import after_commit, transaction
from graphql_api.evento import service as eventos
from graphql_api.evento.payloads import DadosProdutoConferido
from graphql_api.imagem import service as imagens
from graphql_api.produto import repository as produtos
from graphql_api.produto.models import APROVADO, CONFERENCIA_FALHOU, CONFERINDO, REPROVADO, Produto, ProdutoVersao
from vitrine.infra import log_context

if TYPE_CHECKING:
    from graphql_api.core.recursos import Recursos

log = logging.getLogger(__name__)

MAX_POR_DIA = 10  # check runs per product in any 24 hours, automatic ones included
JANELA = timedelta(hours=24)
MAX_TENTATIVAS = 3  # runs broken by a crash or an unexpected error before the check fails
LEASE = timedelta(minutes=5)  # longer than the slowest possible run (20 photos, timeouts included)
KICK_GRACE = timedelta(minutes=1)  # a check nobody took by then lost its task message
RETRY_BACKOFF = timedelta(seconds=30)
AUTOMATICA, MANUAL = "automatica", "manual"


async def iniciar(produto: Produto, *, origem: str) -> Conferencia:
    """A check of the product's current version. Call inside the transaction that holds the
    product row locked; the task starts after the commit. Past the daily limit an automatic check
    is scheduled for when a slot frees, and a manual one is refused (CHECK_LIMIT_EXCEEDED)."""
    now = agora()
    admitted = await repository.admitidas_desde(produto.id, now - JANELA)
    if len(admitted) < MAX_POR_DIA:
        conferencia = await _create(produto, situacao=EM_ANDAMENTO, origem=origem, admitida_em=now)
        await repository.cancelar_pendentes(produto.id, situacoes=(AGENDADA,))  # an older version's
        await after_commit(lambda: enfileirar("conferencia.executar", conferencia.id))
        return conferencia
    frees_at = admitted[len(admitted) - MAX_POR_DIA] + JANELA
    if origem == MANUAL:
        wait = max(1, math.ceil((frees_at - now).total_seconds()))
        raise ApiError(
            "CHECK_LIMIT_EXCEEDED",
            description=f"O produto {produto.id} já teve {MAX_POR_DIA} conferências nas últimas 24 horas; "
            f"a próxima cabe em {wait} segundos.",
            headers={"Retry-After": str(wait)},
        )
    scheduled = await repository.agendada(produto.id)
    if scheduled is None:
        return await _create(produto, situacao=AGENDADA, origem=origem, executar_em=frees_at)
    scheduled.versao_produto, scheduled.executar_em = produto.versao, frees_at
    await scheduled.save(update_fields=["versao_produto", "executar_em", "atualizado_em"])
    return scheduled


async def _create(produto: Produto, **fields) -> Conferencia:
    return await Conferencia.create(
        id=new_id("cnf_"),
        produto_id=produto.id,
        integrador_id=produto.integrador_id,
        ambiente=produto.ambiente,
        conta_id=produto.conta_id,
        versao_produto=produto.versao,
        **fields,
    )


async def conferir(principal: Principal, produto_id: str, *, refazer: bool = False) -> Conferencia:
    """POST /produtos/{produtoId}/conferencia: the check of the current version, started anew when
    it is missing or failed, or when `refazer` asks for it (after fixing a photo host, say)."""
    async with transaction():
        produto = await encontrar(
            produto_id,
            "prd_",
            lambda: produtos.visible_for_update(principal, produto_id),
            f"Produto {produto_id} não encontrado.",
        )
        conferencia = await repository.atual(produto.id, produto.versao)
        if conferencia is not None and (
            conferencia.situacao in (AGENDADA, EM_ANDAMENTO) or (conferencia.situacao == CONCLUIDA and not refazer)
        ):
            return conferencia
        conferencia = await iniciar(produto, origem=MANUAL)
        if produto.situacao != CONFERINDO:
            produto.situacao = CONFERINDO
            await produto.save(update_fields=["situacao", "atualizado_em"])
        return conferencia


async def ultima(principal: Principal, produto_id: str) -> Conferencia | None:
    """The latest check of the product's current version, whatever its situacao (portal)."""
    produto = await encontrar(
        produto_id,
        "prd_",
        produtos.visible(principal).filter(id=produto_id).first,
        f"Produto {produto_id} não encontrado.",
    )
    return await repository.atual(produto.id, produto.versao)


def consultar_novamente_em(conferencia: Conferencia) -> datetime | None:
    """When a caller should ask again: the expected end of a running check, or the start of a
    scheduled one plus its run."""
    if conferencia.situacao == AGENDADA and conferencia.executar_em is not None:
        return conferencia.executar_em + timedelta(seconds=5)
    if conferencia.situacao == EM_ANDAMENTO:
        return agora() + timedelta(seconds=2)
    return None


async def executar(conferencia_id: str, runtime: Recursos) -> str | None:
    """The task body: run one check if no other worker holds it. Returns the final situacao."""
    now = agora()
    if not await repository.reservar(conferencia_id, now, now + LEASE):
        return None
    conferencia = await Conferencia.get(id=conferencia_id)
    log_context.bind(integrador_id=conferencia.integrador_id)  # on this task's log lines
    produto = await Produto.get(id=conferencia.produto_id)
    if produto.excluido_em is not None or produto.versao != conferencia.versao_produto:
        await _set(conferencia, situacao=CANCELADA, reservada_ate=None)
        return CANCELADA
    try:
        versao = await ProdutoVersao.get(produto_id=produto.id, versao=conferencia.versao_produto)
        ficha = versao.ficha
        imagens = ficha.get("imagens", [])
        recebimento = Recebimento(
            produto.id,
            outbound=runtime.outbound,
            storage=runtime.storage,
            pool=runtime.photo_pool,
            timeout=runtime.settings.foto_timeout_seconds,
        )
        recebidas = await recebimento.receber_todas([im["url"] for im in imagens])
        itens = regras.triar(imagens, recebidas)
        resultados = regras.avaliar(ficha, itens)
        fotos = [await _foto_publica(produto, item, recebidas, runtime) for item in itens]
    except Exception as exc:
        log.exception("check %s broke (attempt %d)", conferencia_id, conferencia.tentativas)
        return await _broken(conferencia, f"{type(exc).__name__}: {exc}")
    return await _conclude(conferencia, fotos, resultados)


async def _foto_publica(produto: Produto, item, recebidas, runtime: Recursos) -> dict:
    """The public entry of a photo; an approved one gets an img_ id (it can be edited and used by
    generations), stable while its content does not change. Every decoded photo keeps the storage
    key of its thumbnail (`miniatura`, internal: the portal shows it through a signed link)."""
    publico = item.publico()
    foto = recebidas[item.url].foto
    if foto is not None:
        publico["miniatura"] = await garantir_miniatura(runtime.storage, runtime.photo_pool, foto)
    if item.aprovada and foto is not None:
        imagem = await imagens.registrar(
            integrador_id=produto.integrador_id,
            ambiente=produto.ambiente,
            conta_id=produto.conta_id,
            produto_id=produto.id,
            geracao_id=None,
            origem="foto",
            arquivo=foto.arquivo,
            largura=item.medidas.largura,
            altura=item.medidas.altura,
        )
        publico["id"] = imagem.id
    return publico


async def _conclude(conferencia: Conferencia, fotos: list[dict], resultados: list[dict]) -> str:
    async with transaction():
        produto = await produtos.travar(conferencia.produto_id)
        current = await Conferencia.get(id=conferencia.id)
        if current.situacao != EM_ANDAMENTO:  # cancelled while it ran
            return current.situacao
        if produto.excluido_em is not None:
            await _set(current, situacao=CANCELADA, reservada_ate=None)
            return CANCELADA
        await _set(
            current,
            situacao=CONCLUIDA,
            fotos=fotos,
            resultados=resultados,
            concluida_em=agora(),
            reservada_ate=None,
            erro=None,
        )
        if produto.versao == current.versao_produto:
            produto.situacao = APROVADO if any(r["aprovado"] for r in resultados) else REPROVADO
            produto.fotos = fotos
            await produto.save(update_fields=["situacao", "fotos", "atualizado_em"])
            await eventos.registrar(
                "produto.conferido",
                integrador_id=produto.integrador_id,
                ambiente=produto.ambiente,
                conta_id=produto.conta_id,
                dados=dados_do_evento(produto, current),
            )
    return CONCLUIDA


def dados_do_evento(produto: Produto, conferencia: Conferencia) -> DadosProdutoConferido:
    return DadosProdutoConferido.model_validate(
        {
            "produto": {
                "id": produto.id,
                "contaId": produto.conta_id,
                "codigo": produto.codigo,
                "situacao": produto.situacao,
                "versao": produto.versao,
            },
            "conferencia": {
                "id": conferencia.id,
                "produtoId": produto.id,
                "versaoProduto": conferencia.versao_produto,
                "situacao": conferencia.situacao,
                "resultados": conferencia.resultados,
            },
        }
    )


async def _broken(conferencia: Conferencia, erro: str) -> str:
    """An unexpected failure: retried by the sweep after a pause, failed after MAX_TENTATIVAS."""
    if conferencia.tentativas < MAX_TENTATIVAS:
        await _set(conferencia, erro=erro[:2000], reservada_ate=agora() + RETRY_BACKOFF * conferencia.tentativas)
        return EM_ANDAMENTO
    await _fail(conferencia.id, erro)
    return FALHOU


async def _fail(conferencia_id: str, erro: str) -> None:
    async with transaction():
        conferencia = await Conferencia.get(id=conferencia_id)
        produto = await produtos.travar(conferencia.produto_id)
        if conferencia.situacao != EM_ANDAMENTO:
            return
        await _set(conferencia, situacao=FALHOU, erro=erro[:2000], reservada_ate=None, concluida_em=agora())
        if produto.versao == conferencia.versao_produto and produto.excluido_em is None:
            produto.situacao = CONFERENCIA_FALHOU
            await produto.save(update_fields=["situacao", "atualizado_em"])


async def _set(conferencia: Conferencia, **values) -> None:
    for name, value in values.items():
        setattr(conferencia, name, value)
    await conferencia.save(update_fields=[*values, "atualizado_em"])


async def varrer() -> dict[str, int]:
    """The recovery sweep (periodic, and at start-up): admits scheduled checks whose slot freed,
    re-kicks running checks nobody works on, and fails those that broke too often."""
    now = agora()
    admitted = kicked = failed = 0
    for conferencia_id in await repository.agendadas_vencidas(now):
        admitted += await _admit_scheduled(conferencia_id)
    for conferencia in await repository.paradas(now, now - KICK_GRACE):
        if conferencia.tentativas >= MAX_TENTATIVAS:
            await _fail(conferencia.id, conferencia.erro or "O processamento foi interrompido repetidamente.")
            failed += 1
        else:
            await enfileirar("conferencia.executar", conferencia.id)
            kicked += 1
    return {"admitidas": admitted, "reenviadas": kicked, "falhas": failed}


async def _admit_scheduled(conferencia_id: str) -> int:
    async with transaction():
        conferencia = await Conferencia.get(id=conferencia_id)
        produto = await produtos.travar(conferencia.produto_id)
        if conferencia.situacao != AGENDADA:
            return 0
        if produto.excluido_em is not None:
            await _set(conferencia, situacao=CANCELADA)
            return 0
        now = agora()
        admitted = await repository.admitidas_desde(produto.id, now - JANELA)
        if len(admitted) >= MAX_POR_DIA:
            await _set(conferencia, executar_em=admitted[len(admitted) - MAX_POR_DIA] + JANELA)
            return 0
        await _set(conferencia, situacao=EM_ANDAMENTO, admitida_em=now, versao_produto=produto.versao, executar_em=None)
        await after_commit(lambda: enfileirar("conferencia.executar", conferencia_id))
        return 1


async def conferir_versao_nova(produto: Produto) -> Conferencia:
    """The automatic check of a product's new version (graphql_api/produto/service.versao_nova)."""
    return await iniciar(produto, origem=AUTOMATICA)


async def cancelar(produto_id: str) -> None:
    """The product was deleted: its pending checks will never matter."""
    await repository.cancelar_pendentes(produto_id)


async def resultado_para_pedido(produto: Produto, tipo: str) -> tuple[Conferencia, dict]:
    """The finished check of the product's current version and its result for one media type,
    when that type may be ordered: 409 CHECK_NOT_READY or MEDIA_TYPE_NOT_APPROVED otherwise."""
    conferencia = await repository.atual(produto.id, produto.versao)
    if conferencia is None or conferencia.situacao != CONCLUIDA:
        raise ApiError(
            "CHECK_NOT_READY",
            description=f"A conferência da versão {produto.versao} do produto {produto.id} ainda não terminou.",
            headers={"Retry-After": "5"},
        )
    resultado = next((r for r in conferencia.resultados or [] if r["tipo"] == tipo), None)
    if resultado is None or not resultado["aprovado"]:
        bloqueios = [p for p in (resultado or {}).get("pendencias", []) if p["severidade"] == "bloqueio"]
        raise ApiError(
            "MEDIA_TYPE_NOT_APPROVED",
            description=f"A conferência reprovou {tipo} para o produto {produto.id}.",
            fields=[FieldError(p["campo"], p["codigo"], CATALOG[p["codigo"]].correcao) for p in bloqueios],
        )
    return conferencia, resultado


def fotos_aprovadas(conferencia: Conferencia) -> list[dict]:
    """The approved photos the check saw, with their img_ ids, in ordem."""
    return [f for f in conferencia.fotos or [] if f["situacao"] == "aprovada" and f.get("id")]
