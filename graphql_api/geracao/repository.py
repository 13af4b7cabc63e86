from graphql_api.core.principal import Principal
from graphql_api.core.tenancy import account_filter
from graphql_api.geracao.models import Geracao


async def get_visible(principal: Principal, geracao_id: str) -> Geracao | None:
    return await Geracao.filter(id=geracao_id, **account_filter(principal)).first()
