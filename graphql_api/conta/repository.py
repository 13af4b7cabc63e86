from graphql_api.conta.models import Conta
from graphql_api.core.principal import Principal
from graphql_api.core.tenancy import account_filter, tenant_filter


def visible(principal: Principal):
    """Accounts the caller may see: the integrator's in its environment, or the linked one."""
    return Conta.filter(**account_filter(principal, field="id"))


async def get_visible(principal: Principal, conta_id: str) -> Conta | None:
    return await visible(principal).filter(id=conta_id).first()


async def by_codigo_externo(principal: Principal, codigo_externo: str) -> Conta | None:
    return await Conta.filter(**tenant_filter(principal), codigo_externo=codigo_externo).first()
