from typing import Annotated, Any

import strawberry
from strawberry.types import Info

from graphql_api.core.inputs import as_dados, input_type
from graphql_api.core.permissions import vendedor_only
from graphql_api.core.validation import validate
from graphql_api.oauth import autorizacoes
from graphql_api.oauth.schemas import PedidoAutorizacao
from graphql_api.oauth.types import AppConectadoType, AvaliacaoType

PedidoAutorizacaoInput = input_type(PedidoAutorizacao)
Pedido = Annotated[Any, strawberry.argument(graphql_type=PedidoAutorizacaoInput)]


def _pedido(dados: Any) -> autorizacoes.Pedido:
    return validate(PedidoAutorizacao, as_dados(dados)).como_pedido()


def _issuer(info: Info) -> str:
    return info.context.settings.base_url


@strawberry.type
class Query:
    @strawberry.field(description="Check an authorisation request before anyone signs in (public).")
    async def pedido_autorizacao(self, info: Info, pedido: Pedido) -> AvaliacaoType:
        return AvaliacaoType.of(await autorizacoes.avaliar(_pedido(pedido), issuer=_issuer(info)))

    @strawberry.field(extensions=vendedor_only(), description="The signed-in seller's authorised apps.")
    async def apps_conectados(self, info: Info) -> list[AppConectadoType]:
        return [AppConectadoType.of(a) for a in await autorizacoes.apps_conectados(info.context.principal)]


@strawberry.type
class Mutation:
    @strawberry.mutation(
        extensions=vendedor_only(),
        description="The seller consents: the address (redirect_uri with code, state and iss) to send the browser to.",
    )
    async def autorizar_app(self, info: Info, pedido: Pedido) -> str:
        return await autorizacoes.autorizar(info.context.principal, _pedido(pedido), issuer=_issuer(info))

    @strawberry.mutation(
        extensions=vendedor_only(), description="The seller cancels: the address carrying error=access_denied."
    )
    async def recusar_autorizacao(self, info: Info, pedido: Pedido) -> str:
        return await autorizacoes.recusar(info.context.principal, _pedido(pedido), issuer=_issuer(info))

    @strawberry.mutation(
        extensions=vendedor_only(),
        description="The seller revokes an app: its authorisations end and its tokens answer 401 at once.",
    )
    async def revogar_app_conectado(self, info: Info, app_id: strawberry.ID) -> int:
        return await autorizacoes.revogar_app(info.context.principal, str(app_id), bus=info.context.runtime.bus)
