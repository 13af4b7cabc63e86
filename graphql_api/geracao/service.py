"""Generations: media orders and their lifecycle.

    na_fila --(a worker claims it)--> processando --> concluida | parcial | falhou

Creating one reserves its credits in the same transaction (and is tied to its Idempotency-Key,
so a retry after a timeout finds it instead of creating a twin). A task renders it with the
renderers of graphql_api.geracao.render, keeping a lease alive while it works; settling captures
the credits of what was delivered and releases the rest. A worker that dies leaves its lease to
expire: the sweep puts the generation back in the queue (up to MAX_ATTEMPTS) or fails it, so
nothing stays stuck."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tortoise.exceptions import IntegrityError

from graphql_api.conferencia import service as conferencias
from graphql_api.conferencia.models import Conferencia
from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.ids import encontrar, new_id
from graphql_api.core.pagination import PageRequest, paginate
from graphql_api.core.principal import Principal
from graphql_api.core.relogio import agora
from graphql_api.core.tarefas import enfileirar
from graphql_api.core.transactions import after_commit, transaction
from graphql_api.core.validation import validate
from graphql_api.creditos import service as creditos
from graphql_api.creditos.precos import custo
from graphql_api.evento import service as eventos
from graphql_api.evento.payloads import DadosGeracaoConcluida, DadosGeracaoFalhou
from graphql_api.geracao import render, repository
from graphql_api.geracao.models import Geracao
from graphql_api.geracao.repository import CONCLUIDA, FALHOU, NA_FILA, PARCIAL, PROCESSANDO
from graphql_api.geracao.schemas import NovaGaleria, NovoVideo, parse_edicao
from graphql_api.imagem import service as imagens
from graphql_api.imagem.models import Imagem
from graphql_api.produto import repository as produtos
from graphql_api.produto.models import Produto, ProdutoVersao
from vitrine.infra import log_context
from vitrine.infra.cpu import WorkerCrashed

if TYPE_CHECKING:
    from graphql_api.core.recursos import Recursos

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 3
LEASE = timedelta(seconds=60)  # renewed every HEARTBEAT while a worker renders
HEARTBEAT = 15
REQUEUE_AFTER = timedelta(seconds=30)  # a queued generation nobody claimed: its task was lost

# API video tipo -> the media type of the quality check and of the price table
TIPO_GERACAO_VIDEO = {"apresentacao": "video_apresentacao", "cinepremium": "video_cinepremium"}


# -- creation ------------------------------------------------------------------------------------


async def obter_geracao(principal: Principal, geracao_id: str) -> Geracao:
    return await encontrar(
        geracao_id,
        "ger_",
        lambda: repository.get_visible(principal, geracao_id),
        f"Geração {geracao_id} não encontrada.",
    )


async def listar_geracoes(
    principal: Principal, page: PageRequest, *, produto_id: str | None = None
) -> tuple[list[Geracao], str | None]:
    """The caller's generations, newest first; of one product when `produto_id` is given."""
    return await paginate(repository.of_caller(principal, produto_id=produto_id), page)


async def _produto(principal: Principal, produto_id: str) -> Produto:
    return await encontrar(
        produto_id,
        "prd_",
        produtos.visible(principal).filter(id=produto_id).first,
        f"Produto {produto_id} não encontrado.",
    )


async def criar_galeria(principal: Principal, dados: Any, *, idempotency_key: str | None) -> Geracao:
    pedido = validate(NovaGaleria, dados)
    produto = await _produto(principal, pedido.produtoId)
    conferencia, resultado = await conferencias.resultado_para_pedido(produto, "galeria")
    aprovadas = resultado.get("quantidadesAprovadas") or []
    if pedido.quantidadeImagens not in aprovadas:
        raise ApiError(
            "VALIDATION_FAILED",
            fields=[
                FieldError(
                    "quantidadeImagens",
                    "valor_invalido",
                    f"Esta ficha permite galerias de {', '.join(map(str, aprovadas))} imagens (conferência {conferencia.id}).",
                )
            ],
        )
    return await _criar(
        principal,
        produto,
        tipo="galeria",
        unidades=pedido.quantidadeImagens,
        idempotency_key=idempotency_key,
        pedido={
            "produtoId": produto.id,
            "versaoProduto": produto.versao,
            "conferenciaId": conferencia.id,
            "quantidadeImagens": pedido.quantidadeImagens,
        },
    )


