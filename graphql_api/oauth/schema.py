"""OAuth apps are managed by people in the portal (apps:gerenciar: owners and developers); every
person of the integrator and the service's staff may read them. API keys never touch them."""

from typing import Annotated, Any

import strawberry
from strawberry.types import Info

from graphql_api.chave.types import BloqueioChaveType
from graphql_api.core.inputs import as_dados, input_type
from graphql_api.core.permissions import portal_or_staff, requires
from graphql_api.oauth import apps, escopos
from graphql_api.oauth.schemas import EdicaoApp, NovoApp
from graphql_api.oauth.types import AppOAuthComSegredoType, AppOAuthType, EscopoOAuthType

_GERENCIAR = requires("apps:gerenciar", portal_only=True)


def _com_segredo(criado: apps.AppComSegredo) -> AppOAuthComSegredoType:
    return AppOAuthComSegredoType(app=AppOAuthType.from_model(criado.app), client_secret=criado.segredo)


@strawberry.type
class Query:
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

    @strawberry.field(name="escoposOAuth", extensions=portal_or_staff(), description="Every scope an app may request.")
    def escopos_oauth(self, info: Info) -> list[EscopoOAuthType]:
        return [EscopoOAuthType(nome=nome, descricao=descricao) for nome, descricao in escopos.DESCRICOES.items()]

    @strawberry.field(
        name="bloqueioAppOAuthProducao",
        extensions=_GERENCIAR,
        description="Why production apps cannot be created yet; null when they can.",
    )
    async def bloqueio_app_oauth_producao(self, info: Info) -> BloqueioChaveType | None:
        bloqueio = await apps.bloqueio_producao(info.context.principal.integrador_exigido)
        if bloqueio is None:
            return None
        return BloqueioChaveType(tipo=bloqueio.type, mensagem=bloqueio.description or bloqueio.kind.message)


NovoAppInput = input_type(NovoApp)
EdicaoAppInput = input_type(EdicaoApp)


@strawberry.type
class Mutation:
    @strawberry.mutation(name="criarAppOAuth", extensions=_GERENCIAR)
    async def criar_app_oauth(
        self, info: Info, dados: Annotated[Any, strawberry.argument(graphql_type=NovoAppInput)]
    ) -> AppOAuthComSegredoType:
        return _com_segredo(await apps.criar_app(info.context.principal, as_dados(dados)))

    @strawberry.mutation(name="editarAppOAuth", extensions=_GERENCIAR)
    async def editar_app_oauth(
        self, info: Info, id: strawberry.ID, dados: Annotated[Any, strawberry.argument(graphql_type=EdicaoAppInput)]
    ) -> AppOAuthType:
        app = await apps.editar_app(info.context.principal, id, as_dados(dados), bus=info.context.runtime.bus)
        return AppOAuthType.from_model(app)

    @strawberry.mutation(name="rotacionarSegredoAppOAuth", extensions=_GERENCIAR)
    async def rotacionar_segredo_app_oauth(self, info: Info, id: strawberry.ID) -> AppOAuthComSegredoType:
        return _com_segredo(await apps.rotacionar_segredo(info.context.principal, id, bus=info.context.runtime.bus))

    @strawberry.mutation(
        name="desativarAppOAuth", extensions=_GERENCIAR, description="For good: a disabled app is never enabled again."
    )
    async def desativar_app_oauth(self, info: Info, id: strawberry.ID) -> AppOAuthType:
        app = await apps.desativar_app(info.context.principal, id, bus=info.context.runtime.bus)
        return AppOAuthType.from_model(app)
