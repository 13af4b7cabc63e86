"""The credit wallet: balance, statement and prices."""

from graphql_api.executor import Operation
from graphql_api.operations import fragments

SALDO = Operation("query Saldo { saldo { ...SaldoFields } }" + fragments.SALDO)
EXTRATO = Operation(
    "query Extrato($filtros: FiltroExtratoInput, $limite: Int, $cursor: String) "
    "{ extrato(filtros: $filtros, limite: $limite, cursor: $cursor) "
    "{ itens { ...LancamentoFields } " + fragments.PAGINACAO + " } }" + fragments.LANCAMENTO
)
PRECOS = Operation("query Precos { precos { ...PrecoFields } }" + fragments.PRECO)
