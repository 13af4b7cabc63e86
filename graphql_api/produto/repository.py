from tortoise.expressions import Subquery

from graphql_api.core.principal import Principal
from graphql_api.core.tenancy import account_filter
from graphql_api.produto.models import Produto, ProdutoVersao


def visible(principal: Principal):
    """Products the caller may see: its tenant's, not deleted. An OAuth token: its linked
    account's; anyone else: none of a linked account (graphql_api/conta/service.py)."""
    query = Produto.filter(**account_filter(principal), excluido_em__isnull=True)
    return query if principal.conta_id is not None else query.exclude(conta__origem="vinculada")


def of_account(conta_id: str):
    """Every product an account ever had, deleted ones included (the scope of its list's cursor)."""
    return Produto.filter(conta_id=conta_id)


async def for_update(conta_id: str, codigo: str) -> Produto | None:
    return await Produto.select_for_update().filter(conta_id=conta_id, codigo=codigo, excluido_em__isnull=True).first()


async def visible_for_update(principal: Principal, produto_id: str) -> Produto | None:
    return await visible(principal).select_for_update().filter(id=produto_id).first()


async def travar(produto_id: str) -> Produto:
    # Callers hold a check or generation whose foreign key guarantees the row exists.
    return await Produto.select_for_update().get(id=produto_id)


async def apagar_dados_de_teste(integrador_id: str) -> dict[str, int]:
    """The test environment's products and their versions (graphql_api/core/dados_de_teste.py)."""
    teste = {"integrador_id": integrador_id, "ambiente": "teste"}
    produtos = Produto.filter(**teste).values("id")
    return {
        "versoes": await ProdutoVersao.filter(produto_id__in=Subquery(produtos)).delete(),
        "produtos": await Produto.filter(**teste).delete(),
    }
