"""What every notice carries: one pydantic model per event type (the delivery's `data`) and the
envelope around it (`id`, `tipo`, `criadoEm`, `contaId`, `data`).

The one source of the payloads: the emitters build `data` with these models and
`graphql_api/evento/service.registrar` takes nothing else, every delivery body is dumped through
the envelope (`corpo`), the OpenAPI document publishes their JSON Schema under `webhooks`
(rest_v1/openapi.py) and the payload section of docs/avisos.md is generated from them
(vitrine/docs_avisos.py). Field names are the ones integrators already read: never rename one.

The docstrings and descriptions below are public (OpenAPI, docs): written in Portuguese. The
enumerations are spelled here, so that this module imports no other domain (which all emit
events); tests/unit/test_payloads.py holds them against the domains' own lists."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from functools import cache
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, PlainSerializer, WithJsonSchema, create_model

from graphql_api.core.scalars import format_timestamp

# A moment as the contract writes it: ISO 8601 in UTC, to the millisecond, with a Z.
Momento = Annotated[
    datetime,
    PlainSerializer(format_timestamp, return_type=str, when_used="json"),
    WithJsonSchema({"type": "string", "format": "date-time"}),
]
Ambiente = Literal["teste", "producao"]
TipoGeracao = Literal["galeria", "video_apresentacao", "video_cinepremium", "edicao_imagem"]
TipoMidia = Literal["galeria", "video_apresentacao", "video_cinepremium"]
Severidade = Literal["bloqueio", "fraco"]
Limiar = Literal[70, 90, 100]


class _Modelo(BaseModel):
    # Exactly the fields declared: a key an emitter adds without declaring it fails at once.
    model_config = ConfigDict(extra="forbid")


class DadosEvento(_Modelo):
    """Base of the `data` of every event type."""

    TIPO: ClassVar[str]


# -- produto.conferido ---------------------------------------------------------------------------


class ProdutoConferido(_Modelo):
    """O produto, como ficou depois da conferência."""

    id: str = Field(description="Id do produto (`prd_…`).")
    contaId: str = Field(description="Conta do produto (`cta_…`).")
    codigo: str = Field(description="O código (SKU) do produto na conta.")
    situacao: Literal["aprovado", "reprovado"] = Field(
        description="`aprovado` quando a conferência aprovou ao menos um tipo de mídia; `reprovado` quando não "
        "aprovou nenhum."
    )
    versao: int = Field(description="A versão da ficha que foi conferida (a atual do produto).")


class PendenciaConferida(_Modelo):
    """Uma pendência de um tipo de mídia."""

    codigo: str = Field(description="Código da pendência; causa e correção na página Pendências da documentação.")
    severidade: Severidade = Field(
        description="`bloqueio` impede o tipo de mídia; `fraco` aprova, mas a qualidade cai."
    )
    campo: str = Field(description="O campo da ficha a que a pendência se refere (`imagens`, `descricao`, …).")


class ResultadoConferido(_Modelo):
    """O veredito da conferência para um tipo de mídia."""

    tipo: TipoMidia = Field(description="O tipo de mídia julgado.")
    aprovado: bool = Field(description="Se a ficha permite gerar este tipo de mídia.")
    quantidadeMaximaImagens: int | None = Field(
        description="Galeria: quantas imagens a ficha sustenta; `null` nos vídeos."
    )
    quantidadesAprovadas: list[int] | None = Field(
        description="Galeria: os tamanhos de galeria que podem ser pedidos (vazia se reprovada); `null` nos vídeos."
    )
    notaVideo: int | None = Field(
        description="Vídeos: 0 a 100, quanto do que o vídeo usa a ficha oferece; `null` na galeria."
    )
    pendencias: list[PendenciaConferida] = Field(description="O que falta ou enfraquece este tipo de mídia.")


class ConferenciaConferida(_Modelo):
    """A conferência que terminou."""

    id: str = Field(description="Id da conferência (`cnf_…`).")
    produtoId: str = Field(description="O produto conferido (`prd_…`).")
    versaoProduto: int = Field(description="A versão da ficha conferida.")
    situacao: Literal["concluida"] = Field(description="Sempre `concluida` neste evento.")
    resultados: list[ResultadoConferido] = Field(description="Um resultado por tipo de mídia.")


class DadosProdutoConferido(DadosEvento):
    """A conferência de uma versão da ficha terminou: o produto e o resultado por tipo de mídia."""

    TIPO = "produto.conferido"

    produto: ProdutoConferido = Field(description="O produto, como ficou depois da conferência.")
    conferencia: ConferenciaConferida = Field(description="A conferência, com o resultado por tipo de mídia.")


# -- geracao.concluida, geracao.falhou -------------------------------------------------------------


class FalhaGeracao(_Modelo):
    """Uma saída que não pôde ser gerada."""

    saida: str = Field(description="Qual saída falhou (por exemplo `imagem_2`).")
    erro: str = Field(description="Por que falhou.")


class _DadosGeracao(DadosEvento):
    # The fields in the order they were always sent; each event narrows situacao, motivo and
    # creditosCobrados (a field redeclared keeps its place).
    id: str = Field(description="Id da geração (`ger_…`): `GET /geracoes/{geracaoId}` traz a mídia, com links novos.")
    tipo: TipoGeracao = Field(description="O que foi pedido.")
    situacao: str
    produtoId: str | None = Field(description="O produto (`prd_…`); `null` numa edição de imagem enviada sem produto.")
    creditosReservados: int = Field(description="Créditos reservados no pedido.")
    creditosCobrados: int
    falhas: list[FalhaGeracao] = Field(
        description="As saídas que não puderam ser geradas (vazia quando nenhuma falhou)."
    )
    motivo: str | None


class DadosGeracaoConcluida(_DadosGeracao):
    """Uma geração terminou e entregou suas saídas (todas, ou parte delas)."""

    TIPO = "geracao.concluida"

    situacao: Literal["concluida", "parcial"] = Field(
        description="`concluida`: todas as saídas entregues; `parcial`: algumas falharam (veja `falhas`)."
    )
    creditosCobrados: int = Field(
        description="Créditos cobrados: só as saídas entregues; o resto da reserva voltou à carteira."
    )
    motivo: str | None = Field(description="Numa geração `parcial`, o que houve; `null` numa `concluida`.")


class DadosGeracaoFalhou(_DadosGeracao):
    """Uma geração falhou: nenhuma saída entregue, os créditos reservados voltaram à carteira."""

    TIPO = "geracao.falhou"

    situacao: Literal["falhou"] = Field(description="Sempre `falhou` neste evento.")
    creditosCobrados: int = Field(description="Sempre 0: uma geração que falhou não é cobrada.")
    motivo: str = Field(description="O que houve, em português.")


# -- creditos.baixos, cota.alerta ------------------------------------------------------------------


class DadosCreditosBaixos(DadosEvento):
    """Os créditos disponíveis da carteira ficaram abaixo do limite de alerta: a carteira logo depois
    do movimento que os levou até lá."""

    TIPO = "creditos.baixos"

    ambiente: Ambiente = Field(description="O ambiente da carteira.")
    creditosDisponiveis: int = Field(
        description="O saldo disponível depois do movimento (`creditosPlano + creditosPacote`)."
    )
    creditosPlano: int = Field(description="Créditos do plano disponíveis no ciclo.")
    creditosPacote: int = Field(description="Créditos de pacote disponíveis.")
    creditosReservados: int = Field(description="Créditos reservados em gerações em andamento.")
    limite: int = Field(description="O limite de alerta: 10% de `cotaMensal`, no mínimo 50.")
    cotaMensal: int = Field(description="A cota do ciclo atual (0 no plano Gratuito).")


class DadosCotaAlerta(DadosEvento):
    """A cota do mês atingiu 70%, 90% ou 100%: um evento por limiar, uma vez por ciclo."""

    TIPO = "cota.alerta"

    ambiente: Ambiente = Field(description="O ambiente da carteira.")
    limiar: Limiar = Field(
        description="O limiar atingido; um movimento que passa de vários de uma vez gera um evento para cada."
    )
    percentualUsado: int = Field(description="Percentual da cota usado no ciclo, como em `GET /cota-do-mes`.")
    cotaMensal: int = Field(description="A cota do ciclo.")
    creditosUsados: int = Field(description="Créditos do plano usados no ciclo.")
    creditosRestantes: int = Field(description="Créditos do plano que restam no ciclo.")
    creditosPacote: int = Field(description="Créditos de pacote disponíveis (gastos depois que a cota acaba).")
    cicloInicioEm: Momento = Field(description="Início do ciclo a que o limiar se refere.")
    cicloFimEm: Momento = Field(description="Fim do ciclo a que o limiar se refere.")


# -- conta.desvinculada ----------------------------------------------------------------------------


class MotivoDesvinculacao(StrEnum):
    """Por que a conta vinculada perdeu a última autorização ativa."""

    VENDEDOR_REVOGOU = "vendedor_revogou"
    INTEGRADOR_REVOGOU = "integrador_revogou"
    APP_DESATIVADO = "app_desativado"
    CREDENCIAL_REUTILIZADA = "credencial_reutilizada"


MOTIVOS_DESVINCULACAO: dict[MotivoDesvinculacao, str] = {
    MotivoDesvinculacao.VENDEDOR_REVOGOU: 'o vendedor revogou o acesso em "Apps conectados"',
    MotivoDesvinculacao.INTEGRADOR_REVOGOU: "o integrador revogou o token (`POST /oauth/revogar`)",
    MotivoDesvinculacao.APP_DESATIVADO: "o integrador desativou o aplicativo",
    MotivoDesvinculacao.CREDENCIAL_REUTILIZADA: "um código de autorização ou refresh token foi apresentado duas "
    "vezes: a autorização foi encerrada por segurança",
}


class DadosContaDesvinculada(DadosEvento):
    """Uma conta vinculada por OAuth perdeu a última autorização ativa: os tokens dela deixam de valer
    e o vendedor precisa autorizar o aplicativo de novo."""

    TIPO = "conta.desvinculada"

    contaId: str = Field(description="A conta vinculada (`cta_…`).")
    clientId: str = Field(description="O `client_id` do aplicativo OAuth (`app_…`).")
    motivo: MotivoDesvinculacao = Field(
        description="Por que a autorização acabou: "
        + "; ".join(f"`{m.value}`, {texto}" for m, texto in MOTIVOS_DESVINCULACAO.items())
        + "."
    )
    desvinculadaEm: Momento = Field(description="Quando a última autorização acabou.")


# -- aviso.teste -----------------------------------------------------------------------------------


class DadosAvisoTeste(DadosEvento):
    """Uma entrega de `POST /avisos/teste` (só ao endereço testado; não é assinável)."""

    TIPO = "aviso.teste"

    testeId: str = Field(description="O teste (`tst_…`): `GET /testes-de-avisos/{testeId}` mostra o veredito.")


# -- the envelope ----------------------------------------------------------------------------------

# Every event type's data model, in the order the docs list them.
DADOS: dict[str, type[DadosEvento]] = {
    m.TIPO: m
    for m in (
        DadosProdutoConferido,
        DadosGeracaoConcluida,
        DadosGeracaoFalhou,
        DadosCreditosBaixos,
        DadosCotaAlerta,
        DadosContaDesvinculada,
        DadosAvisoTeste,
    )
}


class CorpoEvento(_Modelo):
    """The JSON body of every delivery; `tipo` and `data` are narrowed per event type (`envelope`)."""

    id: str = Field(
        description="Id do evento (`evt_…`). Um evento que vai a vários endereços seus tem o mesmo `id` em todos, "
        "e cada entrega o seu `webhook-id`."
    )
    tipo: str = Field(description="O tipo do evento.")
    criadoEm: Momento = Field(description="Quando o evento aconteceu.")
    contaId: str | None = Field(
        description="A conta a que o evento se refere (subconta ou conta vinculada por OAuth), ou `null` nos eventos "
        "do integrador (`creditos.baixos`, `cota.alerta`, `aviso.teste`)."
    )
    data: DadosEvento = Field(description="O que aconteceu; o formato depende de `tipo`.")


def _nome(tipo: str) -> str:
    return "Evento" + "".join(parte.capitalize() for parte in tipo.replace(".", "_").split("_"))


@cache
def envelope(tipo: str) -> type[CorpoEvento]:
    """The body model of one event type (e.g. EventoGeracaoConcluida): its `tipo` is that name and
    its `data` that type's model."""
    dados = DADOS[tipo]
    return create_model(
        _nome(tipo),
        __base__=CorpoEvento,
        __doc__=dados.__doc__,
        tipo=(Literal[tipo], Field(description="O tipo do evento.")),  # type: ignore[arg-type]  # a name known at run time
        data=(dados, Field(description=CorpoEvento.model_fields["data"].description)),
    )


def corpo(
    evento_id: str, tipo: str, criado_em: datetime, conta_id: str | None, dados: DadosEvento | dict[str, Any]
) -> dict[str, Any]:
    """The body of a delivery of an event, as JSON values, through the event type's envelope (`dados`
    as a model, or as an event row keeps it)."""
    valores = {"id": evento_id, "tipo": tipo, "criadoEm": criado_em, "contaId": conta_id, "data": dados}
    return envelope(tipo).model_validate(valores).model_dump(mode="json")
