"""Accounts (subaccounts and linked accounts)."""

from graphql_api.executor import Operation
from graphql_api.operations import fragments

CRIAR_CONTA = Operation(
    "mutation CriarConta($dados: NovaContaInput!) { criarConta(dados: $dados) { ...ContaFields } }" + fragments.CONTA
)
OBTER_CONTA = Operation("query Conta($id: ID!) { conta(id: $id) { ...ContaFields } }" + fragments.CONTA)
LISTAR_CONTAS = Operation(
    """query Contas($limite: Int, $cursor: String, $codigoExterno: String, $origem: String, $situacao: String) {
      contas(limite: $limite, cursor: $cursor, codigoExterno: $codigoExterno, origem: $origem, situacao: $situacao) {
        itens { ...ContaFields } """
    + fragments.PAGINACAO
    + """
      }
    }"""
    + fragments.CONTA
)
