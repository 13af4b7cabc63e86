from types import GenericAlias
from typing import Annotated, Any

import strawberry
from strawberry.types import Info

from graphql_api.core.inputs import as_dados, input_type, union_input
from graphql_api.core.pagination import PageRequest, Pagina, pagina
from graphql_api.core.permissions import requires
from graphql_api.geracao import service
from graphql_api.geracao.schemas import OPERATIONS, NovaGaleria, NovoVideo
from graphql_api.geracao.types import GeracaoType


@strawberry.type
class Query:
    @strawberry.field(extensions=requires("geracoes:ler"))
    async def geracao(self, info: Info, id: strawberry.ID) -> GeracaoType:
        geracao = await service.obter_geracao(info.context.principal, id)
        return GeracaoType.from_model(geracao, info.context.runtime.storage)

    @strawberry.field(extensions=requires("geracoes:ler"))
    async def geracoes(
        self, info: Info, produto_id: str | None = None, limite: int | None = None, cursor: str | None = None
    ) -> Pagina[GeracaoType]:
        page = PageRequest.of(limite, cursor, prefixo="ger_")
        rows, next_cursor = await service.listar_geracoes(info.context.principal, page, produto_id=produto_id)
        storage = info.context.runtime.storage
        return pagina([GeracaoType.from_model(g, storage) for g in rows], page, next_cursor)


NovaGaleriaInput = input_type(NovaGaleria)
NovoVideoInput = input_type(NovoVideo)
OperacaoEdicaoInput = union_input(
    "OperacaoEdicaoInput",
    list(OPERATIONS.values()),
    description="One edit operation: `tipo` and that operation's fields (see each tipo in docs/midia.md).",
)


@strawberry.input(description="An image edit: the operations, applied in order.")
class EdicaoInput:
    operacoes: list[Any] = strawberry.field(graphql_type=GenericAlias(list, (OperacaoEdicaoInput,)))


@strawberry.type
class Mutation:
    @strawberry.mutation(extensions=requires("geracoes:criar"))
    async def criar_galeria(
        self, info: Info, dados: Annotated[Any, strawberry.argument(graphql_type=NovaGaleriaInput)]
    ) -> GeracaoType:
        geracao = await service.criar_galeria(
            info.context.principal, as_dados(dados), idempotency_key=info.context.idempotency_key
        )
        return GeracaoType.from_model(geracao, info.context.runtime.storage)

    @strawberry.mutation(extensions=requires("geracoes:criar"))
    async def criar_video(
        self, info: Info, dados: Annotated[Any, strawberry.argument(graphql_type=NovoVideoInput)]
    ) -> GeracaoType:
        geracao = await service.criar_video(
            info.context.principal, as_dados(dados), idempotency_key=info.context.idempotency_key
        )
        return GeracaoType.from_model(geracao, info.context.runtime.storage)

    @strawberry.mutation(extensions=requires("geracoes:criar"))
    async def criar_edicao(self, info: Info, imagem_id: str, dados: EdicaoInput) -> GeracaoType:
        geracao = await service.criar_edicao(
            info.context.principal, imagem_id, as_dados(dados), idempotency_key=info.context.idempotency_key
        )
        return GeracaoType.from_model(geracao, info.context.runtime.storage)
