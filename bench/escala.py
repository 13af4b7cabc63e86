"""Every list at the size of a lived-in database: p50/p95 of each list endpoint of /v1 with every
filter alone and in pairs, deep pages (the cursor of the 1,000th page) and the portal pages that
read them, over a database seeded with

- the call log: 10,000,000 calls on PostgreSQL (1,000,000 on SQLite), 1,000,000 of them (on
  SQLite, 800,000) for one tenant over 89 days, the rest for 50 other integrators; statuses,
  error types, methods, endpoints, accounts, keys and OAuth apps mixed as in real traffic;
- 200,000 statement entries, 100,000 accounts, 100,000 products (60,000 in one account),
  50,000 generations and 100,000 notice deliveries, all the big tenant's.

    .venv/bin/python bench/escala.py                         # SQLite, and PostgreSQL + Redis if reachable
    .venv/bin/python bench/escala.py --backends postgres --chamadas 2000000 --reusar

Rows go in through the project's own models (each table's columns come from its model, unset
ones take the model's default), with PostgreSQL's COPY and SQLite's executemany; the big tenant,
its key, owner and wallet are made by the project's services. `--reusar` keeps the seeded
database (PostgreSQL `vitrine_escala_<calls>`, SQLite under the system's temp directory) for the
next run. Target: every p95 under 50 ms; the bench exits 1 when one is missed and prints the
plan of each call-log query that missed it."""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from api_overhead import PG_ADMIN, free_port, reference_loop_ns, wait_for_port  # noqa: E402

TARGET_MS = 50.0
EMAIL, SENHA = "escala@bench.test", "senha da bancada de escala"
CONTAS, PRODUTOS, PRODUTOS_NA_GRANDE = 100_000, 100_000, 60_000
LANCAMENTOS, GERACOES, ENTREGAS = 200_000, 50_000, 100_000
OUTROS_INTEGRADORES = 50
DIAS = 89
PAGINA, PAGINA_FUNDA = 50, 1000

# (method, endpoint template, weight): what a busy integrator's server calls.
ROTAS = [
    ("GET", "/geracoes/{geracaoId}", 30), ("PUT", "/contas/{contaId}/produtos/{codigo}", 20),
    ("GET", "/saldo", 8), ("POST", "/produtos/{produtoId}/conferencia", 8), ("POST", "/galerias", 6),
    ("GET", "/contas/{contaId}", 5), ("POST", "/contas", 4), ("GET", "/contas", 3), ("POST", "/videos", 3),
    ("GET", "/contas/{contaId}/produtos", 3), ("POST", "/imagens/{id}/edicoes", 2), ("GET", "/extrato", 2),
    ("GET", "/integracao/status", 1), ("GET", "/integracao/chamadas", 1), ("PUT", "/avisos", 0.5),
    ("DELETE", "/contas/{contaId}/produtos/{codigo}", 0.5), ("GET", "/testes-de-avisos/{testeId}", 0.3),
]
# (status, error type, weight) of an answer
RESPOSTAS = [
    (200, None, 80), (201, None, 12), (202, None, 2), (422, "VALIDATION_FAILED", 1.6), (404, "NOT_FOUND", 1.2),
    (409, "CONFLICT", 0.6), (400, "BAD_REQUEST", 0.5), (401, "UNAUTHORIZED", 0.5), (429, "RATE_LIMITED", 1.0),
    (402, "INSUFFICIENT_CREDITS", 0.3), (503, "SERVICE_UNAVAILABLE", 0.29), (500, "INTERNAL_ERROR", 0.01),
]


def _ulid(prefixo: str, momento_ms: int, rng: random.Random) -> str:
    from ulid import ULID

    return f"{prefixo}{str(ULID.from_int(momento_ms << 80 | rng.getrandbits(80))).lower()}"


