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


async def _banco_em(tmp_path, versao: str, integrador_id: str) -> tuple[Settings, sqlite3.Connection]:
    """A SQLite database migrated up to `versao`, holding one integrator, open for raw inserts."""
    settings = Settings(data_dir=tmp_path, database_url=f"sqlite://{tmp_path}/antigo.sqlite3")
    await _migrar(settings, f"vitrine.{versao}")
    banco = sqlite3.connect(tmp_path / "antigo.sqlite3")
    banco.execute(
        "INSERT INTO integradores (id, nome, email, situacao, producao_situacao, criado_em, atualizado_em)"
        " VALUES (?, 'Integradora', 'i@i.test', 'ativo', 'bloqueada', ?, ?)",
        (integrador_id, AGORA, AGORA),
    )
    return settings, banco


async def test_an_older_database_with_data_upgrades_and_keeps_the_balances(tmp_path):
    settings, banco = await _banco_em(tmp_path, ANTES_DE_OAUTH_E_COBRANCA, "itg_antigo")
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


ANTES_DE_OAUTH_POR_ORIGEM = "0014_amostras_de_avisos"


async def test_oauth_grants_survive_and_are_granted_only_once_exchanged(tmp_path):
    """Migration 0015 drops a column of apps_oauth, which authorisations, codes and tokens point
    to: on SQLite a rebuilt table would take them all with it (ON DELETE CASCADE)."""
    settings, banco = await _banco_em(tmp_path, ANTES_DE_OAUTH_POR_ORIGEM, "itg_1")
    for vendedor in "ABC":
        banco.execute(
            "INSERT INTO vendedores (id, nome, email, hash_senha, criado_em) VALUES (?, ?, ?, '-', ?)",
            (f"vnd_{vendedor}", vendedor, f"{vendedor}@v.test", AGORA),
        )
        banco.execute(
            "INSERT INTO contas (id, ambiente, codigo_externo, nome, origem, situacao, criado_em, atualizado_em,"
            " integrador_id, vendedor_id) VALUES (?, 'teste', ?, ?, 'vinculada', 'ativa', ?, ?, 'itg_1', ?)",
            (f"cta_{vendedor}", f"vnd_{vendedor}", vendedor, AGORA, AGORA, f"vnd_{vendedor}"),
        )
        banco.execute(
            "INSERT INTO autorizacoes_oauth (id, integrador_id, ambiente, escopos, criado_em, app_id, conta_id,"
            " vendedor_id) VALUES (?, 'itg_1', 'teste', '[]', ?, 'app_1', ?, ?)",
            (f"aut_{vendedor}", AGORA, f"cta_{vendedor}", f"vnd_{vendedor}"),
        )
    banco.execute(
        "INSERT INTO contas (id, ambiente, codigo_externo, nome, origem, situacao, criado_em, atualizado_em,"
        " integrador_id) VALUES ('cta_S', 'teste', 'loja-1', 'Subconta', 'subconta', 'ativa', ?, ?, 'itg_1')",
        (AGORA, AGORA),
    )
    banco.execute(
        "INSERT INTO apps_oauth (id, ambiente, nome, tipo, redirect_uris, escopos, situacao, bloqueado_ate, criado_em,"
        " atualizado_em, integrador_id) VALUES ('app_1', 'teste', 'App', 'confidencial', '[]', '[]', 'ativo', ?, ?,"
        " ?, 'itg_1')",
        (AGORA, AGORA, AGORA),
    )
    # A's code was exchanged; B's never was; C's codes were purged long ago, a refresh token remains
    banco.execute(
        "INSERT INTO codigos_oauth (id, redirect_uri, code_challenge, escopos, expira_em, usado_em, autorizacao_id)"
        " VALUES ('c_a', 'u', 'x', '[]', ?, '2026-11-01 12:00:30+00:00', 'aut_A'),"
        " ('c_b', 'u', 'x', '[]', ?, NULL, 'aut_B')",
        (AGORA, AGORA),
    )
    banco.execute(
        "INSERT INTO tokens_oauth (id, tipo, escopos, criado_em, expira_em, autorizacao_id)"
        " VALUES ('t_c', 'renovacao', '[]', '2026-11-02 00:00:00+00:00', '2026-12-02 00:00:00+00:00', 'aut_C')"
    )
    banco.commit()
    banco.close()

    await _migrar(settings)  # to the newest

    banco = sqlite3.connect(tmp_path / "antigo.sqlite3")
    concedidas = dict(banco.execute("SELECT id, concedida_em FROM autorizacoes_oauth").fetchall())
    assert set(concedidas) == {"aut_A", "aut_B", "aut_C"}  # nothing lost
    assert concedidas["aut_A"].startswith("2026-11-01 12:00:30") and concedidas["aut_C"].startswith("2026-11-02")
    assert concedidas["aut_B"] is None
    assert banco.execute("SELECT COUNT(*) FROM codigos_oauth").fetchone() == (2,)
    assert banco.execute("SELECT COUNT(*) FROM tokens_oauth").fetchone() == (1,)
    contas = {linha[0]: linha[1:] for linha in banco.execute("SELECT id, codigo_externo, situacao FROM contas")}
    assert contas["cta_S"] == ("loja-1", "ativa")
    assert contas["cta_A"][1] == contas["cta_C"][1] == "ativa" and contas["cta_B"][1] == "pausada"
    vinculadas = [contas[c][0] for c in ("cta_A", "cta_B", "cta_C")]
    assert all(c.startswith("vdr_") and len(c) == 30 for c in vinculadas) and len(set(vinculadas)) == 3
    banco.close()
