from graphql_api.core.prepared import ReadByPk
from graphql_api.core.principal import Principal
from graphql_api.core.tenancy import can_see
from graphql_api.geracao.models import Geracao

_read_geracao = ReadByPk(Geracao)


async def get_visible(principal: Principal, geracao_id: str) -> Geracao | None:
    # By primary key, then the tenant rule: the cheapest read on the API's busiest route.
    geracao = await _read_geracao.get_or_none(geracao_id)
    return geracao if geracao is not None and can_see(principal, geracao) else None
