"""People of the integrator. Sign-up and the password links are public (no session yet); the
session itself (sign-in, sign-out, re-authentication, environment) is authentication at the
portal's edge, as API keys are at the facade's (portal/session.py)."""

from typing import Annotated, Any

import strawberry
from strawberry.types import Info

from graphql_api.core.inputs import as_dados, input_type
from graphql_api.core.permissions import requires
from graphql_api.usuario import cadastro, equipe, links
from graphql_api.usuario.schemas import Cadastro, Convite
from graphql_api.usuario.types import LinkSenhaType, UsuarioType

_TEAM = requires("usuarios:gerenciar", portal_only=True)
CadastroInput = input_type(Cadastro)
ConviteInput = input_type(Convite)


@strawberry.type
class Query:
    @strawberry.field(extensions=requires(portal_only=True))
    async def eu(self, info: Info) -> UsuarioType:
        principal = info.context.principal
        return UsuarioType.from_model(await equipe.obter(principal, principal.ator_id))

    @strawberry.field(description="Public: a password link that can still be used, or null.")
    async def link_senha(self, info: Info, token: str) -> LinkSenhaType | None:
        link = await links.link_valido(token)
        if link is None:
            return None
        u = link.usuario
        return LinkSenhaType(motivo=link.motivo, nome=u.nome, email=u.email, expira_em=link.expira_em)

    @strawberry.field(extensions=_TEAM)
    async def usuarios(self, info: Info) -> list[UsuarioType]:
        return [UsuarioType.from_model(u) for u in await equipe.listar(info.context.principal)]


@strawberry.type
class Mutation:
    @strawberry.mutation(description="Public: a new integrator and its owner (no session needed).")
    async def cadastrar_integrador(
        self, info: Info, dados: Annotated[Any, strawberry.argument(graphql_type=CadastroInput)]
    ) -> UsuarioType:
        return UsuarioType.from_model(await cadastro.cadastrar(as_dados(dados)))

    @strawberry.mutation(description="Public: e-mails a reset link if the address has an account; always true.")
    async def pedir_redefinicao_senha(self, info: Info, email: str) -> bool:
        settings = info.context.settings
        await links.pedir_redefinicao(email, base_url=settings.base_url, smtp_url=settings.smtp_url)
        return True

    @strawberry.mutation(description="Public: uses a reset or invite link once to set the password.")
    async def definir_senha(self, info: Info, token: str, senha: str) -> UsuarioType:
        return UsuarioType.from_model(await links.definir_senha(token, senha))

    @strawberry.mutation(extensions=_TEAM)
    async def convidar_usuario(
        self, info: Info, dados: Annotated[Any, strawberry.argument(graphql_type=ConviteInput)]
    ) -> UsuarioType:
        settings = info.context.settings
        usuario = await equipe.convidar(
            info.context.principal, as_dados(dados), base_url=settings.base_url, smtp_url=settings.smtp_url
        )
        return UsuarioType.from_model(usuario)

    @strawberry.mutation(extensions=_TEAM)
    async def alterar_papel(self, info: Info, usuario_id: str, papel: str) -> UsuarioType:
        return UsuarioType.from_model(await equipe.alterar_papel(info.context.principal, usuario_id, papel))

    @strawberry.mutation(extensions=_TEAM)
    async def remover_usuario(self, info: Info, usuario_id: str) -> bool:
        await equipe.remover(info.context.principal, usuario_id)
        return True
