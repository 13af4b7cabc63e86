"""API keys are managed by people in the portal, never through the API they protect."""

import strawberry
from strawberry.types import Info

from graphql_api.chave import service
from graphql_api.chave.types import BloqueioChaveType, ChaveCriadaType, ChaveType
from graphql_api.core.permissions import requires

_KEYS = requires("chaves:gerenciar", portal_only=True)


@strawberry.type
class Query:
    @strawberry.field(extensions=_KEYS)
    async def chaves(self, info: Info) -> list[ChaveType]:
        return [ChaveType.from_model(c) for c in await service.listar_chaves(info.context.principal)]

    @strawberry.field(extensions=_KEYS, description="Why sk_live_ keys cannot be created yet; null when they can.")
    async def bloqueio_chave_producao(self, info: Info) -> BloqueioChaveType | None:
        return BloqueioChaveType.of(await service.bloqueio_producao(info.context.principal.integrador_id))


@strawberry.type
class Mutation:
    @strawberry.mutation(extensions=_KEYS)
    async def criar_chave(self, info: Info, nome: str = "") -> ChaveCriadaType:
        row, token = await service.emitir_chave(info.context.principal, nome=nome)
        return ChaveCriadaType(chave=ChaveType.from_model(row), token=token)

    @strawberry.mutation(extensions=_KEYS)
    async def revogar_chave(self, info: Info, identificador: str) -> bool:
        principal = info.context.principal
        await service.revogar_chave(
            principal.integrador_id, service.identificador_de(identificador), bus=info.context.runtime.bus
        )
        return True
