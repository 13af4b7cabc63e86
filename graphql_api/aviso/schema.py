from typing import Annotated, Any

import strawberry
from strawberry.types import Info

from graphql_api.aviso import enderecos, entregas, escutas, testes
from graphql_api.aviso.schemas import Disparo, NovaEscuta, NovoAviso, PedidoTeste, ResultadoEscuta, Rotacao
from graphql_api.aviso.types import (
    AberturaEscutaType,
    AvisoType,
    EntregaEscutaType,
    EntregaType,
    EscutaType,
    EventoAvisoType,
    EventoEmitidoType,
    LoteEscutaType,
    RegistroAvisoType,
    RodadaTesteType,
    TesteAvisoType,
)
from graphql_api.core.inputs import as_dados, input_type
from graphql_api.core.pagination import PageRequest, Pagina, pagina
from graphql_api.core.permissions import requires
from graphql_api.evento.catalog import EVENT_TYPES

# Every notice operation is the integrator's own: OAuth tokens get 403 FORBIDDEN.
GERENCIAR = "avisos:gerenciar"


def _registro(registro: enderecos.Registro) -> RegistroAvisoType:
    return RegistroAvisoType(
        aviso=AvisoType.from_model(registro.aviso), criado=registro.criado, segredo=registro.segredo
    )


@strawberry.type
class Query:
    @strawberry.field(extensions=requires(GERENCIAR, integrator_only=True))
    async def avisos(self, info: Info, limite: int | None = None, cursor: str | None = None) -> Pagina[AvisoType]:
        page = PageRequest.of(limite, cursor, prefixo="avs_")
        rows, next_cursor = await enderecos.listar_avisos(info.context.principal, page)
        return pagina([AvisoType.from_model(a) for a in rows], page, next_cursor)

    @strawberry.field(extensions=requires(GERENCIAR, integrator_only=True))
    async def aviso(self, info: Info, id: strawberry.ID) -> AvisoType:
        return AvisoType.from_model(await enderecos.obter_aviso(info.context.principal, id))

    @strawberry.field(extensions=requires(GERENCIAR, integrator_only=True))
    async def entregas_aviso(
        self,
        info: Info,
        aviso_id: str,
        limite: int | None = None,
        cursor: str | None = None,
        situacao: str | None = None,
        tipo: Annotated[str | None, strawberry.argument(description="Only deliveries of this event.")] = None,
    ) -> Pagina[EntregaType]:
        page = PageRequest.of(limite, cursor, prefixo="ent_")
        rows, next_cursor, tentativas = await entregas.listar_entregas(
            info.context.principal, aviso_id, page, situacao=situacao, tipo=tipo
        )
        return pagina([EntregaType.from_model(e, tentativas[e.id]) for e in rows], page, next_cursor)

    @strawberry.field(
        extensions=requires(GERENCIAR, integrator_only=True),
        description="One delivery with every attempt: body and headers sent, what came back or why nothing did.",
    )
    async def entrega_aviso(self, info: Info, aviso_id: str, id: strawberry.ID) -> EntregaType:
        return EntregaType.from_model(*await entregas.obter_entrega(info.context.principal, aviso_id, id))

    @strawberry.field(extensions=requires(GERENCIAR, integrator_only=True))
    async def teste_aviso(self, info: Info, id: strawberry.ID) -> TesteAvisoType:
        return TesteAvisoType.from_model(await testes.obter_teste(info.context.principal, id))

    @strawberry.field(
        extensions=requires(GERENCIAR, integrator_only=True),
        description="The latest test run (of one address when avisoId is given); null before the first.",
    )
    async def ultima_rodada_teste_aviso(self, info: Info, aviso_id: str | None = None) -> RodadaTesteType | None:
        found = await testes.ultima_rodada(info.context.principal, aviso_id)
        return RodadaTesteType.from_model(*found) if found else None

    @strawberry.field(extensions=requires(GERENCIAR, integrator_only=True))
    async def escuta_aviso(self, info: Info, id: strawberry.ID) -> EscutaType:
        return EscutaType.from_model(await escutas.obter(info.context.principal, id))

    @strawberry.field(extensions=requires(GERENCIAR, integrator_only=True))
    async def entregas_escuta_aviso(
        self, info: Info, escuta_id: str, limite: int | None = None, cursor: str | None = None
    ) -> Pagina[EntregaEscutaType]:
        page = PageRequest.of(limite, cursor, prefixo="ent_")
        rows, next_cursor = await escutas.listar_entregas(info.context.principal, escuta_id, page)
        return pagina([EntregaEscutaType.from_model(e) for e in rows], page, next_cursor)

    @strawberry.field(
        extensions=requires(GERENCIAR, integrator_only=True), description="The events an address can subscribe to."
    )
    def eventos_aviso(self, info: Info) -> list[EventoAvisoType]:
        return [EventoAvisoType(nome=nome, descricao=descricao) for nome, descricao in EVENT_TYPES.items()]


