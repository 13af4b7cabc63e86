"""OAuth: the consent page's checks and answers, and the seller's connected apps."""

from graphql_api.executor import Operation

PEDIDO_AUTORIZACAO = Operation(
    """query PedidoAutorizacao($pedido: PedidoAutorizacaoInput!) {
      pedidoAutorizacao(pedido: $pedido) {
        redirecionarPara clientId appNome integradorNome ambiente escopos { codigo descricao }
        destino destinoTipo
      }
    }"""
)
AUTORIZAR_APP = Operation("mutation AutorizarApp($pedido: PedidoAutorizacaoInput!) { autorizarApp(pedido: $pedido) }")
RECUSAR_AUTORIZACAO = Operation(
    "mutation RecusarAutorizacao($pedido: PedidoAutorizacaoInput!) { recusarAutorizacao(pedido: $pedido) }"
)
APPS_CONECTADOS = Operation(
    """query AppsConectados {
      appsConectados { appId appNome integradorNome ambiente contaId escopos { codigo descricao } autorizadoEm }
    }"""
)
REVOGAR_APP_CONECTADO = Operation("mutation RevogarAppConectado($appId: ID!) { revogarAppConectado(appId: $appId) }")
