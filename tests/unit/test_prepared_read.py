"""A read by primary key with its SQL built once returns what Tortoise's own read returns."""

from datetime import UTC, datetime

import pytest

from graphql_api.core.prepared import ReadByPk
from graphql_api.geracao.models import Geracao

# The statement differs per database: these run in both legs of the suite, shortcuts on in both.
pytestmark = pytest.mark.usefixtures("shortcuts_on")


async def test_reads_the_same_row_as_tortoise_with_every_field_converted(factory, integrator):
    concluida = datetime(2026, 11, 1, 12, 30, 15, 123000, tzinfo=UTC)
    geracao = await factory.geracao(integrator, concluida_em=concluida, resultados=[{"url": "https://x/1.jpg"}])
    read = ReadByPk(Geracao)

    prepared = await read.get_or_none(geracao.id)
    again = await read.get_or_none(geracao.id)  # the statement is reused, not rebuilt
    expected = await Geracao.get(id=geracao.id)

    assert isinstance(prepared, Geracao) and prepared is not again
    for field in Geracao._meta.fields_map:
        if field in Geracao._meta.fetch_fields:
            continue
        assert getattr(prepared, field) == getattr(expected, field), field
    assert prepared.concluida_em == concluida and prepared.concluida_em.tzinfo is not None
    assert not prepared._partial and prepared._saved_in_db  # a full model that can be saved


async def test_a_missing_key_reads_none(client):
    assert await ReadByPk(Geracao).get_or_none("ger_naoexiste000000000") is None


async def test_with_the_shortcuts_off_it_is_tortoises_own_read(factory, integrator, monkeypatch):
    from graphql_api.core import shortcuts

    geracao = await factory.geracao(integrator)
    read = ReadByPk(Geracao)
    monkeypatch.setattr(shortcuts, "_enabled", False)
    monkeypatch.setattr(ReadByPk, "_statement", None)  # no prepared statement may be built
    assert (await read.get_or_none(geracao.id)).id == geracao.id
