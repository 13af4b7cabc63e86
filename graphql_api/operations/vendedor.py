"""Sellers: sign-up and the signed-in seller (the seller pages of the portal)."""

from graphql_api.executor import Operation

_VENDEDOR = "fragment VendedorFields on Vendedor { id nome email }"

CADASTRAR_VENDEDOR = Operation(
    "mutation CadastrarVendedor($dados: CadastroVendedorInput!) { cadastrarVendedor(dados: $dados) { ...VendedorFields } }"
    + _VENDEDOR
)
VENDEDOR_ATUAL = Operation("query VendedorAtual { vendedorAtual { ...VendedorFields } }" + _VENDEDOR)