async def _inserir(model, linhas: list[dict]) -> None:
    """Rows as the model stores them, in one statement per 20,000 rows (COPY on PostgreSQL)."""
    from tortoise.fields.data import JSONField
    from tortoise.fields.relational import ForeignKeyFieldInstance

    if not linhas:
        return
    meta = model._meta
    colunas = sorted(meta.db_fields)
    por_coluna = {}
    for nome, field in meta.fields_map.items():
        if isinstance(field, ForeignKeyFieldInstance):
            continue
        por_coluna[field.source_field or nome] = field
    agora = datetime.now(UTC)
    conn = meta.db
    sqlite = conn.capabilities.dialect == "sqlite"

    def valor(coluna: str, linha: dict):
        if coluna in linha:
            v = linha[coluna]
        else:
            field = por_coluna.get(coluna)
            if field is not None and (getattr(field, "auto_now_add", False) or getattr(field, "auto_now", False)):
                v = agora
            elif field is not None and field.default is not None:
                v = field.default() if callable(field.default) else field.default
            else:
                v = None
        if isinstance(por_coluna.get(coluna), JSONField) and v is not None:
            v = json.dumps(v)
        if sqlite and isinstance(v, datetime):
            v = str(v)
        elif sqlite and isinstance(v, bool):
            v = int(v)
        return v

    for inicio in range(0, len(linhas), 20_000):
        valores = [[valor(c, linha) for c in colunas] for linha in linhas[inicio : inicio + 20_000]]
        if sqlite:
            marcas = ",".join("?" for _ in colunas)
            cols = ",".join(f'"{c}"' for c in colunas)
            await conn.execute_many(f'INSERT INTO "{meta.db_table}" ({cols}) VALUES ({marcas})', valores)
        else:
            async with conn.acquire_connection() as c:
                await c.copy_records_to_table(meta.db_table, records=valores, columns=colunas)


def _chamadas(integrador_id: str, n: int, inicio_ms: int, fim_ms: int, contas: list[str], chaves: list[str],
              apps: list[str], rng: random.Random) -> list[dict]:
    metodos_endpoints = [(m, e) for m, e, _ in ROTAS]
    pesos_rotas = [w for _, _, w in ROTAS]
    pesos_respostas = [w for _, _, w in RESPOSTAS]
    rotas = rng.choices(metodos_endpoints, pesos_rotas, k=n)
    respostas = rng.choices(RESPOSTAS, pesos_respostas, k=n)
    momentos = sorted(rng.randrange(inicio_ms, fim_ms) for _ in range(n))
    linhas = []
    for (metodo, endpoint), (status, erro, _), momento in zip(rotas, respostas, momentos, strict=True):
        oauth = apps and rng.random() < 0.1
        conta = rng.choice(contas) if contas and ("{contaId}" in endpoint or oauth) else None
        linhas.append({
            "id": _ulid("req_", momento, rng), "integrador_id": integrador_id, "ambiente": "teste",
            "chave_id": None if oauth else rng.choice(chaves), "credencial": "oauth" if oauth else "api_key",
            "client_id": rng.choice(apps) if oauth else None, "conta_id": conta, "metodo": metodo,
            "endpoint": endpoint, "caminho": "/v1" + endpoint.replace("{contaId}", conta or "cta_x"),
            "status": status, "classe_status": status // 100, "duracao_ms": round(rng.uniform(2, 400), 2),
            "codigo_erro": erro, "mensagem_erro": "Erro." if erro else None, "replay": False,
            "cabecalhos": {"Authorization": "Bearer sk_test_****"},
            "criado_em": datetime.fromtimestamp(momento / 1000, UTC),
        })
    return linhas


