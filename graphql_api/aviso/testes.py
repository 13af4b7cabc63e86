"""Test runs of notices (POST /avisos/teste): three deliveries (valid, wrong signature,
10-minute-old timestamp) and their verdicts, which the AVISOS_ASSINATURA step is judged on."""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from graphql_api.aviso import assinatura, enderecos, entregas, repository
from graphql_api.aviso.enderecos import obter_aviso
from graphql_api.aviso.entregas import Resposta, corpo_json
from graphql_api.aviso.models import Aviso, RodadaTeste, TesteAviso
from graphql_api.aviso.schemas import PedidoTeste
from graphql_api.core import relogio
from graphql_api.core.errors import ApiError
from graphql_api.core.ids import encontrar, new_id
from graphql_api.core.principal import Principal
from graphql_api.core.sinais import Sinal
from graphql_api.core.tarefas import enfileirar
from graphql_api.core.transactions import after_commit, transaction
from graphql_api.core.validation import validate
from graphql_api.evento.catalog import TEST_EVENT
from graphql_api.evento.payloads import DadosAvisoTeste

if TYPE_CHECKING:
    from graphql_api.core.recursos import Recursos

TESTE_ATRASO = timedelta(minutes=10)  # age of the timestamp of the old-timestamp test
TESTE_MAX_EXECUCOES = 3
STATUS_RECUSA = (400, 401, 403)  # what a receiver answers to a bad signature or an old timestamp
CASOS_TESTE = ("valida", "assinatura_errada", "timestamp_antigo")
ESPERADO = {"valida": "2XX", "assinatura_errada": "400, 401 ou 403", "timestamp_antigo": "400, 401 ou 403"}


@dataclass(frozen=True, slots=True)
class RodadaConcluida:
    """A POST /avisos/teste run of the test environment finished: whether the latest runs prove
    the receiver checks signatures, and which tests say so."""

    integrador_id: str
    aprovado: bool
    teste_ids: list[str]
    motivo: str | None


# The integration step AVISOS_ASSINATURA is judged from it (graphql_api/integracao).
rodada_concluida: Sinal[RodadaConcluida] = Sinal("aviso.rodada_concluida")


async def testar(principal: Principal, dados: Any) -> list[TesteAviso]:
    """Queue the three test deliveries (valid, wrong signature, 10-minute-old timestamp)."""
    pedido = validate(PedidoTeste, dados or {})
    aviso: Aviso | None
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
    return await encontrar(
        teste_id,
        "tst_",
        lambda: repository.teste_visible(principal, teste_id),
        f"Teste de aviso {teste_id} não encontrado.",
    )


async def ultima_rodada(
    principal: Principal, aviso_id: str | None = None
) -> tuple[RodadaTeste, list[TesteAviso]] | None:
    """The latest test run of the caller's environment (of one address, when given) with its
    three tests: the run AVISOS_ASSINATURA is judged on, for the portal to show and poll."""
    if aviso_id is not None:
        aviso_id = (await obter_aviso(principal, aviso_id)).id
    assert principal.integrador_id is not None  # notices are the integrator's own (integrator_only)
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


async def executar_rodada(rodada_id: str, runtime: Recursos) -> bool:
    """Send the pending tests of a run and record the answers. False when the run was not due."""
    if not await repository.reservar_rodada(rodada_id, relogio.agora()):
        return False
    rodada = await RodadaTeste.get(id=rodada_id).select_related("aviso")
    pendentes = [t for t in await repository.testes_of(rodada_id) if t.situacao == "pendente"]
    if rodada.aviso is None:
        for teste in pendentes:
            await concluir_teste(teste, {}, "", Resposta(erro="O endereço foi removido antes do envio."))
    else:
        agora = relogio.agora()
        chaves = enderecos.chaves(rodada.aviso, runtime.settings, agora)

        async def enviar(teste: TesteAviso) -> None:
            corpo = corpo_json(new_id("evt_"), TEST_EVENT, agora, None, DadosAvisoTeste(testeId=teste.id))
            cabecalhos = _cabecalhos_de_teste(teste.caso, teste.id, corpo, chaves, agora)
            await concluir_teste(
                teste, cabecalhos, corpo, await entregas.enviar(runtime, rodada.url, corpo, cabecalhos)
            )

        await asyncio.gather(*(enviar(t) for t in pendentes))
    await RodadaTeste.filter(id=rodada_id).update(situacao="concluida", concluida_em=relogio.agora())
    if rodada.ambiente == "teste":
        situacao = await situacao_assinatura(rodada.integrador_id, rodada.ambiente)
        await rodada_concluida.emitir(
            RodadaConcluida(
                rodada.integrador_id,
                aprovado=situacao.situacao == "ok",
                teste_ids=[t.id for t in situacao.testes],
                motivo=situacao.ultima_falha,
            )
        )
    return True


async def concluir_teste(teste: TesteAviso, cabecalhos: dict[str, str], corpo: str, resposta: Resposta) -> None:
    await TesteAviso.filter(id=teste.id, situacao="pendente").update(
        situacao="concluido",
        cabecalhos_enviados=entregas.enviados(cabecalhos) if cabecalhos else None,
        corpo_enviado=corpo,
        status=resposta.status,
        resposta=resposta.corpo,
        erro=resposta.erro,
        cabecalhos_resposta=resposta.cabecalhos or None,
        falha=resposta.falha,
        duracao_ms=round(resposta.duracao_ms, 1),
        veredito=veredito(teste.caso, resposta.status),
        concluido_em=relogio.agora(),
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
    falhas = [_falha(t) for t in testes if t.veredito != "passou"]
    if falhas and all(t.falha for t in testes):  # nothing reached the server: one reason, not three
        falhas = [entregas.motivo_falha(testes[0].falha, testes[0].erro) or ""]
    return SituacaoAssinatura(
        "falhou" if falhas else "ok",
        verificado_em=rodada.concluida_em,
        testes=testes,
        ultima_falha="; ".join(falhas) or None,
    )


def _falha(teste: TesteAviso) -> str:
    """Why a test did not pass: what the server answered, or that it was never reached."""
    if teste.falha:
        return f"{teste.caso}: {entregas.motivo_falha(teste.falha, teste.erro)}"
    recebido = teste.status if teste.status is not None else teste.erro
    return f"{teste.caso}: esperado {ESPERADO[teste.caso]}, recebido {recebido}"