async def criar_video(principal: Principal, dados: Any, *, idempotency_key: str | None) -> Geracao:
    pedido = validate(NovoVideo, dados)
    produto = await _produto(principal, pedido.produtoId)
    tipo = TIPO_GERACAO_VIDEO[pedido.tipo]
    conferencia, _ = await conferencias.resultado_para_pedido(produto, tipo)
    formatos = len(render.video.SPECS[pedido.tipo].formats["producao"])
    return await _criar(
        principal,
        produto,
        tipo=tipo,
        unidades=formatos,
        idempotency_key=idempotency_key,
        pedido={
            "produtoId": produto.id,
            "versaoProduto": produto.versao,
            "conferenciaId": conferencia.id,
            "tipo": pedido.tipo,
            "avatar": pedido.avatar,
        },
    )


async def criar_edicao(principal: Principal, imagem_id: str, dados: Any, *, idempotency_key: str | None) -> Geracao:
    imagem = await imagens.obter(principal, imagem_id)
    edicao = parse_edicao(dados)
    produto = await Produto.get_or_none(id=imagem.produto_id) if imagem.produto_id else None
    return await _criar(
        principal,
        produto,
        tipo="edicao_imagem",
        unidades=1,
        idempotency_key=idempotency_key,
        pedido={"imagemId": imagem.id, "operacoes": edicao.model_dump(mode="json")["operacoes"]},
        conta_id=imagem.conta_id,
    )


async def _criar(
    principal: Principal,
    produto: Produto | None,
    *,
    tipo: str,
    unidades: int,
    pedido: dict,
    idempotency_key: str | None,
    conta_id: str | None = None,
) -> Geracao:
    creditos_reservados = custo(tipo, unidades)
    assert principal.integrador_id is not None  # geracoes:criar is held only by integrators
    scope: dict[str, Any] = {"integrador_id": principal.integrador_id, "ambiente": principal.ambiente.value}
    try:
        async with transaction():
            if idempotency_key and (existing := await Geracao.get_or_none(**scope, chave_idempotencia=idempotency_key)):
                return existing
            geracao = await Geracao.create(
                id=new_id("ger_"),
                **scope,
                conta_id=produto.conta_id if produto else conta_id,
                produto_id=produto.id if produto else None,
                tipo=tipo,
                situacao=NA_FILA,
                etapa=NA_FILA,
                creditos_reservados=creditos_reservados,
                pedido=pedido,
                chave_idempotencia=idempotency_key,
                enfileirada_em=agora(),
            )
            await creditos.reservar(
                principal.integrador_id,
                principal.ambiente.value,
                geracao.id,
                creditos_reservados,
                f"Reserva de {creditos_reservados} créditos: {tipo} ({unidades} × {custo(tipo, 1)}).",
            )
            await after_commit(lambda: enfileirar("geracao.renderizar", geracao.id))
    except IntegrityError:
        # A concurrent request with the same Idempotency-Key created it first: one generation.
        existing = await Geracao.get_or_none(**scope, chave_idempotencia=idempotency_key) if idempotency_key else None
        if existing is None:
            raise
        return existing
    return geracao


# -- rendering -----------------------------------------------------------------------------------


@dataclass(slots=True)
class _Saidas:
    """What a render delivered, as stored in resultados, and what failed."""

    resultados: dict
    unidades: int  # delivered outputs, in the price table's unit
    falhas: list[dict]


async def _progress(geracao_id: str, etapa: str, percentual: int) -> None:
    await repository.record_progress(geracao_id, etapa, percentual)


async def _claim(geracao_id: str, now: datetime) -> bool:
    """Take the generation for this worker: queued, or processing with an expired lease."""
    return await repository.reservar(geracao_id, now, now + LEASE)


