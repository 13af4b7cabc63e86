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


# conta_id -> whether it is a linked account. An account's origem never changes after it is
# created, so this never goes stale; it only spares a query on the reads by id.
_vinculadas: dict[str, bool] = {}


async def e_vinculada(conta_id: str | None) -> bool:
    if conta_id is None:
        return False
    vinculada = _vinculadas.get(conta_id)
    if vinculada is None:
        vinculada = await Conta.filter(id=conta_id, origem="vinculada").exists()
        if len(_vinculadas) > 100_000:
            _vinculadas.clear()
        _vinculadas[conta_id] = vinculada
    return vinculada


def vinculadas_de(integrador_id: str | None):
    """The ids of an integrator's linked accounts, as a subquery."""
    return Conta.filter(integrador_id=integrador_id, origem="vinculada").values("id")


async def apagar_dados_de_teste(integrador_id: str) -> dict[str, int]:
    """The test environment's sub-accounts (graphql_api/core/dados_de_teste.py); linked accounts
    (a seller's consent) are kept."""
    return {"contas": await Conta.filter(integrador_id=integrador_id, ambiente="teste", origem="subconta").delete()}
