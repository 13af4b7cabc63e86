from graphql_api.core.principal import Principal
from graphql_api.core.tenancy import account_filter
from graphql_api.produto.models import Produto


def visible(principal: Principal):
    return Produto.filter(**account_filter(principal))


async def for_update(conta_id: str, codigo: str) -> Produto | None:
    return await Produto.select_for_update().filter(conta_id=conta_id, codigo=codigo).first()