async def _keep_lease(geracao_id: str) -> None:
    while True:
        await asyncio.sleep(HEARTBEAT)
        await repository.extend_lease(geracao_id, agora() + LEASE)


def _dropped(geracao_id: str) -> None:
    """ "Limpar dados de teste" deleted the generation while a worker rendered it (its
    reservation went back to the wallet then): an expected end, with nothing to settle or retry."""
    log.info("generation %s was deleted while it rendered (test data cleared); dropped", geracao_id)


async def renderizar(geracao_id: str, runtime: Recursos) -> str | None:
    """The task body. Returns the final situacao, or None when another worker holds it or the
    generation was deleted meanwhile."""
    if not await _claim(geracao_id, agora()):
        return None
    geracao = await Geracao.get_or_none(id=geracao_id)
    if geracao is None:
        _dropped(geracao_id)
        return None
    log_context.bind(integrador_id=geracao.integrador_id)  # on this task's log lines
    heartbeat = asyncio.create_task(_keep_lease(geracao_id))
    prefixo = f"geracoes/{geracao.id}"
    work_dir = runtime.storage.work_dir(prefixo)
    try:
        saidas = await _render(geracao, runtime, work_dir, prefixo)
        await runtime.storage.publish(prefixo)  # to the store every process reads (files: in place)
    except (render.RenderError, render.VideoError) as exc:
        return await _settle_failure(geracao, _motivo(exc))
    except WorkerCrashed:
        # Killed mid-render (out of memory, a crash in native code): trying again would only
        # repeat it, so the generation fails and its credits go back.
        log.exception("generation %s: its render process died", geracao.id)
        return await _settle_failure(
            geracao,
            {"codigo": "ERRO_INTERNO", "mensagem": "O processo que gerava a mídia terminou de forma inesperada."},
        )
    except Exception:
        if not await repository.exists(geracao.id):  # its data went with it: what broke is expected
            _dropped(geracao.id)
            return None
        log.exception("generation %s broke (attempt %d)", geracao.id, geracao.tentativas)
        if geracao.tentativas >= MAX_ATTEMPTS:
            return await _settle_failure(
                geracao, {"codigo": "ERRO_INTERNO", "mensagem": "Falha inesperada ao gerar a mídia."}
            )
        await repository.liberar(geracao.id)
        raise  # the task fails; the sweep queues it again
    finally:
        heartbeat.cancel()
    return await _settle(geracao, saidas)


def _motivo(exc: Exception) -> dict:
    if isinstance(exc, render.VideoError):
        return {"codigo": exc.codigo, "mensagem": str(exc)}
    return {
        "codigo": "NADA_ENTREGUE",
        "mensagem": "Nenhuma saída pôde ser gerada.",
        "falhas": [{"saida": f.saida, "erro": f.erro} for f in getattr(exc, "falhas", [])],
    }


async def _material(geracao: Geracao, runtime: Recursos) -> tuple[dict, list[render.FotoAprovada]]:
    """The ficha version ordered and the approved photos its check saw, as local files."""
    pedido = geracao.pedido
    versao = await ProdutoVersao.get(produto_id=geracao.produto_id, versao=pedido["versaoProduto"])
    conferencia = await Conferencia.get(id=pedido["conferenciaId"])
    aprovadas = conferencias.fotos_aprovadas(conferencia)
    arquivos = {i.id: i for i in await Imagem.filter(id__in=[f["id"] for f in aprovadas])}

    async def local(arquivo: str) -> Path:
        try:
            return await runtime.storage.local_file(arquivo)
        except FileNotFoundError:  # a path with no file: the renderer reports that photo as missing
            return runtime.storage.work_dir(arquivo)

    fotos = [
        render.FotoAprovada(
            path=await local(arquivos[f["id"]].arquivo),
            ordem=f["ordem"],
            principal=f["principal"],
            largura=f["largura"],
            altura=f["altura"],
        )
        for f in aprovadas
        if f["id"] in arquivos
    ]
    return versao.ficha, fotos


