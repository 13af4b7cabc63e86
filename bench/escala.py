"""Every list at size: a lived-in database (10 M call-log rows on PostgreSQL, 1 M on SQLite, 1 M of
them for one tenant over 89 days; 200 k ledger entries; 100 k accounts and products; 50 k
generations; 100 k notice deliveries), then p50/p95 through real HTTP of every list endpoint of
the facade and of the portal pages that read them, with no filter, each filter alone and in
pairs, first pages and the 1,000th.

    .venv/bin/python bench/escala.py                              # SQLite and PostgreSQL, full size
    .venv/bin/python bench/escala.py --backends sqlite --chamadas 200000 --so chamadas
    .venv/bin/python bench/escala.py --backends postgres --reusar # keep the seeded database

Target: p95 < 50 ms for each; the bench exits non-zero when one misses it, and prints the plan
of each call-log query that missed (EXPLAIN (ANALYZE, BUFFERS) / EXPLAIN QUERY PLAN).

The integrators, keys, wallets, OAuth apps, notice address and the portal user are made by the
project's services; only the big tables are bulk-inserted (COPY on PostgreSQL, executemany in
big transactions on SQLite), every column computed from the model's fields and defaults."""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import itertools
import json
import math
import os
import random
import re
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from api_overhead import PG_ADMIN, REDIS_URL, free_port, reference_loop_ns, wait_for_port  # noqa: E402
from ulid import ULID  # noqa: E402

TARGET_MS = 50.0
PG_DATABASE = "vitrine_escala"
SQLITE_DIR = Path(tempfile.gettempdir()) / "vitrine-escala"
EMAIL, SENHA = "escala@bench.test", "senha do bench de escala"
DIAS = 89
OUTROS_INTEGRADORES = 50
PAGINA, PAGINA_FUNDA = 50, 1000  # the deep page: the id at position 50 * 1000 is its cursor
LENTO_MS = 500.0  # a case this slow after the warm-up is measured with few samples
AMOSTRAS_LENTAS = 5


def parametros(backend: str, chamadas: int | None) -> dict[str, int]:
    """The seed's sizes. The big tenant holds 1 M calls (at most 90% of the log when scaled down)."""
    total = chamadas or (10_000_000 if backend == "postgres" else 1_000_000)
    return {
        "chamadas": total,
        "do_inquilino": min(1_000_000, int(total * 0.9)),
        "contas": 100_000,
        "produtos": 100_000,
        "geracoes": 50_000,
        "lancamentos": 200_000,
        "entregas": 100_000,
        "versao": 1,  # bump when the seed's shape changes: a kept database is seeded again
    }


# -- seeding (runs in its own process: Tortoise keeps per-process state tied to one back end) ---


class Tabela:
    """Bulk rows of one model: columns from `_meta.db_fields`, every column not given filled with
    the field's default (or NULL, or left to the database's own default), values as each driver
    stores them for Tortoise (as graphql_api/chamada/writer.py does for the call log)."""

    def __init__(self, model, dados: tuple[str, ...], dialect: str) -> None:
        meta = model._meta
        self.model, self.dialect, self.tabela = model, dialect, meta.db_table
        por_coluna = {f.source_field or nome: f for nome, f in meta.fields_map.items() if f.has_db_field}
        self.colunas: list[str] = []
        modelo: list[Any] = []
        for coluna in sorted(meta.db_fields):
            campo = por_coluna[coluna]
            if coluna in dados:
                valor = None
            elif getattr(campo, "auto_now", False) or getattr(campo, "auto_now_add", False):
                valor = datetime.now(UTC)
            elif campo.default is not None:
                valor = campo.default() if callable(campo.default) else campo.default
            elif campo.null:
                valor = None
            elif campo.has_db_default():
                continue  # the database fills it
            else:
                raise SystemExit(f"{self.tabela}.{coluna}: required and not given by the bench")
            self.colunas.append(coluna)
            modelo.append(self.valor(valor))
        self.modelo = modelo
        self.indice = {c: i for i, c in enumerate(self.colunas)}

    def valor(self, valor: Any) -> Any:
        if isinstance(valor, dict | list):
            return json.dumps(valor, separators=(",", ":"), ensure_ascii=False)
        if self.dialect == "sqlite" and isinstance(valor, datetime):
            return str(valor)
        if self.dialect == "sqlite" and isinstance(valor, bool):
            return int(valor)
        return valor

    def montador(self, *colunas: str):
        """A fast row builder for the big table: f(*values in this order) -> the row, the other
        columns at their defaults; values already as the driver stores them (see `valor`)."""
        partes = [f"v{colunas.index(c)}" if c in colunas else f"m[{i}]" for i, c in enumerate(self.colunas)]
        faltam = set(colunas) - set(self.colunas)
        assert not faltam, faltam
        return eval(
            f"lambda {', '.join(f'v{n}' for n in range(len(colunas)))}: [{', '.join(partes)}]", {"m": self.modelo}
        )

    def linha(self, **valores: Any) -> list:
        row = self.modelo.copy()
        for coluna, valor in valores.items():
            row[self.indice[coluna]] = self.valor(valor)
        return row

    async def inserir(self, linhas: list[list]) -> None:
        from tortoise import connections
        from tortoise.transactions import in_transaction

        from graphql_api.core.transactions import MAIN_CONNECTION

        if not linhas:
            return
        if self.dialect == "postgres":
            async with connections.get(MAIN_CONNECTION).acquire_connection() as conn:
                await conn.copy_records_to_table(self.tabela, records=linhas, columns=self.colunas)
            return
        colunas = ",".join(f'"{c}"' for c in self.colunas)
        sql = f'INSERT INTO "{self.tabela}" ({colunas}) VALUES ({",".join("?" for _ in self.colunas)})'
        async with in_transaction(MAIN_CONNECTION) as conn:
            await conn.execute_many(sql, linhas)


def _ulid(ms: int, rng: random.Random) -> str:
    """A lowercase ULID of that millisecond (python-ulid's encoding; the chance part from `rng`)."""
    return str(ULID.from_int(ms << 80 | rng.getrandbits(80))).lower()


def _momento(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, UTC)


def _rotas() -> list[tuple[str, str, int, float]]:
    """(method, endpoint template, success status, weight) of every route of the facade: the
    method and endpoint of the seeded calls are correlated as in life."""
    from rest_v1.app import ROUTE_MODULES

    pesos = {
        ("GET", "/geracoes/{geracaoId}"): 25,  # polling
        ("GET", "/contas/{contaId}/produtos/{codigo}"): 30,
        ("PUT", "/contas/{contaId}/produtos/{codigo}"): 18,
        ("GET", "/contas/{contaId}/produtos"): 6,
        ("GET", "/contas/{contaId}"): 5,
        ("POST", "/galerias"): 4,
        ("POST", "/videos"): 1,
        ("POST", "/contas"): 2,
        ("GET", "/saldo"): 3,
        ("GET", "/contas"): 1,
        ("DELETE", "/contas/{contaId}/produtos/{codigo}"): 0.5,
        ("POST", "/produtos/{produtoId}/conferencia"): 1,
        ("GET", "/integracao/chamadas"): 0.5,
        ("GET", "/extrato"): 0.5,
    }
    raras = {"/avisos/{avisoId}/segredo/rotacao": 0.002}  # the "rare endpoint" of the bench
    rotas = []
    for modulo in ROUTE_MODULES:
        for spec in modulo.specs:
            peso = pesos.get((spec.method, spec.path), raras.get(spec.path, 0.05))
            rotas.append((spec.method, spec.path, spec.status, peso))
    return rotas