async def seed(total: int) -> dict:
    from graphql_api.aviso import assinatura
    from graphql_api.aviso.models import Aviso, Entrega
    from graphql_api.chamada.models import Chamada
    from graphql_api.chave import service as chaves
    from graphql_api.conta.models import Conta
    from graphql_api.core.principal import Ambiente
    from graphql_api.creditos.models import Carteira, Lancamento
    from graphql_api.geracao.models import Geracao
    from graphql_api.integrador import service as integradores
    from graphql_api.integrador.models import Integrador
    from graphql_api.produto.models import Produto
    from graphql_api.usuario import cadastro
    from vitrine import db
    from vitrine.settings import Settings

    settings = Settings()
    await db.migrate(settings)
    ctx = await db.connect(settings)
    rng = random.Random(19)
    comeco = time.perf_counter()
    try:
        usuario = await cadastro.cadastrar({
            "empresa": "Escala", "emailAlertas": "alertas@bench.test", "nome": "Escala", "email": EMAIL, "senha": SENHA,
        })
        dono = usuario.integrador_id
        await Integrador.filter(id=dono).update(limite_por_minuto_chave=10_000_000, limite_por_minuto_integrador=10_000_000)
        chave, token = await chaves.criar_chave(dono, Ambiente.TESTE, nome="bancada")
        chaves_dono = [chave.id, "outrachave01", "outrachave02"]
        apps = ["app_" + "".join(rng.choices("0123456789abcdefghjkmnpqrstvwxyz", k=26)) for _ in range(3)]
        agora_ms = int(time.time() * 1000)
        inicio_ms = agora_ms - DIAS * 86_400_000

        def momento(i: int, n: int) -> int:
            return inicio_ms + (agora_ms - inicio_ms) * i // n

        contas = [_ulid("cta_", momento(i, CONTAS), rng) for i in range(CONTAS)]
        await _inserir(Conta, [
            {"id": c, "integrador_id": dono, "ambiente": "teste", "codigo_externo": f"loja-{i}", "nome": f"Loja {i}",
             "situacao": "pausada" if i % 50 == 0 else "ativa"}
            for i, c in enumerate(contas)
        ])
        grande = contas[0]
        produtos = [
            {"id": _ulid("prd_", momento(i, PRODUTOS), rng), "conta_id": grande if i < PRODUTOS_NA_GRANDE else contas[i],
             "integrador_id": dono, "ambiente": "teste", "codigo": f"SKU-{i}", "nome": f"Produto {i}",
             "situacao": ("aprovado", "reprovado", "conferindo")[i % 3], "ficha": {"nome": f"Produto {i}"},
             "hash_ficha": f"{i:064d}"}
            for i in range(PRODUTOS)
        ]
        await _inserir(Produto, produtos)
        carteira = await Carteira.get(integrador_id=dono, ambiente="teste")
        tipos = ("reserva", "captura", "liberacao", "recarga", "ajuste")
        await _inserir(Lancamento, [
            {"id": _ulid("lan_", m, rng), "carteira_id": carteira.id, "tipo": tipos[i % 5], "disponiveis": -1,
             "reservados": 1, "descricao": "movimento", "geracao_id": f"ger_{i // 3:026d}",
             "criado_em": datetime.fromtimestamp(m / 1000, UTC)}
            for i, m in enumerate(momento(i, LANCAMENTOS) for i in range(LANCAMENTOS))
        ])
        await _inserir(Geracao, [
            {"id": _ulid("ger_", momento(i, GERACOES), rng), "integrador_id": dono, "ambiente": "teste",
             "conta_id": grande, "produto_id": produtos[i % PRODUTOS_NA_GRANDE]["id"], "tipo": "galeria",
             "situacao": "concluida", "etapa": "entregue", "percentual": 100}
            for i in range(GERACOES)
        ])
        _, segredo = assinatura.novo_segredo()
        aviso = await Aviso.create(
            id=_ulid("avs_", inicio_ms, rng), integrador_id=dono, ambiente="teste", url="https://receptor.exemplo.com/a",
            eventos=["geracao.concluida"], segredo_cifrado=assinatura.cifrar(segredo, settings.signing_key),
        )
        corpo = json.dumps({"id": "evt_x", "tipo": "geracao.concluida", "data": {"geracaoId": "ger_x"}})
        await _inserir(Entrega, [
            {"id": _ulid("ent_", momento(i, ENTREGAS), rng), "aviso_id": aviso.id, "evento_id": f"evt_{i:026d}",
             "tipo": ("geracao.concluida", "produto.conferido")[i % 2], "corpo": corpo,
             "situacao": "falhou" if i % 100 == 0 else "entregue", "tentativas": 1, "ultimo_status": 204}
            for i in range(ENTREGAS)
        ])
        # the call log: the big tenant's calls over 89 days, then the others', in slices
        proprias = min(1_000_000, total * 8 // 10)
        contas_com_chamadas = contas[1:20_001]  # 80,000 accounts never called
        for fatia in range(0, proprias, 200_000):
            n = min(200_000, proprias - fatia)
            await _inserir(Chamada, _chamadas(dono, n, momento(fatia, proprias), momento(fatia + n, proprias),
                                              contas_com_chamadas, chaves_dono, apps, rng))
        outros = [f"itg_{i:026d}" for i in range(OUTROS_INTEGRADORES)]
        restantes = total - proprias
        for fatia in range(0, restantes, 200_000):
            n = min(200_000, restantes - fatia)
            linhas = _chamadas(rng.choice(outros), n, momento(fatia, restantes), momento(fatia + n, restantes),
                               [], ["chaveoutra01"], [], rng)
            for linha in linhas:
                linha["integrador_id"] = rng.choice(outros)
            await _inserir(Chamada, linhas)
        conn = Chamada._meta.db
        await conn.execute_script("ANALYZE")
        semeado = time.perf_counter() - comeco

        async def id_na_posicao(sql: str, valores: list) -> str:
            _, linhas = await conn.execute_query(sql, valores)
            return linhas[0]["id"]

        marca = "?" if conn.capabilities.dialect == "sqlite" else "$1"
        funda = PAGINA * PAGINA_FUNDA
        return {
            "token": token, "integrador": dono, "chave": chave.id, "app": apps[0], "grande": grande,
            "conta_com_chamadas": contas_com_chamadas[7], "conta_sem_chamadas": contas[-1], "aviso": aviso.id,
            "semeado_s": round(semeado, 1),
            "cursor_chamadas": await id_na_posicao(
                f"SELECT id FROM chamadas WHERE integrador_id = {marca} AND ambiente = 'teste' ORDER BY id DESC "
                f"LIMIT 1 OFFSET {funda}", [dono]),
            "cursor_contas": contas[-funda - 1],
            "cursor_produtos": produtos[PRODUTOS_NA_GRANDE - funda - 1]["id"],
            "cursor_extrato": await id_na_posicao(
                f"SELECT id FROM lancamentos WHERE carteira_id = {marca} ORDER BY id DESC LIMIT 1 OFFSET {funda}",
                [carteira.id]),
            "cursor_entregas": await id_na_posicao(
                f"SELECT id FROM aviso_entregas WHERE aviso_id = {marca} ORDER BY id DESC LIMIT 1 OFFSET {funda}",
                [aviso.id]),
            "geracao": f"ger_{7:026d}",
        }
    finally:
        await ctx.close_connections()


def casos(ids: dict) -> list[tuple[str, str]]:
    """(family, path) of every measured request: each list, no filter, each filter alone, each pair
    of filters, and the deep page."""
    hoje = datetime.now(UTC).date()
    filtros_chamadas = {
        "de": f"de={hoje - timedelta(days=2)}", "ate": f"ate={hoje - timedelta(days=60)}", "status": "status=422",
        "classe": "status=5xx", "metodo": "metodo=DELETE", "endpoint": "endpoint=/galerias",
        "codigoErro": "codigoErro=INTERNAL_ERROR", "contaId": f"contaId={ids['conta_com_chamadas']}",
        "chave": f"chave={ids['chave']}", "clientId": f"clientId={ids['app']}",
    }
    lista = [("chamadas", "/v1/integracao/chamadas?limite=50"),
             ("chamadas", f"/v1/integracao/chamadas?limite=50&cursor={ids['cursor_chamadas']}"),
             ("chamadas", f"/v1/integracao/chamadas?limite=50&contaId={ids['conta_sem_chamadas']}"),
             ("chamadas", "/v1/integracao/chamadas?limite=50&status=2xx&metodo=GET")]
    lista += [("chamadas", f"/v1/integracao/chamadas?limite=50&{q}") for q in filtros_chamadas.values()]
    for (a, qa), (b, qb) in itertools.combinations(filtros_chamadas.items(), 2):
        if {a, b} != {"status", "classe"}:
            lista.append(("chamadas", f"/v1/integracao/chamadas?limite=50&{qa}&{qb}"))
    filtros_extrato = {"tipo": "tipo=captura", "de": f"de={hoje - timedelta(days=30)}", "ate": f"ate={hoje - timedelta(days=60)}",
                       "geracaoId": f"geracaoId={ids['geracao']}"}
    lista += [("extrato", "/v1/extrato?limite=50"), ("extrato", f"/v1/extrato?limite=50&cursor={ids['cursor_extrato']}")]
    lista += [("extrato", f"/v1/extrato?limite=50&{q}") for q in filtros_extrato.values()]
    lista += [("extrato", f"/v1/extrato?limite=50&{qa}&{qb}") for qa, qb in itertools.combinations(filtros_extrato.values(), 2)]
    filtros_contas = {"situacao": "situacao=pausada", "origem": "origem=vinculada", "codigoExterno": "codigoExterno=loja-777"}
    lista += [("contas", "/v1/contas?limite=50"), ("contas", f"/v1/contas?limite=50&cursor={ids['cursor_contas']}")]
    lista += [("contas", f"/v1/contas?limite=50&{q}") for q in filtros_contas.values()]
    lista += [("contas", f"/v1/contas?limite=50&{qa}&{qb}") for qa, qb in itertools.combinations(filtros_contas.values(), 2)]
    produtos = f"/v1/contas/{ids['grande']}/produtos?limite=50"
    lista += [("produtos", produtos), ("produtos", f"{produtos}&cursor={ids['cursor_produtos']}"),
              ("produtos", f"{produtos}&situacao=reprovado")]
    entregas = f"/v1/avisos/{ids['aviso']}/entregas?limite=50"
    lista += [("entregas", entregas), ("entregas", f"{entregas}&cursor={ids['cursor_entregas']}"),
              ("entregas", f"{entregas}&situacao=falhou")]
    lista += [("erros", "/v1/integracao/erros"), ("status", "/v1/integracao/status")]
    lista += [("portal", p) for p in (
        "/visao-geral", "/chamadas", "/chamadas?status=5xx", f"/chamadas?cursor={ids['cursor_chamadas']}",
        "/chamadas?codigoErro=INTERNAL_ERROR&metodo=POST", "/extrato", "/contas", f"/contas/{ids['grande']}",
        f"/avisos/{ids['aviso']}", "/integracao",
    )]
    return lista


async def medir(base: str, ids: dict, amostras: int, so: str | None) -> list[dict]:
    import aiohttp

    resultados = []
    async with aiohttp.ClientSession(base_url=base, cookie_jar=aiohttp.CookieJar(unsafe=True)) as sessao:
        entrar = await sessao.get("/entrar")
        csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', await entrar.text()).group(1)
        assinado = await sessao.post("/entrar", data={"csrf": csrf, "email": EMAIL, "senha": SENHA}, allow_redirects=False)
        assert assinado.status == 303, await assinado.text()
        cabecalhos = {"Authorization": f"Bearer {ids['token']}"}
        for familia, caminho in casos(ids):
            if so and familia != so:
                continue
            extra = {} if familia == "portal" else cabecalhos
            tempos, linhas = [], None
            for n in range(3 + amostras):
                comeco = time.perf_counter()
                resposta = await sessao.get(caminho, headers=extra, allow_redirects=False)
                corpo = await resposta.read()
                passou = (time.perf_counter() - comeco) * 1000
                assert resposta.status == 200, (caminho, resposta.status, corpo[:300])
                if n >= 3:
                    tempos.append(passou)
                if linhas is None and familia != "portal":
                    dados = json.loads(corpo).get("data")
                    linhas = len(dados) if isinstance(dados, list) else 1
            tempos.sort()
            p95 = tempos[min(len(tempos) - 1, round(0.95 * (len(tempos) - 1)))]
            resultados.append({"familia": familia, "caminho": caminho, "p50": statistics.median(tempos), "p95": p95,
                               "linhas": linhas})
    return resultados


async def explicar(caminho: str, ids: dict) -> str:
    """The plan of a call-log list query, as the service builds it (tests/unit/test_indices.py)."""
    from urllib.parse import parse_qsl, urlsplit

    from graphql_api.chamada.models import Chamada
    from graphql_api.chamada.schemas import FiltroChamadas
    from graphql_api.chamada.service import consulta_chamadas
    from graphql_api.core.pagination import PageRequest, consulta_da_pagina
    from graphql_api.core.principal import ALL_SCOPES, Ambiente, CredentialKind, Principal
    from vitrine import db
    from vitrine.settings import Settings

    query = dict(parse_qsl(urlsplit(caminho).query))
    limite, cursor = int(query.pop("limite", "50")), query.pop("cursor", None)
    principal = Principal(CredentialKind.API_KEY, Ambiente.TESTE, ALL_SCOPES, integrador_id=ids["integrador"])
    ctx = await db.connect(Settings())
    try:
        qs = consulta_da_pagina(consulta_chamadas(principal, FiltroChamadas(**query)), PageRequest(limite, cursor))
        qs._choose_db_if_not_chosen()
        qs._make_query()
        sql, valores = qs.query.get_parameterized_sql()
        conn = Chamada._meta.db
        if conn.capabilities.dialect == "sqlite":
            _, linhas = await conn.execute_query("EXPLAIN QUERY PLAN " + sql, valores)
            return "\n".join(f"      {linha['detail']}" for linha in linhas)
        _, linhas = await conn.execute_query("EXPLAIN (ANALYZE, BUFFERS) " + sql, valores)
        return "\n".join(f"      {linha['QUERY PLAN']}" for linha in linhas)
    finally:
        await ctx.close_connections()


def ambiente(backend: str, chamadas: int, reusar: bool) -> tuple[dict[str, str], bool]:
    """The environment of the service on a database of this size, and whether it is seeded."""
    if backend == "sqlite":
        pasta = Path(tempfile.gettempdir()) / f"vitrine-escala-{chamadas}"
        semeado = reusar and (pasta / "semeado.json").is_file()
        if not semeado and pasta.exists():
            subprocess.run(["rm", "-rf", str(pasta)], check=True)
        pasta.mkdir(exist_ok=True)
        return {"VITRINE_DATA_DIR": str(pasta)}, semeado
    import asyncpg

    nome = f"vitrine_escala_{chamadas}"
    pasta = Path(tempfile.gettempdir()) / f"vitrine-escala-pg-{chamadas}"

    async def preparar() -> bool:
        conn = await asyncpg.connect(PG_ADMIN)
        existe = await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", nome)
        if existe and reusar and (pasta / "semeado.json").is_file():
            await conn.close()
            return True
        await conn.execute(f'DROP DATABASE IF EXISTS "{nome}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{nome}"')
        await conn.close()
        return False

    semeado = asyncio.run(preparar())
    if not semeado and pasta.exists():
        subprocess.run(["rm", "-rf", str(pasta)], check=True)
    pasta.mkdir(exist_ok=True)
    return {"VITRINE_DATA_DIR": str(pasta), "VITRINE_DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{nome}",
            "VITRINE_REDIS_URL": "redis://127.0.0.1:6379/14"}, semeado


def descartar(env: dict[str, str]) -> None:
    subprocess.run(["rm", "-rf", env["VITRINE_DATA_DIR"]], check=False)
    url = env.get("VITRINE_DATABASE_URL")
    if url:
        import asyncpg

        async def drop() -> None:
            conn = await asyncpg.connect(PG_ADMIN)
            await conn.execute(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')
            await conn.close()

        asyncio.run(drop())


def rodar(backend: str, chamadas: int, amostras: int, reusar: bool, so: str | None) -> bool:
    env, semeado = ambiente(backend, chamadas, reusar)
    env = {**os.environ, **env}
    marcador = Path(env["VITRINE_DATA_DIR"]) / "semeado.json"
    if semeado:
        ids = json.loads(marcador.read_text())
        print(f"  reusing the seeded database ({ids['semeado_s']} s to seed it)")
    else:
        seed_env = {k: v for k, v in env.items() if k != "VITRINE_REDIS_URL"}
        feito = subprocess.run([sys.executable, __file__, "--seed", str(chamadas)], env=seed_env, cwd=ROOT,
                               capture_output=True, text=True)
        if feito.returncode:
            raise SystemExit(feito.stderr[-5000:])
        ids = json.loads(feito.stdout.strip().splitlines()[-1])
        marcador.write_text(json.dumps(ids))
        print(f"  seeded in {ids['semeado_s']} s")
    port = free_port()
    env |= {"VITRINE_PORT": str(port), "VITRINE_PUBLIC_URL": f"http://127.0.0.1:{port}"}
    from tests.processes import start_vitrine

    server = start_vitrine("serve", env=env, log=subprocess.DEVNULL)
    try:
        wait_for_port(port, timeout=120)
        resultados = asyncio.run(medir(f"http://127.0.0.1:{port}", ids, amostras, so))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    falhas = []
    print(f"  {'request':100} {'p50 ms':>7} {'p95 ms':>7} {'rows':>5}")
    for r in resultados:
        ok = r["p95"] < TARGET_MS
        print(f"  {r['caminho'][:100]:100} {r['p50']:7.1f} {r['p95']:7.1f} {r['linhas'] if r['linhas'] is not None else '':>5}"
              f"  {'PASS' if ok else 'FAIL'}")
        if not ok:
            falhas.append(r)
    p95s = [r["p95"] for r in resultados]
    print(f"  {len(resultados)} requests, {len(falhas)} over {TARGET_MS:.0f} ms; p95 median {statistics.median(p95s):.1f} ms, "
          f"worst {max(p95s):.1f} ms")
    for r in falhas:
        if r["familia"] == "chamadas":
            env_explicar = {**os.environ, **{k: v for k, v in env.items() if k.startswith("VITRINE_")}}
            plano = subprocess.run([sys.executable, __file__, "--explicar", r["caminho"], json.dumps(ids)],
                                   env=env_explicar, cwd=ROOT, capture_output=True, text=True)
            print(f"    plan of {r['caminho']}:\n{plano.stdout or plano.stderr[-2000:]}")
    if not reusar:
        descartar(env)
    return not falhas


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int)
    parser.add_argument("--explicar", nargs=2)
    parser.add_argument("--backends", default="sqlite,postgres")
    parser.add_argument("--chamadas", type=int, help="calls in the log (default: 10 M on PostgreSQL, 1 M on SQLite)")
    parser.add_argument("--amostras", type=int, default=int(os.environ.get("BENCH_ROUNDS", "20")))
    parser.add_argument("--reusar", action="store_true", help="keep the seeded database for the next run")
    parser.add_argument("--so", help="measure one family: chamadas, extrato, contas, produtos, entregas, portal")
    args = parser.parse_args()
    if args.seed:
        print(json.dumps(asyncio.run(seed(args.seed))))
        return
    if args.explicar:
        print(asyncio.run(explicar(args.explicar[0], json.loads(args.explicar[1]))))
        return
    print(f"machine speed: {reference_loop_ns():.0f} ns per sum(range(50)) (lower is faster)")
    ok = True
    for backend in args.backends.split(","):
        chamadas = args.chamadas or (10_000_000 if backend == "postgres" else 1_000_000)
        print(f"\n{backend}: {chamadas:,} calls in the log; {args.amostras} requests per line after 3 to warm up")
        ok = rodar(backend, chamadas, args.amostras, args.reusar, args.so) and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
