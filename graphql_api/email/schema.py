import strawberry
from strawberry.types import Info

from graphql_api.core.pagination import PageRequest, Pagina, pagina
from graphql_api.core.permissions import requires
from graphql_api.email import service
from graphql_api.email.types import EmailDetalheType, EmailType

_OUTBOX = requires("emails:ler", portal_only=True)


@strawberry.type
class Query:
    @strawberry.field(extensions=_OUTBOX)
    async def emails(self, info: Info, limite: int | None = None, cursor: str | None = None) -> Pagina[EmailType]:
        page = PageRequest.of(limite, cursor, prefixo="eml_")
        rows, next_cursor = await service.listar_emails(info.context.principal, page)
        return pagina([EmailType.from_model(e) for e in rows], page, next_cursor)

    @strawberry.field(extensions=_OUTBOX)
    async def email(self, info: Info, id: strawberry.ID) -> EmailDetalheType:
        principal = info.context.principal
        email = await service.obter_email(principal, id)
        oculto = service.motivo_oculto(principal, email)
        return EmailDetalheType(
            **vars(EmailType.from_model(email)), texto=None if oculto else email.texto, oculto=oculto
        )