async def _render(geracao: Geracao, runtime: Recursos, work_dir: Path, prefixo: str) -> _Saidas:
    storage = runtime.storage
    ambiente = geracao.ambiente

    def key(path: Path) -> str:
        return f"{prefixo}/{path.resolve().relative_to(work_dir.resolve()).as_posix()}"

    async def images(rendered: list[render.RenderedImage], origem: str) -> list[dict]:
        entries = []
        for image in rendered:
            registro = await imagens.registrar(
                integrador_id=geracao.integrador_id,
                ambiente=ambiente,
                conta_id=geracao.conta_id,
                produto_id=geracao.produto_id,
                geracao_id=geracao.id,
                origem=origem,
                arquivo=key(image.path),
                largura=image.largura,
                altura=image.altura,
            )
            entries.append(
                {
                    "id": registro.id,
                    "posicao": image.posicao,
                    "tipo": image.kind,
                    "arquivo": registro.arquivo,
                    "largura": image.largura,
                    "altura": image.altura,
                    "observacoes": image.notes,
                }
            )
        return entries

    if geracao.tipo == "edicao_imagem":
        await _progress(geracao.id, "editando_imagem", 30)
        fonte = await Imagem.get(id=geracao.pedido["imagemId"])
        pedido = parse_edicao({"operacoes": geracao.pedido["operacoes"]})
        work_dir.mkdir(parents=True, exist_ok=True)
        editada = await runtime.render_pool.run(
            render.apply_edits, await storage.local_file(fonte.arquivo), pedido, ambiente, work_dir / "edicao-01.jpg"
        )
        await _progress(geracao.id, "publicando", 90)
        return _Saidas({"imagens": await images([editada], "edicao")}, 1, [])

    ficha, fotos = await _material(geracao, runtime)
    if geracao.tipo == "galeria":
        await _progress(geracao.id, "compondo_imagens", 20)
        galeria = await runtime.render_pool.run(
            render.render_gallery, ficha, fotos, geracao.pedido["quantidadeImagens"], ambiente, work_dir
        )
        await _progress(geracao.id, "publicando", 90)
        falhas = [{"saida": f.saida, "erro": f.erro} for f in galeria.falhas]
        return _Saidas({"imagens": await images(galeria.imagens, "galeria")}, len(galeria.imagens), falhas)

    await _progress(geracao.id, "narrando_e_montando_video", 20)
    result = await runtime.render_pool.run(
        render.render_video, ficha, fotos, geracao.pedido["tipo"], geracao.pedido["avatar"], ambiente, work_dir
    )
    await _progress(geracao.id, "publicando", 90)
    videos = [v.as_dict() | {"arquivo": key(v.path), "formato": v.formato} for v in result.videos]
    resultados = {
        "video": videos[0] if videos else None,
        "videos": videos,
        "fala": result.fala.as_dict(),
        "legendas": {"arquivo": key(result.legenda), "idioma": "pt-BR", "embutidas": result.legendas_embutidas},
        "avatar": result.avatar,
    }
    return _Saidas(resultados, len(videos), [{"saida": f.saida, "erro": f.erro} for f in result.falhas])


# -- settling ------------------------------------------------------------------------------------


def dados_do_evento(geracao: Geracao) -> DadosGeracaoConcluida | DadosGeracaoFalhou:
    """The payload of a settled generation's event: geracao.falhou's when it failed, else
    geracao.concluida's (concluida or parcial)."""
    modelo = DadosGeracaoFalhou if geracao.situacao == FALHOU else DadosGeracaoConcluida
    erro = geracao.erro or {}
    return modelo.model_validate(
        {
            "id": geracao.id,
            "tipo": geracao.tipo,
            "situacao": geracao.situacao,
            "produtoId": geracao.produto_id,
            "creditosReservados": geracao.creditos_reservados,
            "creditosCobrados": geracao.creditos_cobrados,
            "falhas": erro.get("falhas", []),
            "motivo": erro.get("mensagem"),
        }
    )


