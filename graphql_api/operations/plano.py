"""Plans: the catalogue, the environment's plan and its monthly quota, plan changes."""

from graphql_api.executor import Operation
from graphql_api.operations import fragments

PLANOS = Operation("query Planos { planos { ...PlanoFields } }" + fragments.PLANO)
PLANO = Operation("query PlanoAtual { plano { ...PlanoAtualFields } }" + fragments.PLANO_ATUAL)
COTA_DO_MES = Operation("query CotaDoMes { cotaDoMes { ...CotaDoMesFields } }" + fragments.COTA_DO_MES)
MUDAR_PLANO = Operation(
    "mutation MudarPlano($entrada: MudancaPlanoInput!) { mudarPlano(entrada: $entrada) { ...PlanoAtualFields } }"
    + fragments.PLANO_ATUAL
)
CANCELAR_MUDANCA_PLANO = Operation(
    "mutation CancelarMudancaPlano { cancelarMudancaPlano { ...PlanoAtualFields } }" + fragments.PLANO_ATUAL
)
