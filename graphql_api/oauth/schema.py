"""OAuth in the internal API.

Apps are managed by people in the portal (apps:gerenciar: owners and developers); every person of
the integrator and the service's staff may read them; API keys never touch them. The consent
screen checks and answers authorisation requests; the signed-in seller lists and revokes the apps
they authorised."""

from typing import Annotated, Any

import strawberry
from strawberry.types import Info

from graphql_api.chave.types import BloqueioChaveType
from graphql_api.core.inputs import as_dados, input_type
from graphql_api.core.permissions import portal_or_staff, requires, vendedor_only
from graphql_api.core.validation import validate
from graphql_api.oauth import apps, autorizacoes, escopos
from graphql_api.oauth.schemas import EdicaoApp, NovoApp, PedidoAutorizacao, RotacaoSegredo
from graphql_api.oauth.types import (
    AppConectadoType,
    AppOAuthComSegredoType,
    AppOAuthType,
    AvaliacaoType,
    EscopoType,
)

PedidoAutorizacaoInput = input_type(PedidoAutorizacao)
Pedido = Annotated[Any, strawberry.argument(graphql_type=PedidoAutorizacaoInput)]
NovoAppInput = input_type(NovoApp)
EdicaoAppInput = input_type(EdicaoApp)
RotacaoSegredoInput = input_type(RotacaoSegredo)

_GERENCIAR_APPS = requires("apps:gerenciar", portal_only=True)


def _pedido(dados: Any) -> autorizacoes.Pedido:
    return validate(PedidoAutorizacao, as_dados(dados)).como_pedido()


def _issuer(info: Info) -> str:
    return info.context.settings.base_url


def _com_segredo(criado: apps.AppComSegredo) -> AppOAuthComSegredoType:
    return AppOAuthComSegredoType(app=AppOAuthType.from_model(criado.app), client_secret=criado.segredo)


@strawberry.type
class Query:
    @strawberry.field(description="Check an authorisation request before anyone signs in (public).")
    async def pedido_autorizacao(self, info: Info, pedido: Pedido) -> AvaliacaoType:
        return AvaliacaoType.of(await autorizacoes.avaliar(_pedido(pedido), issuer=_issuer(info)))

    @strawberry.field(extensions=vendedor_only(), description="The signed-in seller's authorised apps.")
    async def apps_conectados(self, info: Info) -> list[AppConectadoType]:
        return [AppConectadoType.of(a) for a in await autorizacoes.apps_conectados(info.context.principal)]

    @strawberry.field(
        name="appsOAuth",
        extensions=portal_or_staff(),
        description="People: their integrator's apps in the session's environment. Staff: integradorId's apps.",
    )
    async def apps_oauth(self, info: Info, integrador_id: str | None = None) -> list[AppOAuthType]:
        return [AppOAuthType.from_model(a) for a in await apps.listar_apps(info.context.principal, integrador_id)]

    @strawberry.field(name="appOAuth", extensions=portal_or_staff())
    async def app_oauth(self, info: Info, id: strawberry.ID) -> AppOAuthType:
        return AppOAuthType.from_model(await apps.obter_app(info.context.principal, id))

    @strawberry.field(
        name="escoposOAuth", extensions=portal_or_staff(), description="Every scope an app may request, in order."
    )
    def escopos_oauth(self, info: Info) -> list[EscopoType]:
        return [EscopoType.of(codigo) for codigo in escopos.DESCRICOES]

    @strawberry.field(
        name="bloqueioAppOAuthProducao",
        extensions=_GERENCIAR_APPS,
        description="Why production apps cannot be created yet; null when they can.",
    )
    async def bloqueio_app_oauth_producao(self, info: Info) -> BloqueioChaveType | None:
        return BloqueioChaveType.of(await apps.bloqueio_producao(info.context.principal.integrador_exigido))


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

    @strawberry.mutation(name="criarAppOAuth", extensions=_GERENCIAR_APPS)
    async def criar_app_oauth(
        self, info: Info, dados: Annotated[Any, strawberry.argument(graphql_type=NovoAppInput)]
    ) -> AppOAuthComSegredoType:
        return _com_segredo(await apps.criar_app(info.context.principal, as_dados(dados), bus=info.context.runtime.bus))

    @strawberry.mutation(name="editarAppOAuth", extensions=_GERENCIAR_APPS)
    async def editar_app_oauth(
        self, info: Info, id: strawberry.ID, dados: Annotated[Any, strawberry.argument(graphql_type=EdicaoAppInput)]
    ) -> AppOAuthType:
        app = await apps.editar_app(info.context.principal, id, as_dados(dados), bus=info.context.runtime.bus)
        return AppOAuthType.from_model(app)

    @strawberry.mutation(
        name="rotacionarSegredoAppOAuth",
        extensions=_GERENCIAR_APPS,
        description="A new client_secret; the current one ends at once or after dados.carenciaHoras (up to 168).",
    )
    async def rotacionar_segredo_app_oauth(
        self,
        info: Info,
        id: strawberry.ID,
        dados: Annotated[Any, strawberry.argument(graphql_type=RotacaoSegredoInput | None)] = None,
    ) -> AppOAuthComSegredoType:
        return _com_segredo(
            await apps.rotacionar_segredo(info.context.principal, id, as_dados(dados), bus=info.context.runtime.bus)
        )

    @strawberry.mutation(
        name="desativarAppOAuth",
        extensions=_GERENCIAR_APPS,
        description="For good: a disabled app is never enabled again.",
    )
    async def desativar_app_oauth(self, info: Info, id: strawberry.ID) -> AppOAuthType:
        app = await apps.desativar_app(info.context.principal, id, bus=info.context.runtime.bus)
        return AppOAuthType.from_model(app)