async def _settle(geracao: Geracao, saidas: _Saidas) -> str | None:
    """Deliver: concluida when every output was made, parcial when some failed. Only delivered
    outputs are charged; the rest of the reservation goes back to the wallet."""
    cobrados = min(custo(geracao.tipo, saidas.unidades), geracao.creditos_reservados)
    async with transaction():
        row = await Geracao.select_for_update().get_or_none(id=geracao.id)
        if row is None:
            _dropped(geracao.id)
            return None
        if row.situacao != PROCESSANDO:
            return row.situacao  # settled by someone else (a sweep that gave up on it)
        row.situacao = PARCIAL if saidas.falhas else CONCLUIDA
        row.resultados, row.creditos_cobrados = saidas.resultados, cobrados
        row.erro = (
            {
                "codigo": "SAIDAS_FALHARAM",
                "mensagem": "Algumas saídas não puderam ser geradas.",
                "falhas": saidas.falhas,
            }
            if saidas.falhas
            else None
        )
        row.etapa, row.percentual, row.reservada_ate, row.concluida_em = "entregue", 100, None, agora()
        await row.save()
        await creditos.liquidar(
            row.integrador_id, row.ambiente, row.id, reservados=row.creditos_reservados, cobrados=cobrados
        )
        await eventos.registrar(
            "geracao.concluida",
            integrador_id=row.integrador_id,
            ambiente=row.ambiente,
            conta_id=row.conta_id,
            dados=dados_do_evento(row),
        )
    return row.situacao


async def _settle_failure(geracao: Geracao, motivo: dict) -> str | None:
    async with transaction():
        row = await Geracao.select_for_update().get_or_none(id=geracao.id)
        if row is None:
            _dropped(geracao.id)
            return None
        if row.situacao in (CONCLUIDA, PARCIAL, FALHOU):
            return row.situacao
        row.situacao, row.erro, row.etapa, row.reservada_ate, row.concluida_em = FALHOU, motivo, FALHOU, None, agora()
        await row.save()
        await creditos.liquidar(row.integrador_id, row.ambiente, row.id, reservados=row.creditos_reservados, cobrados=0)
        await eventos.registrar(
            "geracao.falhou",
            integrador_id=row.integrador_id,
            ambiente=row.ambiente,
            conta_id=row.conta_id,
            dados=dados_do_evento(row),
        )
    return FALHOU


# -- recovery ------------------------------------------------------------------------------------


async def varrer(now: datetime | None = None) -> dict[str, int]:
    """Generations left behind: a lease that expired (its worker died) goes back to the queue, or
    fails after MAX_ATTEMPTS; a queued one whose task was lost is queued again."""
    now = now or agora()
    requeued = failed = 0
    for geracao in await repository.lease_expired(now):
        if geracao.tentativas >= MAX_ATTEMPTS:
            await _settle_failure(
                geracao,
                {"codigo": "TEMPO_ESGOTADO", "mensagem": f"A geração não terminou em {MAX_ATTEMPTS} tentativas."},
            )
            failed += 1
        elif await repository.requeue_expired(geracao.id, now):
            await enfileirar("geracao.renderizar", geracao.id)
            requeued += 1
    for geracao in await repository.queued_before(now - REQUEUE_AFTER):
        await repository.mark_queued(geracao.id, now)
        await enfileirar("geracao.renderizar", geracao.id)
        requeued += 1
    return {"reenfileiradas": requeued, "falharam": failed}


async def liberar_reservas_de_teste(integrador_id: str) -> dict[str, int]:
    """Before the test data is cleared (graphql_api/core/dados_de_teste.py): the reservations of
    test generations still rendering go back to the test wallet, since deleted they would never
    settle. A worker finishing one fails on the missing row, charging nothing."""
    for geracao in await repository.em_curso_de_teste(integrador_id):
        await creditos.liquidar(
            integrador_id, "teste", geracao["id"], reservados=geracao["creditos_reservados"], cobrados=0
        )
    return {}