NovoAvisoInput = input_type(NovoAviso)
RotacaoInput = input_type(Rotacao)
PedidoTesteInput = input_type(PedidoTeste)
NovaEscutaInput = input_type(NovaEscuta)
ResultadoEscutaInput = input_type(ResultadoEscuta)
DisparoInput = input_type(Disparo)


@strawberry.type
class Mutation:
    @strawberry.mutation(extensions=requires(GERENCIAR, integrator_only=True))
    async def registrar_aviso(
        self, info: Info, dados: Annotated[Any, strawberry.argument(graphql_type=NovoAvisoInput)]
    ) -> RegistroAvisoType:
        return _registro(
            await enderecos.registrar_aviso(info.context.principal, as_dados(dados), runtime=info.context.runtime)
        )

    @strawberry.mutation(extensions=requires(GERENCIAR, integrator_only=True))
    async def remover_aviso(self, info: Info, id: strawberry.ID) -> bool:
        await enderecos.remover_aviso(info.context.principal, id)
        return True

    @strawberry.mutation(extensions=requires(GERENCIAR, integrator_only=True))
    async def rotacionar_segredo_aviso(
        self,
        info: Info,
        id: strawberry.ID,
        dados: Annotated[Any, strawberry.argument(graphql_type=RotacaoInput | None)] = None,
    ) -> RegistroAvisoType:
        return _registro(
            await enderecos.rotacionar_segredo(
                info.context.principal, id, as_dados(dados), runtime=info.context.runtime
            )
        )

    @strawberry.mutation(extensions=requires(GERENCIAR, integrator_only=True))
    async def reenviar_entrega_aviso(self, info: Info, aviso_id: str, entrega_id: str) -> EntregaType:
        entrega, tentativas = await entregas.reenviar_entrega(info.context.principal, aviso_id, entrega_id)
        return EntregaType.from_model(entrega, tentativas)

    @strawberry.mutation(
        extensions=requires(GERENCIAR, integrator_only=True),
        description="Send a sample of an event type, shaped and signed like the real event, to one address.",
    )
    async def enviar_evento_teste(self, info: Info, aviso_id: str, tipo: str) -> EntregaType:
        entrega = await entregas.enviar_amostra(info.context.principal, aviso_id, tipo)
        return EntregaType.from_model(entrega, [])

    @strawberry.mutation(extensions=requires(GERENCIAR, integrator_only=True))
    async def testar_aviso(
        self, info: Info, dados: Annotated[Any, strawberry.argument(graphql_type=PedidoTesteInput | None)] = None
    ) -> list[TesteAvisoType]:
        return [TesteAvisoType.from_model(t) for t in await testes.testar(info.context.principal, as_dados(dados))]

    @strawberry.mutation(extensions=requires(GERENCIAR, integrator_only=True))
    async def abrir_escuta_aviso(
        self, info: Info, dados: Annotated[Any, strawberry.argument(graphql_type=NovaEscutaInput | None)] = None
    ) -> AberturaEscutaType:
        abertura = await escutas.abrir(info.context.principal, as_dados(dados) or {})
        return AberturaEscutaType(escuta=EscutaType.from_model(abertura.escuta), segredo=abertura.segredo)

    @strawberry.mutation(extensions=requires(GERENCIAR, integrator_only=True))
    async def conectar_escuta_aviso(self, info: Info, id: strawberry.ID) -> EscutaType:
        return EscutaType.from_model(await escutas.conectar(info.context.principal, id))

    @strawberry.mutation(
        extensions=requires(GERENCIAR, integrator_only=True),
        description="A connected session's heartbeat and its next deliveries, waiting up to esperaSegundos for them.",
    )
    async def proximas_entregas_escuta(self, info: Info, escuta_id: str, espera_segundos: float) -> LoteEscutaType:
        lote = await escutas.proximas(info.context.principal, escuta_id, espera_segundos)
        return LoteEscutaType(
            encerrada=lote.encerrada, entregas=[EntregaEscutaType.from_model(e) for e in lote.entregas]
        )

    @strawberry.mutation(extensions=requires(GERENCIAR, integrator_only=True))
    async def encerrar_escuta_aviso(self, info: Info, id: strawberry.ID) -> EscutaType:
        return EscutaType.from_model(await escutas.encerrar(info.context.principal, id))

    @strawberry.mutation(extensions=requires(GERENCIAR, integrator_only=True))
    async def registrar_resultado_escuta(
        self,
        info: Info,
        escuta_id: str,
        entrega_id: str,
        dados: Annotated[Any, strawberry.argument(graphql_type=ResultadoEscutaInput)],
    ) -> EntregaEscutaType:
        entrega = await escutas.registrar_resultado(info.context.principal, escuta_id, entrega_id, as_dados(dados))
        return EntregaEscutaType.from_model(entrega)

    @strawberry.mutation(extensions=requires(GERENCIAR, integrator_only=True))
    async def disparar_evento_aviso(
        self, info: Info, dados: Annotated[Any, strawberry.argument(graphql_type=DisparoInput)]
    ) -> EventoEmitidoType:
        return EventoEmitidoType.from_model(await escutas.disparar(info.context.principal, as_dados(dados)))
