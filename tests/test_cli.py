"""The command line, run as a user would, in its own process."""

import json
import os
import re
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest

pytestmark = pytest.mark.skipif(
    os.environ.get("VITRINE_TEST_BACKEND") == "postgres", reason="CLI is exercised once, on the embedded default"
)


def run(*args, env):
    return subprocess.run(
        [sys.executable, "-m", "vitrine", *args], capture_output=True, text=True, env=env, timeout=300
    )


@pytest.fixture
def env(migrated_data_dir):
    """The environment of a command on a data directory of its own, migrated already (the first
    run on an empty one is the first test's)."""
    env = {**os.environ, "VITRINE_DATA_DIR": str(migrated_data_dir)}
    env.pop("VITRINE_DATABASE_URL", None)
    return env


def test_integrator_and_key_creation_on_a_fresh_data_dir(tmp_path):
    env = {**os.environ, "VITRINE_DATA_DIR": str(tmp_path / "dados")}
    env.pop("VITRINE_DATABASE_URL", None)
    created = run("integrator", "create", "--nome", "ACME Integra", "--email", "dev@acme.test", env=env)
    assert created.returncode == 0, created.stderr
    body = json.loads(created.stdout)
    assert body["integradorId"].startswith("itg_")
    assert body["chaveTeste"].startswith("sk_test_") and len(body["chaveTeste"]) == 8 + 12 + 1 + 40
    assert (tmp_path / "dados" / "vitrine.sqlite3").exists()
    key = run("key", "create", "--integrador", body["integradorId"], "--ambiente", "teste", env=env)
    assert key.returncode == 0, key.stderr
    assert json.loads(key.stdout)["chave"].startswith("sk_test_")
    missing = run("key", "create", "--integrador", "itg_nao_existe", env=env)
    assert missing.returncode != 0 and "NOT_FOUND" in missing.stderr
    invalid = run("integrator", "create", "--nome", "", "--email", "sem-arroba", env=env)
    assert invalid.returncode != 0 and "VALIDATION_FAILED" in invalid.stderr


def test_worker_without_redis_says_why(tmp_path):
    env = {**os.environ, "VITRINE_DATA_DIR": str(tmp_path)}
    env.pop("VITRINE_REDIS_URL", None)
    result = run("worker", env=env)
    assert result.returncode != 0 and "VITRINE_REDIS_URL" in result.stderr


def test_staff_token_and_contract_acceptance(env):
    staff = run("staff", "create", "--nome", "Ana", env=env)
    assert staff.returncode == 0, staff.stderr
    assert json.loads(staff.stdout)["token"].startswith("stf_")
    integrator = json.loads(run("integrator", "create", "--nome", "X", "--email", "x@x.test", env=env).stdout)
    accepted = run("contract", "accept", "--integrador", integrator["integradorId"], "--por", "Maria Souza", env=env)
    assert accepted.returncode == 0, accepted.stderr
    assert json.loads(accepted.stdout)["versao"] == 1
    live = run("key", "create", "--integrador", integrator["integradorId"], "--ambiente", "producao", env=env)
    assert live.returncode != 0 and "PRODUCTION_NOT_RELEASED" in live.stderr


def cli_error(stderr: str) -> dict:
    """The error JSON a failed command prints (after the log lines) as `Error: {...}`."""
    line = next(line for line in stderr.splitlines() if line.startswith("Error: "))
    return json.loads(line.removeprefix("Error: "))


def test_seller_creation(env):
    created = run(
        "vendedor",
        "create",
        "--nome",
        "Loja da Maria",
        "--email",
        " Maria@Loja.test ",
        "--senha",
        "uma senha bem longa",
        env=env,
    )
    assert created.returncode == 0, created.stderr
    body = json.loads(created.stdout)
    assert body["vendedorId"].startswith("vnd_") and len(body["vendedorId"]) == 4 + 26
    assert body["nome"] == "Loja da Maria" and body["email"] == "maria@loja.test"
    again = run(
        "vendedor", "create", "--nome", "Outra", "--email", "maria@loja.test", "--senha", "outra senha longa", env=env
    )
    assert again.returncode != 0
    error = cli_error(again.stderr)
    assert error["type"] == "VALIDATION_FAILED" and [f["campo"] for f in error["fields"]] == ["email"]
    invalid = run("vendedor", "create", "--nome", "", "--email", "sem-arroba", "--senha", "curta", env=env)
    assert invalid.returncode != 0
    error = cli_error(invalid.stderr)
    assert sorted(f["campo"] for f in error["fields"]) == ["email", "nome", "senha"]


