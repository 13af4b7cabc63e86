"""The one "find it or NOT_FOUND" of the domain: an id that cannot exist costs no query."""

import pytest

from graphql_api.core.errors import ApiError
from graphql_api.core.ids import encontrar, new_id


async def test_an_id_that_cannot_exist_is_not_found_without_asking():
    asked = []

    async def buscar():
        asked.append(True)
        return "linha"

    with pytest.raises(ApiError) as error:
        await encontrar("ger_../../x", "ger_", buscar, "Geração ger_../../x não encontrada.")
    assert error.value.type == "NOT_FOUND" and asked == []
    assert error.value.description == "Geração ger_../../x não encontrada."


async def test_a_well_formed_id_is_looked_up_and_what_is_found_returned():
    id_ = new_id("ger_")

    async def buscar():
        return {"id": id_}

    assert await encontrar(id_, "ger_", buscar, "nada") == {"id": id_}


async def test_a_well_formed_id_that_finds_nothing_is_not_found():
    async def buscar():
        return None

    with pytest.raises(ApiError) as error:
        await encontrar(new_id("cta_"), "cta_", buscar, "Conta não encontrada.")
    assert error.value.type == "NOT_FOUND"
