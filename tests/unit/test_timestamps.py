"""The contract's <timestamp>: ISO 8601 in UTC with a Z, to the millisecond."""

from datetime import UTC, datetime, timedelta, timezone

import pytest

from graphql_api.core.scalars import format_timestamp, parse_timestamp


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (datetime(2026, 11, 22, 19, 0, 0, 123456, tzinfo=UTC), "2026-11-22T19:00:00.123Z"),
        (datetime(2026, 11, 22, 19, 0, 0), "2026-11-22T19:00:00.000Z"),  # naive is UTC
        (datetime(2026, 11, 22, 16, 0, 0, 5000, tzinfo=timezone(timedelta(hours=-3))), "2026-11-22T19:00:00.005Z"),
        (datetime(2026, 11, 23, 1, 30, tzinfo=timezone(timedelta(hours=5, minutes=30))), "2026-11-22T20:00:00.000Z"),
    ],
)
def test_timestamps_are_utc_with_a_z_to_the_millisecond(value, expected):
    assert format_timestamp(value) == expected


def test_a_formatted_timestamp_parses_back_to_the_same_millisecond():
    value = datetime(2026, 11, 22, 19, 0, 0, 123000, tzinfo=UTC)
    assert parse_timestamp(format_timestamp(value)) == value
