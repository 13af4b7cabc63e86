"""The one model → GraphQL type conversion (graphql_api/core/conversao.py)."""

from dataclasses import dataclass

import pytest
import strawberry

from graphql_api.core.conversao import do_modelo


@strawberry.type
class Exemplo:
    id: strawberry.ID
    nome: str
    ativo: bool
    nota: str | None = None

    @strawberry.field
    def resolvido(self) -> str:
        return self.nome.upper()


@dataclass
class Modelo:
    id: str
    nome: str
    revogado: bool
    nota: str | None = "da origem"


def test_fields_come_from_attributes_of_the_same_name_and_computed_ones_win():
    tipo = do_modelo(Exemplo, Modelo("x1", "Ana", revogado=True), ativo=False, nome="Bia")
    assert (tipo.id, tipo.nome, tipo.ativo, tipo.nota) == ("x1", "Bia", False, "da origem")
    assert tipo.resolvido() == "BIA"


def test_a_required_field_the_origin_lacks_fails_loudly():
    with pytest.raises(TypeError, match="ativo"):
        do_modelo(Exemplo, Modelo("x1", "Ana", revogado=False))


def test_a_computed_field_the_type_lacks_fails_loudly():
    with pytest.raises(TypeError, match="has no field revogado"):
        do_modelo(Exemplo, Modelo("x1", "Ana", revogado=False), ativo=True, revogado=False)
