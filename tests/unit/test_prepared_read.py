"""A read by primary key with its SQL built once returns what Tortoise's own read returns."""

from datetime import UTC, datetime

from graphql_api.core.prepared import ReadByPk
from graphql_api.geracao.models import Geracao


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
