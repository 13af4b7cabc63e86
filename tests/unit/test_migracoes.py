"""Upgrading a database that holds data: every migration after the first release must apply on
top of rows written by the older code (a NOT NULL column added without a database default is
refused by SQLite and PostgreSQL on a non-empty table), and keep what the rows meant."""

import sqlite3

from tortoise import Tortoise
from tortoise.migrations.api import migrate as run_migrations

from vitrine.db import tortoise_config
from vitrine.settings import Settings

ANTES_DE_OAUTH_E_COBRANCA = "0004_email_proxima_tentativa"
AGORA = "2026-11-01 12:00:00+00:00"


async def _migrar(settings: Settings, target: str | None = None) -> None:
    try:
        await run_migrations(config=tortoise_config(settings), target=target)
    finally:
        await Tortoise.close_connections()


async def test_an_older_database_with_data_upgrades_and_keeps_the_balances(tmp_path):
    settings = Settings(data_dir=tmp_path, database_url=f"sqlite://{tmp_path}/antigo.sqlite3")
    await _migrar(settings, f"vitrine.{ANTES_DE_OAUTH_E_COBRANCA}")
    banco = sqlite3.connect(tmp_path / "antigo.sqlite3")
    banco.execute(
        "INSERT INTO integradores (id, nome, email, situacao, producao_situacao, criado_em, atualizado_em)"
        " VALUES ('itg_antigo', 'Antigo', 'a@a.test', 'ativo', 'bloqueada', ?, ?)",
        (AGORA, AGORA),
    )
    banco.execute(
        "INSERT INTO carteiras (integrador_id, ambiente, modelo_cobranca, creditos_disponiveis, creditos_reservados,"
        " atualizado_em) VALUES ('itg_antigo', 'teste', 'pre_pago', 1000, 0, ?)",
        (AGORA,),
    )
    banco.execute(
        "INSERT INTO lancamentos (id, tipo, disponiveis, reservados, descricao, criado_em, carteira_id)"
        " VALUES ('lan_antigo', 'recarga', 1000, 0, 'Créditos de teste iniciais.', ?, 1)",
        (AGORA,),
    )
    banco.execute("INSERT INTO tentativas_entrada (email, ip, criado_em) VALUES ('a@a.test', '10.0.0.1', ?)", (AGORA,))
    banco.commit()
    banco.close()

    await _migrar(settings)  # to the newest

    banco = sqlite3.connect(tmp_path / "antigo.sqlite3")
    carteira = banco.execute(
        "SELECT creditos_disponiveis, creditos_plano, creditos_pacote, creditos_reservados FROM carteiras"
    ).fetchone()
    assert carteira == (1000, 0, 1000, 0)  # credits held before plans never expire: the package pool
    assert banco.execute("SELECT disponiveis, plano, pacote FROM lancamentos").fetchone() == (1000, 0, 1000)
    assert banco.execute("SELECT tipo FROM tentativas_entrada").fetchone() == ("usuario",)
    banco.close()