def test_app_creation_prints_the_client_secret_once_and_errors_as_json(env, migrated_data_dir):
    from graphql_api.oauth.segredos import resumo

    integrator = json.loads(run("integrator", "create", "--nome", "Apps", "--email", "a@apps.test", env=env).stdout)
    itg = integrator["integradorId"]
    created = run(
        "app",
        "create",
        "--integrador",
        itg,
        "--nome",
        "Conector da Loja",
        "--ambiente",
        "teste",
        "--tipo",
        "confidencial",
        "--redirect-uri",
        "https://loja.exemplo.com/cb",
        "--redirect-uri",
        "http://localhost:8080/cb",
        "--escopos",
        "geracoes:criar produtos:ler",
        env=env,
    )
    assert created.returncode == 0, created.stderr
    body = json.loads(created.stdout)
    assert re.fullmatch(r"app_[0-9a-z]{26}", body["clientId"])
    assert re.fullmatch(r"cs_test_[A-Za-z0-9]{40}", body["clientSecret"])
    assert body["redirectUris"] == ["https://loja.exemplo.com/cb", "http://localhost:8080/cb"]
    assert body["escopos"] == ["produtos:ler", "geracoes:criar"]
    assert (body["nome"], body["ambiente"], body["tipo"], body["situacao"]) == (
        "Conector da Loja",
        "teste",
        "confidencial",
        "ativo",
    )
    # only the hash is kept
    database = sqlite3.connect(migrated_data_dir / "vitrine.sqlite3")
    stored = database.execute(
        "SELECT hash_segredo, final_segredo FROM apps_oauth WHERE id = ?", (body["clientId"],)
    ).fetchone()
    assert stored == (resumo(body["clientSecret"]), body["clientSecret"][-4:])
    public = run(
        "app",
        "create",
        "--integrador",
        itg,
        "--nome",
        "App do Celular",
        "--tipo",
        "publico",
        "--redirect-uri",
        "http://127.0.0.1:3000/cb",
        "--escopos",
        "contas:ler",
        env=env,
    )
    assert public.returncode == 0, public.stderr
    assert json.loads(public.stdout)["clientSecret"] is None
    # refusals exit non-zero with the error as JSON
    refused = run(
        "app",
        "create",
        "--integrador",
        itg,
        "--nome",
        "Ruim",
        "--tipo",
        "publico",
        "--redirect-uri",
        "http://loja.exemplo.com/cb",
        "--redirect-uri",
        "https://a.exemplo.com/*",
        "--escopos",
        "contas:escrever",
        env=env,
    )
    assert refused.returncode != 0
    error = cli_error(refused.stderr)
    assert error["type"] == "VALIDATION_FAILED"
    assert [f["campo"] for f in error["fields"]] == ["escopos", "redirectUris", "redirectUris"]
    live = run(
        "app",
        "create",
        "--integrador",
        itg,
        "--nome",
        "Produção",
        "--ambiente",
        "producao",
        "--tipo",
        "confidencial",
        "--redirect-uri",
        "https://loja.exemplo.com/cb",
        "--escopos",
        "produtos:ler",
        env=env,
    )
    assert live.returncode != 0 and cli_error(live.stderr)["type"] == "PRODUCTION_NOT_RELEASED"
    missing = run(
        "app",
        "create",
        "--integrador",
        "itg_nao_existe",
        "--nome",
        "X",
        "--tipo",
        "publico",
        "--redirect-uri",
        "https://a.exemplo.com/cb",
        "--escopos",
        "contas:ler",
        env=env,
    )
    assert missing.returncode != 0 and cli_error(missing.stderr)["type"] == "NOT_FOUND"
    assert database.execute("SELECT count(*) FROM apps_oauth").fetchone() == (2,)
    database.close()


