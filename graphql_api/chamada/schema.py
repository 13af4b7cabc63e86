from typing import Annotated, Any

import strawberry
from strawberry.types import Info

from graphql_api.chamada import service
from graphql_api.chamada.schemas import FiltroChamadas
from graphql_api.chamada.types import AppDoRegistroType, ChamadaDetalheType, ChamadaType, ErroRecenteType
from graphql_api.core.inputs import as_dados, input_type
from graphql_api.core.pagination import PageRequest, Pagina, pagina
from graphql_api.core.permissions import requires

FiltroChamadasInput = input_type(FiltroChamadas)


@strawberry.type
class Query:
    @strawberry.field(extensions=requires(integrator_only=True, portal_scope="chamadas:ler"))
    async def chamadas(
        self,
        info: Info,
        filtros: Annotated[Any, strawberry.argument(graphql_type=FiltroChamadasInput | None)] = None,
        limite: int | None = None,
        cursor: str | None = None,
    ) -> Pagina[ChamadaType]:
        page = PageRequest.of(limite, cursor, prefixo="req_")
        rows, next_cursor = await service.listar_chamadas(
            info.context.principal, service.parse_filtros(as_dados(filtros) or {}), page
        )
        return pagina([ChamadaType.from_model(c) for c in rows], page, next_cursor)

    @strawberry.field(
        extensions=requires(integrator_only=True, portal_scope="chamadas:ler"),
        description="Os modelos de caminho (endpoint) presentes no registro de chamadas do ambiente.",
    )
    async def endpoints_chamadas(self, info: Info) -> list[str]:
        return await service.endpoints_chamadas(info.context.principal)

    @strawberry.field(
        extensions=requires(integrator_only=True, portal_scope="chamadas:ler"),
        description="The integrator's OAuth apps of the environment: the call log's filter by app.",
    )
    async def apps_chamadas(self, info: Info) -> list[AppDoRegistroType]:
        return [AppDoRegistroType.from_value(a) for a in await service.apps_chamadas(info.context.principal)]

    @strawberry.field(extensions=requires(integrator_only=True, portal_scope="chamadas:ler"))
    async def chamada(self, info: Info, request_id: str) -> ChamadaDetalheType:
        chamada = await service.obter_chamada(info.context.principal, request_id)
        return ChamadaDetalheType.from_detail(chamada, info.context.settings.docs_url)

    @strawberry.field(extensions=requires())
    async def erros_recentes(self, info: Info) -> list[ErroRecenteType]:
        docs_url = info.context.settings.docs_url
        return [ErroRecenteType.from_value(e, docs_url) for e in await service.erros_recentes(info.context.principal)]
