"""Notice addresses (webhooks), their deliveries and test runs."""

from graphql_api.executor import Operation
from graphql_api.operations import fragments

_REGISTRO = "{ criado segredo aviso { ...AvisoFields } }"
REGISTRAR_AVISO = Operation(
    "mutation RegistrarAviso($dados: NovoAvisoInput!) { registrarAviso(dados: $dados) "
    + _REGISTRO
    + " }"
    + fragments.AVISO
)
ROTACIONAR_SEGREDO = Operation(
    "mutation RotacionarSegredoAviso($id: ID!, $dados: RotacaoInput) { rotacionarSegredoAviso(id: $id, dados: $dados) "
    + _REGISTRO
    + " }"
    + fragments.AVISO
)
LISTAR_AVISOS = Operation(
    "query Avisos($limite: Int, $cursor: String) { avisos(limite: $limite, cursor: $cursor) { itens { ...AvisoFields } "
    + fragments.PAGINACAO
    + " } }"
    + fragments.AVISO
)
OBTER_AVISO = Operation("query Aviso($id: ID!) { aviso(id: $id) { ...AvisoFields } }" + fragments.AVISO)
REMOVER_AVISO = Operation("mutation RemoverAviso($id: ID!) { removerAviso(id: $id) }")
LISTAR_ENTREGAS = Operation(
    """query EntregasAviso($avisoId: String!, $limite: Int, $cursor: String, $situacao: String, $tipo: String) {
      entregasAviso(avisoId: $avisoId, limite: $limite, cursor: $cursor, situacao: $situacao, tipo: $tipo) {
        itens { ...EntregaFields } """
    + fragments.PAGINACAO
    + """
      }
    }"""
    + fragments.ENTREGA
)
REENVIAR_ENTREGA = Operation(
    "mutation ReenviarEntregaAviso($avisoId: String!, $entregaId: String!) "
    "{ reenviarEntregaAviso(avisoId: $avisoId, entregaId: $entregaId) { ...EntregaFields } }" + fragments.ENTREGA
)
TESTAR_AVISO = Operation(
    "mutation TestarAviso($dados: PedidoTesteInput) { testarAviso(dados: $dados) { ...TesteAvisoFields } }"
    + fragments.TESTE_AVISO
)
OBTER_TESTE = Operation(
    "query TesteAviso($id: ID!) { testeAviso(id: $id) { ...TesteAvisoFields } }" + fragments.TESTE_AVISO
)
OBTER_ENTREGA = Operation(
    "query EntregaAviso($avisoId: String!, $id: ID!) { entregaAviso(avisoId: $avisoId, id: $id) "
    "{ ...EntregaDetalheFields } }" + fragments.ENTREGA_DETALHE
)
ENVIAR_EVENTO_TESTE = Operation(
    "mutation EnviarEventoTeste($avisoId: String!, $tipo: String!) "
    "{ enviarEventoTeste(avisoId: $avisoId, tipo: $tipo) { ...EntregaFields } }" + fragments.ENTREGA
)
