"""The integration: call log, recent errors, the steps and the production request."""

from graphql_api.executor import Operation
from graphql_api.operations import fragments

LISTAR_CHAMADAS = Operation(
    """query Chamadas($filtros: FiltroChamadasInput, $limite: Int, $cursor: String) {
      chamadas(filtros: $filtros, limite: $limite, cursor: $cursor) {
        itens { ...ChamadaFields } """
    + fragments.PAGINACAO
    + """
      }
    }"""
    + fragments.CHAMADA
)
ENDPOINTS_CHAMADAS = Operation("query EndpointsChamadas { endpointsChamadas }")
APPS_CHAMADAS = Operation("query AppsChamadas { appsChamadas { clientId nome ativo } }")
OBTER_CHAMADA = Operation(
    "query Chamada($requestId: String!) { chamada(requestId: $requestId) { ...ChamadaDetalheFields } }"
    + fragments.CHAMADA_DETALHE
)
INTEGRACAO_STATUS = Operation(
    "query IntegracaoStatus { integracaoStatus { ...IntegracaoStatusFields } }" + fragments.INTEGRACAO_STATUS
)
PEDIR_PRODUCAO = Operation(
    "mutation PedirProducao { pedirProducao { ...IntegracaoStatusFields } }" + fragments.INTEGRACAO_STATUS
)
ERROS_RECENTES = Operation("query ErrosRecentes { errosRecentes { ...ErroRecenteFields } }" + fragments.ERRO_RECENTE)
LIMPAR_DADOS_DE_TESTE = Operation(
    "mutation LimparDadosDeTeste { limparDadosDeTeste "
    "{ contas produtos conferencias geracoes imagens chamadas entregas eventos } }"
)
