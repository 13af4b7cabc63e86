from graphql_api.core.principal import Principal
from graphql_api.core.tenancy import can_see
from graphql_api.geracao.models import Geracao


async def get_visible(principal: Principal, geracao_id: str) -> Geracao | None:
    # By primary key, then the tenant rule: the cheapest read on the API's busiest route.
    geracao = await Geracao.get_or_none(id=geracao_id)
    return geracao if geracao is not None and can_see(principal, geracao) else None
