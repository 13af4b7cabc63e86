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

# Listening sessions (vitrine-cli listen) and sample events (vitrine-cli trigger).
ABRIR_ESCUTA = Operation(
    "mutation AbrirEscutaAviso($dados: NovaEscutaInput) { abrirEscutaAviso(dados: $dados) "
    "{ segredo escuta { ...EscutaFields } } }" + fragments.ESCUTA
)
OBTER_ESCUTA = Operation("query EscutaAviso($id: ID!) { escutaAviso(id: $id) { ...EscutaFields } }" + fragments.ESCUTA)
CONECTAR_ESCUTA = Operation(
    "mutation ConectarEscutaAviso($id: ID!) { conectarEscutaAviso(id: $id) { ...EscutaFields } }" + fragments.ESCUTA
)
# The stream hands the command each delivery's exact body (corpo), which it signs and forwards.
PROXIMAS_ENTREGAS_ESCUTA = Operation(
    "mutation ProximasEntregasEscuta($escutaId: String!, $esperaSegundos: Float!) "
    "{ proximasEntregasEscuta(escutaId: $escutaId, esperaSegundos: $esperaSegundos) "
    "{ encerrada entregas { id eventoId tipo corpo } } }"
)
ENCERRAR_ESCUTA = Operation(
    "mutation EncerrarEscutaAviso($id: ID!) { encerrarEscutaAviso(id: $id) { ...EscutaFields } }" + fragments.ESCUTA
)
REGISTRAR_RESULTADO_ESCUTA = Operation(
    "mutation RegistrarResultadoEscuta($escutaId: String!, $entregaId: String!, $dados: ResultadoEscutaInput!) "
    "{ registrarResultadoEscuta(escutaId: $escutaId, entregaId: $entregaId, dados: $dados) "
    "{ ...EntregaEscutaFields } }" + fragments.ENTREGA_ESCUTA
)
LISTAR_ENTREGAS_ESCUTA = Operation(
    """query EntregasEscutaAviso($escutaId: String!, $limite: Int, $cursor: String) {
      entregasEscutaAviso(escutaId: $escutaId, limite: $limite, cursor: $cursor) {
        itens { ...EntregaEscutaFields } """
    + fragments.PAGINACAO
    + """
      }
    }"""
    + fragments.ENTREGA_ESCUTA
)
DISPARAR_EVENTO = Operation(
    "mutation DispararEventoAviso($dados: DisparoInput!) { dispararEventoAviso(dados: $dados) "
    "{ ...EventoEmitidoFields } }" + fragments.EVENTO_EMITIDO
)
OBTER_ENTREGA = Operation(
    "query EntregaAviso($avisoId: String!, $id: ID!) { entregaAviso(avisoId: $avisoId, id: $id) "
    "{ ...EntregaDetalheFields } }" + fragments.ENTREGA_DETALHE
)
ENVIAR_EVENTO_TESTE = Operation(
    "mutation EnviarEventoTeste($avisoId: String!, $tipo: String!) "
    "{ enviarEventoTeste(avisoId: $avisoId, tipo: $tipo) { ...EntregaFields } }" + fragments.ENTREGA
)
