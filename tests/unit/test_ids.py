"""Ids: a prefix and a ULID's 26 characters, in creation order, dated by their moment."""

import random
from datetime import UTC, datetime

from ulid import ULID

from graphql_api.core.ids import _texto_ulid, id_do_momento, new_id


def test_the_text_is_the_ulid_standard_text_in_lowercase():
    gerador = random.Random(19)
    valores = [0, 1, 2**127, 2**128 - 1] + [gerador.getrandbits(128) for _ in range(20_000)]
    for valor in valores:
        assert _texto_ulid(valor) == str(ULID.from_int(valor)).lower()


def test_ids_made_one_after_another_sort_in_creation_order_and_never_repeat():
    ids = [new_id("req_") for _ in range(50_000)]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    assert all(len(i) == len("req_") + 26 for i in ids)


def test_an_id_carries_its_moment_to_the_millisecond():
    momento = datetime(2026, 11, 26, 3, 4, 5, 678000, tzinfo=UTC)
    id_ = new_id("lan_", momento)
    assert ULID.from_str(id_.removeprefix("lan_").upper()).datetime == momento
    assert id_do_momento("lan_", momento) <= id_