def test_staff_confirm_a_purchase_from_the_command_line(env, migrated_data_dir):
    integrator = json.loads(
        run("integrator", "create", "--nome", "Compras", "--email", "c@compras.test", env=env).stdout
    )
    itg = integrator["integradorId"]
    database = sqlite3.connect(migrated_data_dir / "vitrine.sqlite3")
    agora = datetime.now(UTC)

    def pending(recarga_id: str, *, expira_em: datetime) -> None:
        """A pending production purchase, as POST /v1/recargas leaves it."""
        database.execute(
            "INSERT INTO recargas (id, integrador_id, ambiente, pacote_id, creditos, preco_centavos, situacao, provedor, "
            "expira_em, criado_em, atualizado_em) VALUES (?, ?, 'producao', 'pacote_2000', 2000, 17900, 'pendente', "
            "'checkout', ?, ?, ?)",
            (recarga_id, itg, str(expira_em), str(agora), str(agora)),
        )
        database.commit()

    paga, recusada, vencida = (f"rec_{c * 26}" for c in "abc")
    pending(paga, expira_em=agora + timedelta(days=3))
    pending(recusada, expira_em=agora + timedelta(days=3))
    pending(vencida, expira_em=agora - timedelta(minutes=1))

    confirmed = run("recarga", "confirmar", paga, "--referencia", "boleto 34191.79001", env=env)
    assert confirmed.returncode == 0, confirmed.stderr
    body = json.loads(confirmed.stdout)
    assert (body["recargaId"], body["situacao"], body["creditos"], body["ambiente"]) == (paga, "paga", 2000, "producao")
    assert body["pagaEm"] and body["encerradaEm"] is None
    balance = "SELECT c.creditos_disponiveis, c.creditos_pacote FROM carteiras c WHERE c.integrador_id = ? AND c.ambiente = 'producao'"
    assert database.execute(balance, (itg,)).fetchone() == (2000, 2000)
    # again: the same end, nothing credited twice
    again = run("recarga", "confirmar", paga, env=env)
    assert again.returncode == 0 and json.loads(again.stdout)["situacao"] == "paga"
    assert database.execute("SELECT count(*) FROM lancamentos WHERE recarga_id = ?", (paga,)).fetchone() == (1,)
    assert database.execute("SELECT membro_id, acao, motivo FROM acoes_equipe WHERE alvo = ?", (paga,)).fetchall() == [
        ("cli", "recarga_paga", "boleto 34191.79001")
    ]
    # refusing: a pending one is refused; the paid one is not, and says why
    refused = run("recarga", "confirmar", recusada, "--recusar", env=env)
    assert refused.returncode == 0 and json.loads(refused.stdout)["situacao"] == "recusada"
    contradiction = run("recarga", "confirmar", paga, "--recusar", env=env)
    assert contradiction.returncode != 0 and cli_error(contradiction.stderr)["type"] == "PURCHASE_CLOSED"
    # past its deadline: never credited
    late = run("recarga", "confirmar", vencida, env=env)
    assert late.returncode != 0 and cli_error(late.stderr)["type"] == "PURCHASE_CLOSED"
    assert database.execute("SELECT situacao FROM recargas WHERE id = ?", (vencida,)).fetchone() == ("expirada",)
    assert database.execute(balance, (itg,)).fetchone() == (2000, 2000)
    missing = run("recarga", "confirmar", "rec_nao_existe", env=env)
    assert missing.returncode != 0 and cli_error(missing.stderr)["type"] == "NOT_FOUND"
    database.close()


def test_plans_listed_changed_and_published(env):
    listed = run("plano", "listar", env=env)
    assert listed.returncode == 0, listed.stderr
    planos = json.loads(listed.stdout)["planos"]
    assert [p["codigo"] for p in planos] == ["gratuito", "essencial", "profissional", "escala"]
    assert planos[1]["precoCentavos"] == 9900 and planos[1]["limites"]["porMinutoChave"] == 600
    integrator = json.loads(run("integrator", "create", "--nome", "X", "--email", "x@x.test", env=env).stdout)
    changed = run(
        "plano",
        "mudar",
        "--integrador",
        integrator["integradorId"],
        "--ambiente",
        "teste",
        "--plano",
        "profissional",
        env=env,
    )
    assert changed.returncode == 0, changed.stderr
    body = json.loads(changed.stdout)
    assert (
        body["plano"]["codigo"] == "profissional"
        and body["mudancaAgendada"] is None
        and body["cicloFimEm"].endswith("Z")
    )
    down = json.loads(
        run(
            "plano",
            "mudar",
            "--integrador",
            integrator["integradorId"],
            "--ambiente",
            "teste",
            "--plano",
            "essencial",
            env=env,
        ).stdout
    )
    assert down["plano"]["codigo"] == "profissional" and down["mudancaAgendada"]["plano"]["codigo"] == "essencial"
    unknown = run(
        "plano",
        "mudar",
        "--integrador",
        integrator["integradorId"],
        "--ambiente",
        "teste",
        "--plano",
        "platina",
        env=env,
    )
    assert unknown.returncode != 0 and cli_error(unknown.stderr)["type"] == "VALIDATION_FAILED"
    published = run("plano", "publicar", "--codigo", "essencial", "--creditos-mensais", "600", env=env)
    assert published.returncode == 0, published.stderr
    assert (json.loads(published.stdout)["versao"], json.loads(published.stdout)["creditosMensais"]) == (2, 600)
    everything = json.loads(run("plano", "listar", "--todas-versoes", env=env).stdout)["planos"]
    assert [(p["versao"], p["vigente"]) for p in everything if p["codigo"] == "essencial"] == [(1, False), (2, True)]
    new_plan = run("plano", "publicar", "--codigo", "startup", "--nome", "Startup", env=env)
    assert new_plan.returncode != 0 and cli_error(new_plan.stderr)["type"] == "VALIDATION_FAILED"
