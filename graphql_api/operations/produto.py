"""Products (their data sheets) and their checks."""

from graphql_api.executor import Operation
from graphql_api.operations import fragments

SALVAR_FICHA = Operation(
    """mutation SalvarFicha($contaId: String!, $codigo: String!, $ficha: FichaInput!) {
      salvarFicha(contaId: $contaId, codigo: $codigo, ficha: $ficha) { ...ProdutoFields }
    }"""
    + fragments.PRODUTO
)
OBTER_PRODUTO = Operation(
    "query Produto($contaId: String!, $codigo: String!) { produto(contaId: $contaId, codigo: $codigo) { ...ProdutoFields } }"
    + fragments.PRODUTO
)
LISTAR_PRODUTOS = Operation(
    """query Produtos($contaId: String!, $limite: Int, $cursor: String, $situacao: String) {
      produtos(contaId: $contaId, limite: $limite, cursor: $cursor, situacao: $situacao) {
        itens { ...ProdutoFields } """
    + fragments.PAGINACAO
    + """
      }
    }"""
    + fragments.PRODUTO
)
EXCLUIR_FICHA = Operation(
    "mutation ExcluirFicha($contaId: String!, $codigo: String!) { excluirFicha(contaId: $contaId, codigo: $codigo) }"
)
CONFERIR_PRODUTO = Operation(
    """mutation ConferirProduto($produtoId: String!, $refazer: Boolean!) {
      conferirProduto(produtoId: $produtoId, refazer: $refazer) { contaId ...ConferenciaFields }
    }"""
    + fragments.CONFERENCIA
)
