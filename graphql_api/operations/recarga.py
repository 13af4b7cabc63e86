"""Single packages and their purchases (recargas), and the checkout page's answer."""

from graphql_api.executor import Operation
from graphql_api.operations import fragments

PACOTES = Operation("query Pacotes { pacotes { ...PacoteFields } }" + fragments.PACOTE)
CRIAR_RECARGA = Operation(
    "mutation CriarRecarga($dados: NovaRecargaInput!) { criarRecarga(dados: $dados) { ...RecargaFields } }"
    + fragments.RECARGA
)
OBTER_RECARGA = Operation("query Recarga($id: ID!) { recarga(id: $id) { ...RecargaFields } }" + fragments.RECARGA)
LISTAR_RECARGAS = Operation(
    """query Recargas($limite: Int, $cursor: String, $situacao: String) {
      recargas(limite: $limite, cursor: $cursor, situacao: $situacao) {
        itens { ...RecargaFields } """
    + fragments.PAGINACAO
    + """
      }
    }"""
    + fragments.RECARGA
)
CONFIRMAR_RECARGA = Operation(
    "mutation ConfirmarRecarga($id: ID!, $recusar: Boolean! = false, $referencia: String) "
    "{ confirmarRecarga(id: $id, recusar: $recusar, referencia: $referencia) { ...RecargaFields } }" + fragments.RECARGA
)