# The mix of outcomes: mostly success, some 4xx, a few 5xx (INTERNAL_ERROR 0.01%).
RESULTADOS = [
    (None, 0.9558),
    (400, 0.004),
    (401, 0.002),
    (404, 0.015),
    (409, 0.005),
    (422, 0.01),
    (429, 0.008),
    (500, 0.0001),
    (503, 0.0001),
]
CODIGO_NUNCA = "PAYLOAD_TOO_LARGE"  # 413: never in the mix


async def semear(p: dict[str, int]) -> dict:
    from tortoise import connections

    from graphql_api.aviso import assinatura
    from graphql_api.aviso.models import Aviso, Entrega
    from graphql_api.chamada.models import Chamada
    from graphql_api.chave import service as chaves
    from graphql_api.conta.models import Conta
    from graphql_api.core.errors import CATALOG
    from graphql_api.core.ids import new_id
    from graphql_api.core.principal import Ambiente
    from graphql_api.core.transactions import MAIN_CONNECTION
    from graphql_api.creditos.models import Carteira, Lancamento
    from graphql_api.geracao.models import Geracao
    from graphql_api.integrador import service as integradores
    from graphql_api.integrador.models import Integrador
    from graphql_api.oauth import apps
    from graphql_api.produto.models import Produto
    from graphql_api.produto.schemas import parse_ficha
    from graphql_api.usuario import cadastro
    from vitrine import db
    from vitrine.settings import Settings

    inicio_semeadura = time.monotonic()
    settings = Settings()
    await db.migrate(settings)
    ctx = await db.connect(settings)
    conn = connections.get(MAIN_CONNECTION)
    dialect = conn.capabilities.dialect
    rng = random.Random(19)
    agora = datetime.now(UTC)
    fim_ms = int((agora - timedelta(minutes=1)).timestamp() * 1000)
    inicio_ms = int((agora - timedelta(days=DIAS)).timestamp() * 1000)
    try:
        # People, keys, apps, wallets and the notice address: through the services.
        usuario = await cadastro.cadastrar(
            {
                "empresa": "Integradora Escala",
                "emailAlertas": "alertas@bench.test",
                "nome": "Dona da Escala",
                "email": EMAIL,
                "senha": SENHA,
            }
        )
        grande = usuario.integrador_id
        ilimitado = {"limite_por_minuto_chave": 10_000_000, "limite_por_minuto_integrador": 10_000_000}
        await Integrador.filter(id=grande).update(**ilimitado)
        chave_bench, token = await chaves.criar_chave(grande, Ambiente.TESTE, nome="bench")
        chave_rara, _ = await chaves.criar_chave(grande, Ambiente.TESTE, nome="rara")
        chave_nunca, _ = await chaves.criar_chave(grande, Ambiente.TESTE, nome="sem chamadas")
        app_com = (
            await apps.criar(
                grande,
                Ambiente.TESTE,
                {
                    "nome": "App com chamadas",
                    "tipo": "confidencial",
                    "redirectUris": ["https://app.bench.test/cb"],
                    "escopos": ["produtos:ler"],
                },
            )
        ).app.id
        app_sem = (
            await apps.criar(
                grande,
                Ambiente.TESTE,
                {
                    "nome": "App sem chamadas",
                    "tipo": "confidencial",
                    "redirectUris": ["https://app.bench.test/cb2"],
                    "escopos": ["produtos:ler"],
                },
            )
        ).app.id
        outros = []
        for n in range(OUTROS_INTEGRADORES):
            criado = await integradores.criar_integrador(nome=f"Integradora {n}", email=f"i{n}@bench.test")
            ids_chaves = [criado.chave_teste.split("_")[2]]
            for _ in range(rng.randint(0, 2)):
                ids_chaves.append((await chaves.criar_chave(criado.integrador.id, Ambiente.TESTE, nome="outra"))[0].id)
            outros.append((criado.integrador.id, ids_chaves))
        carteira_grande = (await Carteira.get(integrador_id=grande, ambiente="teste")).id
        carteiras_outros = [(await Carteira.get(integrador_id=i, ambiente="teste")).id for i, _ in outros]
        avisos = []
        for integrador_id in (grande, outros[0][0]):
            _, chave = assinatura.novo_segredo()
            avisos.append(
                (
                    await Aviso.create(
                        id=new_id("avs_"),
                        integrador_id=integrador_id,
                        ambiente="teste",
                        url="https://receptor.bench.test/avisos",
                        eventos=["geracao.concluida", "produto.conferido"],
                        segredo_cifrado=assinatura.cifrar(chave, settings.signing_key),
                    )
                ).id
            )
        print(f"  services: {time.monotonic() - inicio_semeadura:.0f} s", file=sys.stderr)

        def quando() -> int:
            return rng.randint(inicio_ms, fim_ms)

        # Accounts: 60% of them the big tenant's (3% linked sellers' accounts, 5% paused).
        contas_t = Tabela(
            Conta,
            (
                "id",
                "integrador_id",
                "ambiente",
                "codigo_externo",
                "nome",
                "origem",
                "situacao",
                "criado_em",
                "atualizado_em",
            ),
            dialect,
        )
        n_grande = int(p["contas"] * 0.6)
        contas_de: dict[str, list[str]] = {grande: []}
        vinculadas: list[str] = []
        linhas = []
        for n, ms in enumerate(sorted(quando() for _ in range(p["contas"]))):
            dono = grande if rng.random() < n_grande / p["contas"] else rng.choice(outros)[0]
            origem = "vinculada" if rng.random() < 0.03 else "subconta"
            conta_id = "cta_" + _ulid(ms, rng)
            contas_de.setdefault(dono, []).append(conta_id)
            if dono == grande and origem == "vinculada":
                vinculadas.append(conta_id)
            linhas.append(
                contas_t.linha(
                    id=conta_id,
                    integrador_id=dono,
                    ambiente="teste",
                    codigo_externo=f"loja-{n}",
                    nome=f"Loja {n}",
                    origem=origem,
                    situacao="pausada" if rng.random() < 0.05 else "ativa",
                    criado_em=_momento(ms),
                    atualizado_em=_momento(ms),
                )
            )
        await contas_t.inserir(linhas)
        do_grande = contas_de[grande]
        conta_movimentada, conta_rara, conta_sem = do_grande[len(do_grande) // 2], do_grande[7], do_grande[11]
        conta_poucos = do_grande[13]
        conta_sem_produtos = do_grande[17]  # not conta_sem: reading it would log calls naming it

        # Products: 60% in the busy account (a deep page), the rest spread.
        produtos_t = Tabela(
            Produto,
            (
                "id",
                "conta_id",
                "integrador_id",
                "ambiente",
                "codigo",
                "nome",
                "situacao",
                "ficha",
                "hash_ficha",
                "criado_em",
                "atualizado_em",
            ),
            dialect,
        )
        fichas = []
        for n in range(20):
            ficha = parse_ficha(
                {
                    "nome": f"Produto {n}",
                    "descricao": "Camiseta de algodão " * 3,
                    "imagens": [{"url": f"https://fotos.bench.test/{n}/{i}.jpg", "ordem": i} for i in (1, 2, 3)],
                }
            ).normalised()
            fichas.append((ficha, hashlib.sha256(json.dumps(ficha, sort_keys=True).encode()).hexdigest()))
        situacoes = ["aprovado"] * 80 + ["reprovado"] * 10 + ["conferindo"] * 5 + ["conferencia_falhou"] * 5
        todas = [(c, d) for d, cs in contas_de.items() for c in cs]
        linhas = []
        for n, ms in enumerate(sorted(quando() for _ in range(p["produtos"]))):
            if rng.random() < 0.6:
                conta_id, dono = conta_movimentada, grande
            elif n % 50 == 0:
                conta_id, dono = conta_poucos, grande
            else:
                conta_id, dono = rng.choice(todas)
            ficha, hash_ficha = fichas[n % len(fichas)]
            linhas.append(
                produtos_t.linha(
                    id="prd_" + _ulid(ms, rng),
                    conta_id=conta_id,
                    integrador_id=dono,
                    ambiente="teste",
                    codigo=f"SKU-{n:06d}",
                    nome=ficha["nome"],
                    situacao=rng.choice(situacoes),
                    ficha=ficha,
                    hash_ficha=hash_ficha,
                    criado_em=_momento(ms),
                    atualizado_em=_momento(ms),
                )
            )
        await produtos_t.inserir(linhas)

        # Generations: 80% the big tenant's.
        geracoes_t = Tabela(
            Geracao,
            (
                "id",
                "integrador_id",
                "ambiente",
                "conta_id",
                "tipo",
                "situacao",
                "etapa",
                "percentual",
                "resultados",
                "criado_em",
                "atualizado_em",
                "concluida_em",
            ),
            dialect,
        )
        linhas, geracoes_grande = [], []
        for ms in sorted(quando() for _ in range(p["geracoes"])):
            dono = grande if rng.random() < 0.8 else rng.choice(outros)[0]
            geracao_id = "ger_" + _ulid(ms, rng)
            if dono == grande:
                geracoes_grande.append(geracao_id)
            falhou = rng.random() < 0.03
            linhas.append(
                geracoes_t.linha(
                    id=geracao_id,
                    integrador_id=dono,
                    ambiente="teste",
                    conta_id=rng.choice(do_grande) if dono == grande else None,
                    tipo="galeria" if rng.random() < 0.8 else "video",
                    situacao="falhou" if falhou else "concluida",
                    etapa="entregue",
                    percentual=100,
                    resultados={
                        "imagens": [
                            {
                                "id": "img_" + _ulid(ms, rng),
                                "posicao": i,
                                "arquivo": f"bench/{i}.jpg",
                                "largura": 600,
                                "altura": 600,
                            }
                            for i in (1, 2)
                        ]
                    },
                    criado_em=_momento(ms),
                    atualizado_em=_momento(ms),
                    concluida_em=_momento(ms + 20_000),
                )
            )
        await geracoes_t.inserir(linhas)

        # The ledger: 75% in the big tenant's test wallet; ids of each entry's moment.
        lancamentos_t = Tabela(
            Lancamento,
            ("id", "carteira_id", "tipo", "disponiveis", "reservados", "geracao_id", "descricao", "criado_em"),
            dialect,
        )
        tipos = (
            ["reserva"] * 35
            + ["captura"] * 33
            + ["liberacao"] * 5
            + ["recarga"] * 10
            + ["compra_pacote"] * 5
            + ["concessao_plano"] * 10
            + ["ajuste"] * 2
        )  # expiracao_plano: never
        linhas = []
        geracao_com_lancamentos = geracoes_grande[len(geracoes_grande) // 2]
        com_lancamentos = geracoes_grande[4:]  # the first ones keep none: the filter's "never"
        for ms in sorted(quando() for _ in range(p["lancamentos"])):
            carteira = carteira_grande if rng.random() < 0.75 else rng.choice(carteiras_outros)
            tipo = rng.choice(tipos)
            geracao_id = None
            if tipo in ("reserva", "captura", "liberacao"):
                geracao_id = rng.choice(com_lancamentos) if carteira == carteira_grande else new_id("ger_")
            n = rng.randint(1, 12)
            efeito = {"reserva": (-n, n), "captura": (0, -n), "liberacao": (n, -n)}.get(tipo, (n * 10, 0))
            linhas.append(
                lancamentos_t.linha(
                    id="lan_" + _ulid(ms, rng),
                    carteira_id=carteira,
                    tipo=tipo,
                    disponiveis=efeito[0],
                    reservados=efeito[1],
                    geracao_id=geracao_id,
                    descricao=f"Lançamento de bancada ({tipo}).",
                    criado_em=_momento(ms),
                )
            )
        for tipo in ("reserva", "captura"):  # a generation whose few entries the filter finds
            ms = fim_ms - rng.randint(0, 86_400_000 * 30)
            linhas.append(
                lancamentos_t.linha(
                    id="lan_" + _ulid(ms, rng),
                    carteira_id=carteira_grande,
                    tipo=tipo,
                    disponiveis=-3,
                    reservados=3,
                    geracao_id=geracao_com_lancamentos,
                    descricao="Lançamento de bancada.",
                    criado_em=_momento(ms),
                )
            )
        linhas.sort(key=lambda r: r[lancamentos_t.indice["id"]])
        await lancamentos_t.inserir(linhas)

        # Notice deliveries: 100 k for the big tenant's address, a tenth of that for another's.
        entregas_t = Tabela(
            Entrega,
            (
                "id",
                "aviso_id",
                "evento_id",
                "tipo",
                "corpo",
                "situacao",
                "tentativas",
                "ultimo_status",
                "criado_em",
                "entregue_em",
            ),
            dialect,
        )
        corpo = json.dumps({"id": "evt_x", "tipo": "geracao.concluida", "data": {"geracaoId": "ger_x"}})
        estados = [("entregue", 204)] * 95 + [("falhou", 500)] * 3 + [("pendente", None)] * 2  # enviando: never
        linhas = []
        for ms in sorted(quando() for _ in range(p["entregas"] + p["entregas"] // 10)):
            aviso = avisos[0] if rng.random() < 10 / 11 else avisos[1]
            situacao, status = rng.choice(estados)
            linhas.append(
                entregas_t.linha(
                    id="ent_" + _ulid(ms, rng),
                    aviso_id=aviso,
                    evento_id="evt_" + _ulid(ms, rng),
                    tipo="geracao.concluida",
                    corpo=corpo,
                    situacao=situacao,
                    tentativas=1 if status else 0,
                    ultimo_status=status,
                    criado_em=_momento(ms),
                    entregue_em=_momento(ms + 300) if situacao == "entregue" else None,
                )
            )
        await entregas_t.inserir(linhas)
        print(
            f"  accounts, products, generations, ledger, deliveries: {time.monotonic() - inicio_semeadura:.0f} s",
            file=sys.stderr,
        )

        # The call log.
        await _semear_chamadas(
            p,
            dialect,
            rng,
            inicio_ms,
            fim_ms,
            {
                "grande": grande,
                "outros": outros,
                "chaves": [chave_bench.id] * 850 + [chave_rara.id] + [chave_bench.id] * 149,
                "app": app_com,
                "contas_de": contas_de,
                "movimentada": conta_movimentada,
                "rara": conta_rara,
                "sem": conta_sem,
                "vinculadas": vinculadas or do_grande[:3],
            },
            Chamada,
            CATALOG,
        )
        print(f"  call log: {time.monotonic() - inicio_semeadura:.0f} s", file=sys.stderr)
        await _analisar(dialect)
        dados = {
            "integrador": grande,
            "token": token,
            "chave_bench": chave_bench.id,
            "chave_rara": chave_rara.id,
            "chave_nunca": chave_nunca.id,
            "app_com": app_com,
            "app_sem": app_sem,
            "conta_movimentada": conta_movimentada,
            "conta_rara": conta_rara,
            "conta_sem": conta_sem,
            "conta_poucos": conta_poucos,
            "conta_sem_produtos": conta_sem_produtos,
            "carteira": carteira_grande,
            "aviso": avisos[0],
            "geracao_com_lancamentos": geracao_com_lancamentos,
            "geracao_sem_lancamentos": geracoes_grande[3],
            "inicio": _momento(inicio_ms).isoformat(),
            "fim": _momento(fim_ms).isoformat(),
        }
        dados["cursores"] = await _cursores(dados)
        dados["segundos"] = round(time.monotonic() - inicio_semeadura, 1)
        await conn.execute_script("CREATE TABLE bench_escala (parametros TEXT, dados TEXT)")
        await conn.execute_query(
            "INSERT INTO bench_escala VALUES (" + ("?, ?" if dialect == "sqlite" else "$1, $2") + ")",
            [json.dumps(p, sort_keys=True), json.dumps(dados)],
        )
        return dados
    finally:
        await ctx.close_connections()


async def _semear_chamadas(p, dialect, rng, inicio_ms, fim_ms, q, Chamada, CATALOG) -> None:
    """The call log in time order (as it is written: every tenant's calls interleaved), the big
    tenant's a tenth of it on PostgreSQL. The secondary indexes are built after the rows (much
    faster than keeping ten of them up to date row by row)."""
    from tortoise import connections

    from graphql_api.core.transactions import MAIN_CONNECTION

    conn = connections.get(MAIN_CONNECTION)
    colunas = (
        "id",
        "integrador_id",
        "ambiente",
        "chave_id",
        "credencial",
        "client_id",
        "conta_id",
        "metodo",
        "endpoint",
        "caminho",
        "status",
        "classe_status",
        "duracao_ms",
        "codigo_erro",
        "mensagem_erro",
        "cabecalhos",
        "corpo_recebido",
        "criado_em",
    )
    t = Tabela(Chamada, colunas, dialect)
    montar = t.montador(*colunas)
    data = str if dialect == "sqlite" else lambda d: d
    indices = await _retirar_indices(conn, dialect, "chamadas")
    rotas = _rotas()
    pesos_rotas = list(itertools.accumulate(r[3] for r in rotas))
    resultados = [r for r, _ in RESULTADOS]
    pesos_resultados = list(itertools.accumulate(w for _, w in RESULTADOS))
    codigos = {s: [k for k, v in CATALOG.items() if v.status == s] for s in resultados if s}
    mensagens = {k: v.message for k, v in CATALOG.items()}
    # Path parameters other than the account: a pool of plausible ids, filled in per call.
    pool = {
        nome: [f"{prefixo}{_ulid(inicio_ms + i, rng)}" for i in range(500)]
        for nome, prefixo in (
            ("geracaoId", "ger_"),
            ("produtoId", "prd_"),
            ("imagemId", "img_"),
            ("requestId", "req_"),
            ("avisoId", "avs_"),
            ("entregaId", "ent_"),
            ("testeId", "tst_"),
            ("recargaId", "rec_"),
        )
    }
    pool["codigo"] = [f"SKU-{n:06d}" for n in range(500)]
    caminhos = []
    for _, endpoint, _, _ in rotas:
        modelos = []
        for _ in range(50):
            caminho = "/v1" + endpoint
            for nome, valores in pool.items():
                caminho = caminho.replace("{" + nome + "}", rng.choice(valores))
            modelos.append(caminho.replace("{contaId}", "{c}"))
        caminhos.append(modelos)
    com_conta = ["{contaId}" in r[1] for r in rotas]
    grande, outros = q["grande"], q["outros"]
    pesos_outros = list(itertools.accumulate(1 / (n + 1) for n in range(len(outros))))  # a few busy, many quiet
    contas_grande = [c for c in q["contas_de"][grande] if c not in (q["sem"], q["rara"])]
    corpo = json.dumps({"data": {"id": "ger_x", "situacao": "concluida", "progresso": {"percentual": 100}}})
    corpo_ate = fim_ms - 30 * 86_400_000  # bodies are kept 30 days
    cabecalhos = t.valor({"Authorization": "Bearer sk_test_************_****"})
    total, fracao_grande = p["chamadas"], p["do_inquilino"] / p["chamadas"]
    fatia = 50_000
    passo = (fim_ms - inicio_ms) / total
    escritos, inicio = 0, time.monotonic()
    pendente: asyncio.Task | None = None
    for base in range(0, total, fatia):
        linhas = []
        n_fatia = min(fatia, total - base)
        idx_rotas = rng.choices(range(len(rotas)), cum_weights=pesos_rotas, k=n_fatia)
        idx_res = rng.choices(resultados, cum_weights=pesos_resultados, k=n_fatia)
        idx_outros = rng.choices(outros, cum_weights=pesos_outros, k=n_fatia)
        for j in range(n_fatia):
            ms = inicio_ms + int((base + j) * passo)
            r = idx_rotas[j]
            metodo, endpoint, sucesso, _ = rotas[r]
            client_id = chave_id = conta_id = None
            if rng.random() < fracao_grande:
                integrador = grande
                if rng.random() < 0.1:
                    client_id, credencial = q["app"], "oauth"
                    conta_id = rng.choice(q["vinculadas"])
                else:
                    chave_id, credencial = rng.choice(q["chaves"]), "api_key"
                    if com_conta[r]:
                        sorte = rng.random()
                        conta_id = (
                            q["movimentada"]
                            if sorte < 0.1
                            else q["rara"]
                            if sorte < 0.1002
                            else rng.choice(contas_grande)
                        )
            else:
                integrador, chaves_dele = idx_outros[j]
                chave_id, credencial = rng.choice(chaves_dele), "api_key"
                if com_conta[r]:
                    contas_dele = q["contas_de"].get(integrador)
                    conta_id = rng.choice(contas_dele) if contas_dele else None
            status = idx_res[j] or sucesso
            codigo = rng.choice(codigos[status]) if status >= 400 else None
            caminho = rng.choice(caminhos[r])
            if conta_id or com_conta[r]:
                caminho = caminho.replace("{c}", conta_id or "cta_" + _ulid(ms, rng))
            linhas.append(
                montar(
                    "req_" + _ulid(ms, rng),
                    integrador,
                    "teste",
                    chave_id,
                    credencial,
                    client_id,
                    conta_id,
                    metodo,
                    endpoint,
                    caminho,
                    status,
                    status // 100,
                    round(rng.lognormvariate(2.5, 0.6), 2),
                    codigo,
                    mensagens[codigo] if codigo else None,
                    cabecalhos,
                    corpo if ms > corpo_ate and status < 400 else None,
                    data(_momento(ms)),
                )
            )
        if pendente is not None:
            await pendente
        pendente = asyncio.create_task(t.inserir(linhas))  # the next slice is built meanwhile
        await asyncio.sleep(0)
        escritos += n_fatia
        if escritos % 1_000_000 < fatia:
            taxa = escritos / (time.monotonic() - inicio)
            print(f"    {escritos:,} calls ({taxa:,.0f}/s)", file=sys.stderr)
    if pendente is not None:
        await pendente
    antes = time.monotonic()
    await _recriar_indices(conn, dialect, indices)
    print(f"    indexes rebuilt in {time.monotonic() - antes:.0f} s", file=sys.stderr)


async def _retirar_indices(conn, dialect: str, tabela: str) -> list[str]:
    """Drop the table's secondary indexes (the migrations' own), returning their definitions."""
    if dialect == "postgres":
        _, rows = await conn.execute_query(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = $1 AND indexname NOT IN "
            "(SELECT conname FROM pg_constraint WHERE conrelid = $1::text::regclass)",
            [tabela],
        )
        definicoes = [r["indexdef"] for r in rows]
        nomes = [r["indexname"] for r in rows]
    else:
        _, rows = await conn.execute_query(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL", [tabela]
        )
        definicoes = [r["sql"] for r in rows]
        nomes = [r["name"] for r in rows]
    for nome in nomes:
        await conn.execute_script(f'DROP INDEX "{nome}"')
    return definicoes


async def _recriar_indices(conn, dialect: str, definicoes: list[str]) -> None:
    if dialect == "postgres":

        async def criar(parte: list[str]) -> None:
            async with conn.acquire_connection() as c:
                await c.execute("SET maintenance_work_mem = '256MB'")
                for definicao in parte:
                    await c.execute(definicao)

        await asyncio.gather(*(criar(definicoes[i::2]) for i in range(2)))  # two at a time: two cores
    else:
        for definicao in definicoes:
            await conn.execute_script(definicao)


async def _analisar(dialect: str) -> None:
    from tortoise import connections

    from graphql_api.core.transactions import MAIN_CONNECTION
    from vitrine import db

    if dialect == "postgres":
        await connections.get(MAIN_CONNECTION).execute_script("VACUUM ANALYZE")
    else:
        await db.atualizar_estatisticas()


def _principal(dados: dict):
    from graphql_api.core.principal import ALL_SCOPES, Ambiente, CredentialKind, Principal

    return Principal(
        CredentialKind.API_KEY,
        Ambiente.TESTE,
        ALL_SCOPES,
        integrador_id=dados["integrador"],
        chave_id=dados["chave_bench"],
    )


def _consultas(dados: dict) -> dict:
    """Each list's query, by the name the cases use: the same functions the service pages."""
    from graphql_api.aviso.entregas import consulta_entregas
    from graphql_api.chamada.schemas import FiltroChamadas
    from graphql_api.chamada.service import consulta_chamadas
    from graphql_api.conta.schemas import FiltroContas
    from graphql_api.conta.service import consulta_contas
    from graphql_api.creditos.schemas import FiltroExtrato
    from graphql_api.creditos.service import consulta_extrato
    from graphql_api.geracao import repository as geracoes
    from graphql_api.produto.service import consulta_produtos

    principal = _principal(dados)
    return {
        "chamadas": lambda f: consulta_chamadas(principal, FiltroChamadas(**f)),
        "extrato": lambda f: consulta_extrato(dados["carteira"], FiltroExtrato(**f)),
        "contas": lambda f: consulta_contas(principal, FiltroContas(**f)),
        "produtos": lambda f: consulta_produtos(principal, dados["conta_movimentada"], f.get("situacao")),
        "entregas": lambda f: consulta_entregas(dados["aviso"], f.get("situacao")),
        "geracoes": lambda f: geracoes.of_caller(principal),
    }


# The deep pages: the list and its filters (the portal's page of generations is one of them).
FUNDAS = [
    ("chamadas", {}),
    ("chamadas", {"metodo": "GET"}),
    ("chamadas", {"status": "2xx"}),
    ("chamadas", {"endpoint": "/contas/{contaId}/produtos/{codigo}"}),
    ("chamadas", {"contaId": "movimentada"}),
    ("chamadas", {"chave": "bench"}),
    ("extrato", {}),
    ("extrato", {"tipo": "captura"}),
    ("contas", {}),
    ("contas", {"situacao": "ativa"}),
    ("produtos", {}),
    ("produtos", {"situacao": "aprovado"}),
    ("entregas", {}),
    ("entregas", {"situacao": "entregue"}),
    ("geracoes", {}),
]


def _concretos(filtros: dict, dados: dict) -> dict:
    """Symbolic values of the cases (an account, a key) made concrete for this seed."""
    nomes = {
        "contaId": {"movimentada": "conta_movimentada", "rara": "conta_rara", "sem": "conta_sem"},
        "chave": {"bench": "chave_bench", "rara": "chave_rara", "nunca": "chave_nunca"},
        "clientId": {"com": "app_com", "sem": "app_sem"},
        "geracaoId": {"com": "geracao_com_lancamentos", "sem": "geracao_sem_lancamentos"},
    }
    return {k: dados[nomes[k][v]] if k in nomes and v in nomes[k] else v for k, v in filtros.items()}


def _chave_funda(lista: str, filtros: dict) -> str:
    return lista + "?" + "&".join(f"{k}={v}" for k, v in sorted(filtros.items()))


async def _cursores(dados: dict) -> dict[str, list]:
    """The id at position 50 * 1000 of each deep list (or its middle when shorter): its cursor."""
    consultas = _consultas(dados)
    cursores = {}
    for lista, filtros in FUNDAS:
        query = consultas[lista](_concretos(filtros, dados))
        total = await query.count()
        posicao = min(PAGINA * PAGINA_FUNDA, total // 2)
        ids = await query.order_by("-id").offset(posicao).limit(1).values_list("id", flat=True)
        cursores[_chave_funda(lista, filtros)] = [ids[0] if ids else None, posicao // PAGINA, total]
    return cursores


async def explicar(dados: dict, casos: list[dict]) -> None:
    """Print the plan of each call-log case: the query the service pages, with its cursor."""
    from tortoise import connections
    from tortoise.transactions import in_transaction

    from graphql_api.core.pagination import PageRequest, consulta_da_pagina
    from graphql_api.core.transactions import MAIN_CONNECTION
    from vitrine import db
    from vitrine.settings import Settings

    ctx = await db.connect(Settings())
    try:
        consultas = _consultas(dados)
        dialect = connections.get(MAIN_CONNECTION).capabilities.dialect
        for caso in casos:
            filtros = {k: v for k, v in caso["filtros"].items() if k not in ("cursor", "limite")}
            query = consulta_da_pagina(
                consultas["chamadas"](filtros), PageRequest(PAGINA, caso["filtros"].get("cursor"))
            )
            query._choose_db_if_not_chosen()
            query._make_query()
            sql, valores = query.query.get_parameterized_sql()
            print(f"\n  {caso['nome']}")
            async with in_transaction(MAIN_CONNECTION) as conn:
                if dialect == "sqlite":
                    _, rows = await conn.execute_query("EXPLAIN QUERY PLAN " + sql, valores)
                    linhas = [r["detail"] for r in rows]
                else:
                    _, rows = await conn.execute_query("EXPLAIN (ANALYZE, BUFFERS) " + sql, valores)
                    linhas = [r["QUERY PLAN"] for r in rows]
            print(f"    {sql}\n    {valores}")
            for linha in linhas:
                print(f"      {linha}")
    finally:
        await ctx.close_connections()


# -- the cases -------------------------------------------------------------------------------


def casos(dados: dict, so: set[str] | None) -> list[dict]:
    """(family, name, path, query) of every measurement, built from the seed's ids."""
    fim = datetime.fromisoformat(dados["fim"])
    inicio = datetime.fromisoformat(dados["inicio"])
    dia = lambda d: d.date().isoformat()  # noqa: E731
    cursores = dados["cursores"]
    conta = dados["conta_movimentada"]
    # Each call-log filter with a value that matches often, rarely and never.
    chamadas = {
        "de": {
            "frequente": dia(fim - timedelta(days=30)),
            "raro": (fim - timedelta(hours=2)).isoformat(),
            "nunca": dia(fim + timedelta(days=2)),
        },
        "ate": {
            "frequente": dia(fim - timedelta(days=1)),
            "raro": dia(inicio + timedelta(days=1)),
            "nunca": dia(inicio - timedelta(days=10)),
        },
        "status": {"frequente": "200", "raro": "422", "nunca": "302"},
        "classe": {"frequente": "2xx", "raro": "5xx", "outro": "4xx"},
        "metodo": {"frequente": "GET", "raro": "DELETE", "nunca": "PATCH"},
        "endpoint": {
            "frequente": "/contas/{contaId}/produtos/{codigo}",
            "raro": "/avisos/{avisoId}/segredo/rotacao",
            "nunca": "/nao/existe",
        },
        "codigoErro": {"frequente": "VALIDATION_FAILED", "raro": "INTERNAL_ERROR", "nunca": CODIGO_NUNCA},
        "contaId": {"frequente": "movimentada", "raro": "rara", "nunca": "sem"},
        "chave": {"frequente": "bench", "raro": "rara", "nunca": "nunca"},
        "clientId": {"frequente": "com", "nunca": "sem"},
    }
    parametro = {"classe": "status"}
    lista: list[dict] = []

    def caso(familia: str, nome: str, caminho: str, filtros: dict | None = None) -> None:
        if so and familia not in so:
            return
        filtros = _concretos(filtros or {}, dados)
        if familia not in ("portal", "integracao"):
            filtros["limite"] = str(PAGINA)  # the page the portal reads and the issue measured
        lista.append({"familia": familia, "nome": nome, "caminho": caminho, "filtros": filtros})

    def funda(familia: str, nome: str, caminho: str, lista_: str, filtros: dict) -> None:
        cursor, pagina, total = cursores[_chave_funda(lista_, filtros)]
        if cursor:
            caso(familia, f"{nome} página {pagina + 1}", caminho, filtros | {"cursor": cursor})

    api = "/v1/integracao/chamadas"
    caso("chamadas", "(nenhum)", api)
    for nome, valores in chamadas.items():
        for quanto, valor in valores.items():
            caso(
                "chamadas",
                f"{nome}={valor if nome not in ('contaId', 'chave', 'clientId') else quanto} ({quanto})",
                api,
                {parametro.get(nome, nome): valor},
            )
    for a, b in itertools.combinations(chamadas, 2):
        if {a, b} == {"status", "classe"}:
            continue
        caso(
            "chamadas",
            f"{a}+{b} (frequentes)",
            api,
            {parametro.get(a, a): chamadas[a]["frequente"], parametro.get(b, b): chamadas[b]["frequente"]},
        )
    # Rare with frequent, and pairs whose intersection is empty though each alone is frequent.
    especiais = [
        (
            "metodo=DELETE+endpoint=/geracoes/{geracaoId} (vazio)",
            {"metodo": "DELETE", "endpoint": "/geracoes/{geracaoId}"},
        ),
        ("metodo=GET+endpoint=/galerias (vazio)", {"metodo": "GET", "endpoint": "/galerias"}),
        ("metodo=PUT+endpoint=/saldo (vazio)", {"metodo": "PUT", "endpoint": "/saldo"}),
        ("status=5xx+codigoErro=VALIDATION_FAILED (vazio)", {"status": "5xx", "codigoErro": "VALIDATION_FAILED"}),
        ("status=200+codigoErro=NOT_FOUND (vazio)", {"status": "200", "codigoErro": "NOT_FOUND"}),
        ("codigoErro=INTERNAL_ERROR+metodo=GET", {"codigoErro": "INTERNAL_ERROR", "metodo": "GET"}),
        ("contaId=sem+metodo=GET", {"contaId": "sem", "metodo": "GET"}),
        ("contaId=rara+status=2xx", {"contaId": "rara", "status": "2xx"}),
        ("status=422+endpoint=/saldo", {"status": "422", "endpoint": "/saldo"}),
        ("de=2h+status=5xx", {"de": chamadas["de"]["raro"], "status": "5xx"}),
        ("ate=1º dia+codigoErro=INTERNAL_ERROR", {"ate": chamadas["ate"]["raro"], "codigoErro": "INTERNAL_ERROR"}),
        ("chave=rara+metodo=GET", {"chave": "rara", "metodo": "GET"}),
        ("endpoint=rara+status=2xx", {"endpoint": "/avisos/{avisoId}/segredo/rotacao", "status": "2xx"}),
    ]
    for nome, filtros in especiais:
        caso("chamadas", nome, api, filtros)
    for lista_, filtros in FUNDAS:
        if lista_ == "chamadas":
            nome = "+".join(f"{k}={v}" for k, v in filtros.items()) or "(nenhum)"
            funda("chamadas", nome, api, "chamadas", filtros)

    # The statement, its filters alone and in pairs.
    extrato = {
        "de": {
            "frequente": dia(fim - timedelta(days=30)),
            "raro": (fim - timedelta(hours=2)).isoformat(),
            "nunca": dia(fim + timedelta(days=2)),
        },
        "ate": {
            "frequente": dia(fim - timedelta(days=1)),
            "raro": dia(inicio + timedelta(days=1)),
            "nunca": dia(inicio - timedelta(days=10)),
        },
        "tipo": {"frequente": "captura", "raro": "ajuste", "nunca": "expiracao_plano"},
        "geracaoId": {"frequente": "com", "nunca": "sem"},
    }
    caso("extrato", "(nenhum)", "/v1/extrato")
    for nome, valores in extrato.items():
        for quanto, valor in valores.items():
            caso(
                "extrato", f"{nome}={valor if nome != 'geracaoId' else quanto} ({quanto})", "/v1/extrato", {nome: valor}
            )
    for a, b in itertools.combinations(extrato, 2):
        caso(
            "extrato", f"{a}+{b} (frequentes)", "/v1/extrato", {a: extrato[a]["frequente"], b: extrato[b]["frequente"]}
        )
    caso(
        "extrato",
        "tipo=ajuste+de (raro+frequente)",
        "/v1/extrato",
        {"tipo": "ajuste", "de": extrato["de"]["frequente"]},
    )
    for filtros in ({}, {"tipo": "captura"}):
        funda(
            "extrato", "+".join(f"{k}={v}" for k, v in filtros.items()) or "(nenhum)", "/v1/extrato", "extrato", filtros
        )

    contas = {
        "origem": {"frequente": "subconta", "raro": "vinculada"},
        "situacao": {"frequente": "ativa", "raro": "pausada"},
        "codigoExterno": {"existe": "loja-4242", "nunca": "loja-inexistente"},
    }
    caso("contas", "(nenhum)", "/v1/contas")
    for nome, valores in contas.items():
        for quanto, valor in valores.items():
            caso("contas", f"{nome}={valor} ({quanto})", "/v1/contas", {nome: valor})
    caso("contas", "origem=vinculada+situacao=pausada", "/v1/contas", {"origem": "vinculada", "situacao": "pausada"})
    caso("contas", "origem=subconta+situacao=ativa", "/v1/contas", {"origem": "subconta", "situacao": "ativa"})
    caso(
        "contas", "codigoExterno+origem=vinculada", "/v1/contas", {"codigoExterno": "loja-4242", "origem": "vinculada"}
    )
    for filtros in ({}, {"situacao": "ativa"}):
        funda("contas", "+".join(f"{k}={v}" for k, v in filtros.items()) or "(nenhum)", "/v1/contas", "contas", filtros)

    produtos = f"/v1/contas/{conta}/produtos"
    caso("produtos", "(nenhum)", produtos)
    for situacao in ("aprovado", "reprovado", "conferencia_falhou"):
        caso("produtos", f"situacao={situacao}", produtos, {"situacao": situacao})
    caso("produtos", "conta com poucos (nenhum)", f"/v1/contas/{dados['conta_poucos']}/produtos")
    caso(
        "produtos",
        "conta sem produtos (nenhum)",
        f"/v1/contas/{dados.get('conta_sem_produtos', dados['conta_sem'])}/produtos",
    )
    for filtros in ({}, {"situacao": "aprovado"}):
        funda("produtos", "+".join(f"{k}={v}" for k, v in filtros.items()) or "(nenhum)", produtos, "produtos", filtros)

    entregas = f"/v1/avisos/{dados['aviso']}/entregas"
    caso("entregas", "(nenhum)", entregas)
    for situacao in ("entregue", "falhou", "pendente", "enviando"):
        caso("entregas", f"situacao={situacao}", entregas, {"situacao": situacao})
    for filtros in ({}, {"situacao": "entregue"}):
        funda("entregas", "+".join(f"{k}={v}" for k, v in filtros.items()) or "(nenhum)", entregas, "entregas", filtros)

    caso("integracao", "erros (7 dias)", "/v1/integracao/erros")
    caso("integracao", "status", "/v1/integracao/status")

    # The portal's pages that read these lists.
    caso("portal", "/visao-geral", "/visao-geral")
    caso("portal", "/chamadas", "/chamadas")
    caso("portal", "/chamadas/lista", "/chamadas/lista")
    for nome, valores in chamadas.items():
        for quanto in ("frequente", "raro"):
            if quanto in valores:
                caso(
                    "portal", f"/chamadas {nome} ({quanto})", "/chamadas", {parametro.get(nome, nome): valores[quanto]}
                )
    caso(
        "portal",
        "/chamadas metodo=GET+endpoint=/galerias (vazio)",
        "/chamadas",
        {"metodo": "GET", "endpoint": "/galerias"},
    )
    funda("portal", "/chamadas", "/chamadas", "chamadas", {})
    caso("portal", "/extrato", "/extrato")
    funda("portal", "/extrato", "/extrato", "extrato", {})
    caso("portal", "/contas", "/contas")
    funda("portal", "/contas", "/contas", "contas", {})
    caso("portal", "/contas/{id} (produtos)", f"/contas/{conta}")
    funda("portal", "/contas/{id} (produtos)", f"/contas/{conta}", "produtos", {})
    caso("portal", "/avisos/{id} (entregas)", f"/avisos/{dados['aviso']}")
    funda("portal", "/avisos/{id} (entregas)", f"/avisos/{dados['aviso']}", "entregas", {})
    caso("portal", "/geracoes", "/geracoes")
    funda("portal", "/geracoes", "/geracoes", "geracoes", {})
    caso("portal", "/integracao", "/integracao")
    return lista


# -- measuring -------------------------------------------------------------------------------


async def medir(base: str, dados: dict, lista: list[dict], rodadas: int, amostras: int, aquecimento: int) -> None:
    """Each case's samples of each round, into case["rodadas"]; rounds visit every case in turn."""
    import aiohttp

    api_headers = {"Authorization": f"Bearer {dados['token']}"}
    async with (
        aiohttp.ClientSession(base_url=base, headers=api_headers) as api,
        aiohttp.ClientSession(base_url=base, cookie_jar=aiohttp.CookieJar(unsafe=True)) as portal,
    ):
        pagina = await portal.get("/entrar")
        token = re.search(r'name="csrf" value="([0-9a-f]+)"', await pagina.text()).group(1)
        entrou = await portal.post(
            "/entrar", data={"csrf": token, "email": EMAIL, "senha": SENHA}, allow_redirects=False
        )
        assert entrou.status == 303, await entrou.text()

        async def uma(caso: dict) -> tuple[float, int | str]:
            sessao = portal if caso["familia"] == "portal" else api
            inicio = time.perf_counter()
            resposta = await sessao.get(caso["caminho"], params=caso["filtros"], allow_redirects=False)
            corpo = await resposta.read()
            ms = (time.perf_counter() - inicio) * 1000
            if resposta.status != 200:
                raise SystemExit(f"{caso['caminho']} {caso['filtros']}: {resposta.status} {corpo[:500]!r}")
            if caso["familia"] == "portal":
                return ms, corpo.count(b"<tr") - 1 if b"<tr" in corpo else "-"
            data = json.loads(corpo)["data"]
            return ms, len(data) if isinstance(data, list) else "-"

        for caso in lista:  # the service just started: one pass over everything before measuring
            await uma(caso)
        for rodada in range(rodadas):
            inicio = time.monotonic()
            for caso in lista:
                aquecidos = [await uma(caso) for _ in range(aquecimento)]
                lento = aquecidos and statistics.median(a for a, _ in aquecidos) > LENTO_MS
                medidas = [await uma(caso) for _ in range(AMOSTRAS_LENTAS if lento else amostras)]
                caso.setdefault("rodadas", []).append([m for m, _ in medidas])
                caso["linhas"] = medidas[-1][1]
            print(f"  round {rodada + 1}: {len(lista)} cases in {time.monotonic() - inicio:.0f} s", flush=True)


def percentil(valores: list[float], p: float) -> float:
    ordenados = sorted(valores)
    return ordenados[max(0, math.ceil(len(ordenados) * p) - 1)]


def imprimir(nome: str, lista: list[dict]) -> list[dict]:
    """The table; returns the cases that missed the target (their p95 is the rounds' median)."""
    print(f"\n{nome}")
    rodadas = len(lista[0]["rodadas"]) if lista else 0
    por_rodada = "  ".join(f"p95 r{n + 1:<3}" for n in range(rodadas)) if rodadas > 1 else ""
    print(f"  {'endpoint':34} {'filters':58} {'p50':>7} {'p95':>7} {por_rodada} {'rows':>5}  target")
    falhas = []
    for caso in lista:
        p50 = statistics.median(statistics.median(r) for r in caso["rodadas"])
        p95s = [percentil(r, 0.95) for r in caso["rodadas"]]
        p95 = statistics.median(p95s)
        caso["p50"], caso["p95"] = p50, p95
        ok = p95 < TARGET_MS
        if not ok:
            falhas.append(caso)
        endpoint = caso["caminho"] if caso["familia"] != "portal" else caso["caminho"]
        endpoint = re.sub(r"(cta|avs)_[0-9a-z]{26}", r"{\1}", endpoint)
        rodadas_txt = "  ".join(f"{v:7.1f}" for v in p95s) if rodadas > 1 else ""
        print(
            f"  {endpoint[:34]:34} {caso['nome'][:58]:58} {p50:7.1f} {p95:7.1f} {rodadas_txt} {caso['linhas']!s:>5}  "
            f"{'PASS' if ok else 'FAIL'}"
        )
    print(f"  {len(lista) - len(falhas)} of {len(lista)} under p95 {TARGET_MS:.0f} ms; {len(falhas)} missed")
    return falhas


# -- back ends -------------------------------------------------------------------------------


def ambiente(backend: str, diretorio: Path | None) -> dict[str, str]:
    if backend == "sqlite":
        return {"VITRINE_DATA_DIR": str(diretorio or SQLITE_DIR)}
    return {
        "VITRINE_DATA_DIR": str((diretorio or SQLITE_DIR).with_name((diretorio or SQLITE_DIR).name + "-pg")),
        "VITRINE_DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{PG_DATABASE}",
        "VITRINE_REDIS_URL": REDIS_URL,
        "VITRINE_REDIS_NAMESPACE": f"escala-{os.getpid()}",
    }


def marcador(backend: str, env: dict[str, str]) -> tuple[str, str] | None:
    """(parameters, data) of a seeded database kept by --reusar, None when there is none."""
    try:
        if backend == "sqlite":
            arquivo = Path(env["VITRINE_DATA_DIR"]) / "vitrine.sqlite3"
            if not arquivo.exists():
                return None
            with sqlite3.connect(arquivo) as conn:
                return conn.execute("SELECT parametros, dados FROM bench_escala").fetchone()
        import asyncpg

        async def ler():
            conn = await asyncpg.connect(env["VITRINE_DATABASE_URL"])
            try:
                return tuple(await conn.fetchrow("SELECT parametros, dados FROM bench_escala"))
            finally:
                await conn.close()

        return asyncio.run(ler())
    except Exception:
        return None


def apagar(backend: str, env: dict[str, str], *, criar: bool) -> None:
    shutil.rmtree(env["VITRINE_DATA_DIR"], ignore_errors=True)
    if backend == "postgres":
        import asyncpg

        async def refazer() -> None:
            conn = await asyncpg.connect(PG_ADMIN)
            await conn.execute(f'DROP DATABASE IF EXISTS "{PG_DATABASE}" WITH (FORCE)')
            if criar:
                await conn.execute(f'CREATE DATABASE "{PG_DATABASE}"')
            await conn.close()

        asyncio.run(refazer())


def rodar(backend: str, args) -> list[dict]:
    nome = {"sqlite": "SQLite (embedded default)", "postgres": f"PostgreSQL + Redis (database {PG_DATABASE})"}[backend]
    env = ambiente(backend, Path(args.dir) if args.dir else None)
    p = parametros(backend, args.chamadas)
    guardado = marcador(backend, env) if args.reusar else None
    if guardado and json.loads(guardado[0]) == p:
        dados = json.loads(guardado[1])
        print(f"{nome}: reusing the seeded database ({p['chamadas']:,} calls, seeded in {dados['segundos']:.0f} s)")
    else:
        apagar(backend, env, criar=True)
        print(
            f"{nome}: seeding {p['chamadas']:,} calls ({p['do_inquilino']:,} for the big tenant), "
            f"{p['lancamentos']:,} ledger entries, {p['contas']:,} accounts, {p['produtos']:,} products, "
            f"{p['geracoes']:,} generations, {p['entregas']:,} deliveries",
            flush=True,
        )
        semente = subprocess.run(
            [sys.executable, __file__, "--semear", json.dumps(p)],
            env={**os.environ, **env},
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        if semente.returncode:
            raise SystemExit(f"seeding failed ({semente.returncode})")
        dados = json.loads(semente.stdout.strip().splitlines()[-1])
        print(f"  seeded in {dados['segundos']:.0f} s", flush=True)
    lista = casos(dados, set(args.so.split(",")) if args.so else None)
    port = free_port()
    env_servico = {**os.environ, **env, "VITRINE_PORT": str(port), "VITRINE_PUBLIC_URL": f"http://127.0.0.1:{port}"}
    env_servico.pop("VITRINE_SMTP_URL", None)
    from tests.processes import start_vitrine

    log = open(Path(env["VITRINE_DATA_DIR"]) / "serve.log", "w")
    servidor = start_vitrine("serve", env=env_servico, log=log)
    try:
        wait_for_port(port, timeout=120)
        asyncio.run(medir(f"http://127.0.0.1:{port}", dados, lista, args.rodadas, args.amostras, args.aquecimento))
    finally:
        os.killpg(servidor.pid, signal.SIGTERM)
        servidor.wait(timeout=60)
        log.close()
    falhas = imprimir(f"{nome}: {p['chamadas']:,} calls, {p['do_inquilino']:,} of the measured tenant", lista)
    das_chamadas = [c for c in falhas if c["familia"] == "chamadas"]
    if das_chamadas:
        print(
            f"\n  Plans of the call-log queries that missed ({'EXPLAIN (ANALYZE, BUFFERS)' if backend == 'postgres' else 'EXPLAIN QUERY PLAN'}):",
            flush=True,
        )
        subprocess.run(
            [sys.executable, __file__, "--explicar", json.dumps({"dados": dados, "casos": das_chamadas})],
            env={**os.environ, **env},
            cwd=ROOT,
            check=False,
        )
    if not args.reusar:
        apagar(backend, env, criar=False)
    else:
        onde = PG_DATABASE if backend == "postgres" else env["VITRINE_DATA_DIR"]
        print(f"  kept for --reusar: {onde}")
    return falhas


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backends", default="sqlite,postgres")
    parser.add_argument("--chamadas", type=int, help="call-log rows (default 10 M on PostgreSQL, 1 M on SQLite)")
    parser.add_argument("--reusar", action="store_true", help="keep the seeded database and reuse it next time")
    parser.add_argument("--dir", help=f"SQLite's data directory (default {SQLITE_DIR})")
    parser.add_argument("--rodadas", type=int, default=3, help="rounds over every case (the p95 is their median)")
    parser.add_argument("--amostras", type=int, default=30, help="requests per case and round")
    parser.add_argument("--aquecimento", type=int, default=3, help="warm-up requests per case and round")
    parser.add_argument("--so", help="only these families: chamadas,extrato,contas,produtos,entregas,integracao,portal")
    parser.add_argument("--semear", help=argparse.SUPPRESS)
    parser.add_argument("--explicar", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.semear:
        print(json.dumps(asyncio.run(semear(json.loads(args.semear)))))
        return
    if args.explicar:
        pedido = json.loads(args.explicar)
        asyncio.run(explicar(pedido["dados"], pedido["casos"]))
        return
    total, _, livre = shutil.disk_usage("/work" if Path("/work").exists() else tempfile.gettempdir())
    print(
        f"List endpoints at size: p50/p95 of {args.amostras} requests per case after {args.aquecimento} warm-up, "
        f"{args.rodadas} round(s); target p95 < {TARGET_MS:.0f} ms; {livre / 2**30:.0f} GB free on disk"
    )
    print(f"machine speed: sum(range(50)) in {reference_loop_ns():.0f} ns (lower is faster)\n", flush=True)
    falhou = False
    for backend in args.backends.split(","):
        falhou |= bool(rodar(backend, args))
    sys.exit(1 if falhou else 0)


if __name__ == "__main__":
    main()
