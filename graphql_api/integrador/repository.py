from graphql_api.integrador.models import Integrador


async def get(integrador_id: str) -> Integrador | None:
    return await Integrador.get_or_none(id=integrador_id)
