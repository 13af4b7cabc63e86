import strawberry
from strawberry.types import Info

from graphql_api.core.permissions import integrator_or_staff, requires
from graphql_api.integracao import contrato, limpeza, service
from graphql_api.integracao.types import AceiteContratoType, ContratoType, LimpezaTesteType, StatusType


@strawberry.type
class Query:
    @strawberry.field(extensions=requires(integrator_only=True))
    async def integracao_status(self, info: Info) -> StatusType:
        status = await service.status(info.context.principal)
        return StatusType.from_status(status, info.context.settings.docs_url)

    @strawberry.field(extensions=integrator_or_staff(), description="The version every integrator must accept.")
    async def contrato_vigente(self, info: Info) -> ContratoType:
        return ContratoType.from_model(await contrato.vigente())

    @strawberry.field(
        extensions=requires(integrator_only=True),
        description="The acceptance of the current version; null until accepted.",
    )
    async def aceite_contrato(self, info: Info) -> AceiteContratoType | None:
        aceite = await contrato.aceite_vigente(info.context.principal.integrador_id)
        return AceiteContratoType.from_model(aceite) if aceite else None


@strawberry.type
class Mutation:
    @strawberry.mutation(extensions=requires(integrator_only=True))
    async def pedir_producao(self, info: Info) -> StatusType:
        status = await service.pedir_producao(info.context.principal)
        return StatusType.from_status(status, info.context.settings.docs_url)

    # A person binds the company: owners only, in the portal, with the password typed again.
    @strawberry.mutation(extensions=requires("contrato:aceitar", portal_only=True))
    async def aceitar_contrato(self, info: Info, versao: int) -> AceiteContratoType:
        return AceiteContratoType.from_model(await contrato.aceitar_no_portal(info.context.principal, versao))

    # Deleting a whole environment's data is a person's decision, taken with the password again.
    @strawberry.mutation(
        extensions=requires("contas:escrever", portal_only=True),
        description="Delete the test environment's accounts, products, generations, calls and deliveries; "
        "the integration steps are judged again from what remains. Production is untouched.",
    )
    async def limpar_dados_de_teste(self, info: Info) -> LimpezaTesteType:
        return LimpezaTesteType.of(await limpeza.limpar_dados_de_teste(info.context.principal, info.context.runtime))
