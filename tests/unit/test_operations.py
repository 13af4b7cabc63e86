"""The shared GraphQL operations (graphql_api/operations) all validate against the schema, each
has its own name, and a broken one is refused by the check the app factory runs at start-up."""

import pytest

from graphql_api import operations
from graphql_api.executor import Operation, OperationError
from graphql_api.operations import conta


def test_every_shared_operation_is_valid_and_named():
    assert operations.check() >= 30
    names = operations.all_operations()
    assert {"CriarConta", "SalvarFicha", "CriarGaleria", "Chamadas", "RegistrarAviso"} <= set(names)
    assert names["CriarConta"] is conta.CRIAR_CONTA


def test_check_refuses_an_invalid_or_unnamed_operation(monkeypatch):
    monkeypatch.setattr(conta, "QUEBRADA", Operation("query Quebrada { contaQueNaoExiste { id } }"), raising=False)
    with pytest.raises(OperationError, match="contaQueNaoExiste"):
        operations.check()
    monkeypatch.setattr(conta, "QUEBRADA", Operation("query { saldo { creditosDisponiveis } }"))
    with pytest.raises(ValueError, match="no name"):
        operations.check()
    monkeypatch.setattr(conta, "QUEBRADA", Operation("query Saldo { saldo { creditosDisponiveis } }"))
    with pytest.raises(ValueError, match="Saldo"):
        operations.check()
