"""How the database connections are configured."""

from vitrine.db import tortoise_config
from vitrine.settings import Settings

PG = "postgres://postgres@127.0.0.1:5432/vitrine"


def test_requests_get_a_pool_as_large_as_the_setting_and_the_call_log_keeps_the_default():
    connections = tortoise_config(Settings(database_url=PG, database_pool_size=20))["connections"]
    assert connections["default"]["credentials"]["maxsize"] == 20
    assert "maxsize" not in connections["chamadas"]["credentials"]


def test_a_pool_size_in_the_url_wins_over_the_setting():
    connections = tortoise_config(Settings(database_url=PG + "?maxsize=7", database_pool_size=20))["connections"]
    assert int(connections["default"]["credentials"]["maxsize"]) == 7


def test_retention_purges_get_one_connection_of_their_own():
    connections = tortoise_config(Settings(database_url=PG, database_pool_size=20))["connections"]
    assert connections["expurgo"]["credentials"]["maxsize"] == 1
