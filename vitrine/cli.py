"""The `vitrine` command (also `python -m vitrine`)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Awaitable, Callable
from typing import Any

import click

from vitrine import db
from vitrine.settings import Settings


def _run_with_db(work: Callable[[Settings], Awaitable[Any]]) -> Any:
    """Run one command against the database, migrated first so a fresh machine just works."""

    async def main() -> Any:
        from tasks.broker import wire_task_port
        from vitrine import ligacoes  # the domains' wiring: loaded by the commands that use the domain

        settings = Settings()
        # A command may queue work (what is lost when it exits, the sweeps recover); the task
        # modules load only if it does.
        wire_task_port(now=False)
        ligacoes.ligar()
        await db.migrate(settings)
        context = await db.connect(settings)
        try:
            return await work(settings)
        finally:
            await context.close_connections()

    return asyncio.run(main())


def _print_json(value: dict) -> None:
    click.echo(json.dumps(value, ensure_ascii=False, indent=2))


def _fail_on_api_error(error) -> None:
    raise click.ClickException(json.dumps(error.body(Settings().docs_url)["error"], ensure_ascii=False))


@click.group()
@click.option("--verbose", "-v", is_flag=True, help="Log at DEBUG level (VITRINE_LOG_LEVEL otherwise).")
def main(verbose: bool) -> None:
    """Vitrine: product-media API for marketplace integrators."""
    from vitrine import logs

    settings = Settings()
    logs.configure("DEBUG" if verbose else settings.log_level, settings.log_format)


@main.command()
@click.option("--host", default=None, help="Interface to listen on (VITRINE_HOST, default 127.0.0.1).")
@click.option("--port", type=int, default=None, help="Port (VITRINE_PORT, default 8080).")
@click.option(
    "--processes",
    type=int,
    default=1,
    show_default=True,
    help="Web processes sharing the port (more than one needs VITRINE_REDIS_URL).",
)
def serve(host: str | None, port: int | None, processes: int) -> None:
    """Run the API, portal, docs and (embedded default) the workers."""
    overrides: dict[str, Any] = {k: v for k, v in {"host": host, "port": port}.items() if v is not None}
    settings = Settings(**overrides)
    if processes > 1 and not settings.redis_url:
        # Limits, caches and the in-process broker are per process without Redis.
        raise click.ClickException("--processes > 1 needs VITRINE_REDIS_URL (shared limits, caches and task queue).")
    click.echo(f"Vitrine on {settings.base_url} (API {settings.api_url}, docs {settings.docs_url})")
    if processes == 1:
        _serve_one(settings, migrate=True, reuse_port=False)
        return
    import multiprocessing
    import signal

    # A scrape of /metrics reaches any one of them: each answers for all (vitrine/metrics.py).
    metrics_dir = _multiprocess_metrics_dir()
    asyncio.run(db.migrate(settings))
    children = [multiprocessing.Process(target=_serve_one, args=(settings, False, True)) for _ in range(processes)]
    for child in children:
        child.start()

    def forward(signum, frame):
        for child in children:
            if child.is_alive() and child.pid is not None:
                os.kill(child.pid, signal.SIGINT)

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    try:
        for child in children:
            child.join()
    finally:
        shutil.rmtree(metrics_dir, ignore_errors=True)


def _serve_one(settings: Settings, migrate: bool, reuse_port: bool) -> None:
    from vitrine.app import create_app, run_web
    from vitrine.infra.process import die_with_multiprocessing_parent

    die_with_multiprocessing_parent()  # with --processes: no web process outlives the one that started it

    run_web(create_app(settings, migrate=migrate), settings.host, settings.port, reuse_port=reuse_port)


@main.command()
@click.option("--workers", type=int, default=2, show_default=True, help="Worker processes.")
def worker(workers: int) -> None:
    """Run taskiq workers against Redis (VITRINE_REDIS_URL), with the periodic jobs."""
    from taskiq.cli.worker.args import WorkerArgs
    from taskiq.cli.worker.run import run_worker

    from tasks.registry import TASK_MODULES

    settings = Settings()
    if not settings.redis_url:
        raise click.ClickException(
            "vitrine worker needs VITRINE_REDIS_URL; without Redis, `vitrine serve` runs the tasks itself."
        )
    metrics_dir = None
    if settings.worker_port:
        # Its port answers for every worker process: their metrics go to files this process reads.
        metrics_dir = _multiprocess_metrics_dir()
        from vitrine import worker_port

        worker_port.serve(settings, workers)
        click.echo(f"vitrine worker: /health, /health/ready and /metrics on {settings.host}:{settings.worker_port}")
    # Logging stays as main() configured it (text or JSON lines, the settings' level).
    args = WorkerArgs.from_cli(
        [
            "tasks.broker:broker",
            *TASK_MODULES,
            "--workers",
            str(workers),
            "--no-configure-logging",
            "--log-level",
            settings.log_level,
        ]
    )
    try:
        code = run_worker(args) or 0
    finally:
        if metrics_dir is not None:
            shutil.rmtree(metrics_dir, ignore_errors=True)
    raise SystemExit(code)


def _multiprocess_metrics_dir() -> str:
    """A fresh directory for the values of this command's processes (prometheus-client's
    multiprocess mode, vitrine/metrics.py), announced in the environment they inherit. The library
    chooses where values live when it is imported: nothing may have imported it yet."""
    if "prometheus_client" in sys.modules:
        raise RuntimeError("prometheus_client was imported before its multiprocess directory was set")
    path = tempfile.mkdtemp(prefix="vitrine-metricas-")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = path
    return path


@main.command()
def migrate() -> None:
    """Apply pending database migrations."""

    async def run() -> None:
        await db.migrate(Settings())

    asyncio.run(run())
    click.echo("migrations applied")


@main.group()
def integrator() -> None:
    """Integrators (tenants)."""


@integrator.command("create")
@click.option("--nome", required=True, help="Company name.")
@click.option("--email", required=True, help="Contact e-mail for alerts.")
def integrator_create(nome: str, email: str) -> None:
    """Create an integrator with its wallets and a first sk_test_ key (printed once)."""
    from graphql_api.core.errors import ApiError
    from graphql_api.integrador import service

    async def work(settings: Settings):
        return await service.criar_integrador(nome=nome, email=email)

    try:
        created = _run_with_db(work)
    except ApiError as error:
        _fail_on_api_error(error)
    _print_json(
        {
            "integradorId": created.integrador.id,
            "nome": created.integrador.nome,
            "email": created.integrador.email,
            "chaveTeste": created.chave_teste,
        }
    )


@main.group()
def key() -> None:
    """API keys."""


@key.command("create")
@click.option("--integrador", "integrador_id", required=True, help="Integrator id (itg_…).")
@click.option("--ambiente", type=click.Choice(["teste", "producao"]), default="teste", show_default=True)
@click.option("--nome", default="", help="A label to recognise the key by.")
def key_create(integrador_id: str, ambiente: str, nome: str) -> None:
    """Create an API key; the key is printed once and only its hash is kept."""
    from graphql_api.chave import service as chaves
    from graphql_api.core.errors import ApiError
    from graphql_api.core.principal import Ambiente
    from graphql_api.integrador import service as integradores

    async def work(settings: Settings):
        integrador = await integradores.obter(integrador_id)
        return await chaves.criar_chave(integrador.id, Ambiente(ambiente), nome=nome)

    try:
        row, token = _run_with_db(work)
    except ApiError as error:
        _fail_on_api_error(error)
    _print_json({"chave": token, "identificador": row.id, "ambiente": row.ambiente})


@main.group()
def staff() -> None:
    """Service staff (internal GraphQL API at /graphql)."""


@staff.command("create")
@click.option("--nome", required=True, help="Who the token belongs to (recorded with every action).")
def staff_create(nome: str) -> None:
    """Create a staff token (printed once) for POST /graphql."""
    from graphql_api.core.errors import ApiError
    from graphql_api.equipe import service as equipe

    async def work(settings: Settings):
        return await equipe.criar_membro(nome)

    try:
        membro, token = _run_with_db(work)
    except ApiError as error:
        _fail_on_api_error(error)
    _print_json({"membroId": membro.id, "nome": membro.nome, "token": token})


@main.group()
def contract() -> None:
    """The integration contract."""


@contract.command("accept")
@click.option("--integrador", "integrador_id", required=True)
@click.option("--por", required=True, help="Name of the person accepting on behalf of the integrator.")
def contract_accept(integrador_id: str, por: str) -> None:
    """Accept the current contract version for an integrator (needed for live keys)."""
    from graphql_api.core.errors import ApiError
    from graphql_api.integracao import contrato
    from graphql_api.integrador import service as integradores

    async def work(settings: Settings):
        await integradores.obter(integrador_id)
        current = await contrato.vigente()
        return await contrato.aceitar(integrador_id, current.versao, por=por)

    try:
        aceite = _run_with_db(work)
    except ApiError as error:
        _fail_on_api_error(error)
    _print_json(
        {
            "integradorId": integrador_id,
            "versao": aceite.versao,
            "aceitoPor": aceite.aceito_por,
            "aceitoEm": aceite.aceito_em.isoformat(),
        }
    )


@main.group()
def vendedor() -> None:
    """Sellers (they authorise integrators' OAuth apps on their store)."""


@vendedor.command("create")
@click.option("--nome", required=True, help="The store's name (linked accounts take it).")
@click.option("--email", required=True, help="The e-mail the seller signs in with.")
@click.option("--senha", required=True, help="The password (10 to 128 characters).")
def vendedor_create(nome: str, email: str, senha: str) -> None:
    """Create a seller who can sign in at /vendedor/entrar at once."""
    from graphql_api.core.errors import ApiError
    from graphql_api.vendedor import cadastro

    async def work(settings: Settings):
        return await cadastro.cadastrar({"nome": nome, "email": email, "senha": senha})

    try:
        criado = _run_with_db(work)
    except ApiError as error:
        _fail_on_api_error(error)
    _print_json({"vendedorId": criado.id, "nome": criado.nome, "email": criado.email})


@main.group()
def app() -> None:
    """OAuth apps of an integrator (the portal's Apps page does the same)."""


@app.command("create")
@click.option("--integrador", "integrador_id", required=True, help="Integrator id (itg_…).")
@click.option("--nome", required=True, help="Shown to sellers on the consent screen.")
@click.option("--ambiente", type=click.Choice(["teste", "producao"]), default="teste", show_default=True)
@click.option("--tipo", type=click.Choice(["confidencial", "publico"]), required=True)
@click.option("--redirect-uri", "redirect_uris", multiple=True, required=True, help="Exact address; up to 5.")
@click.option("--escopos", required=True, help='Space-separated, e.g. "produtos:ler geracoes:criar".')
def app_create(
    integrador_id: str, nome: str, ambiente: str, tipo: str, redirect_uris: tuple[str, ...], escopos: str
) -> None:
    """Register an OAuth app; a confidential app's client_secret is printed once, only its hash is kept."""
    from graphql_api.core.errors import ApiError
    from graphql_api.core.principal import Ambiente
    from graphql_api.core.scalars import format_timestamp
    from graphql_api.integrador import service as integradores
    from graphql_api.oauth import apps
    from graphql_api.oauth.cache import CACHE_TOPIC

    dados = {"nome": nome, "tipo": tipo, "redirectUris": list(redirect_uris), "escopos": escopos.split()}

    async def work(settings: Settings):
        integrador = await integradores.obter(integrador_id)
        criado = await apps.criar(integrador.id, Ambiente(ambiente), dados)
        if tipo == "publico":  # its origins are allowed by CORS (graphql_api/oauth/origens.py)
            await _publish_cache_clears(settings, CACHE_TOPIC)
        return criado

    try:
        criado = _run_with_db(work)
    except ApiError as error:
        _fail_on_api_error(error)
    row = criado.app
    _print_json(
        {
            "clientId": row.id,
            "clientSecret": criado.segredo,
            "integradorId": row.integrador_id,
            "nome": row.nome,
            "ambiente": row.ambiente,
            "tipo": row.tipo,
            "redirectUris": row.redirect_uris,
            "escopos": row.escopos,
            "situacao": row.situacao,
            "criadoEm": format_timestamp(row.criado_em),
        }
    )


@main.group()
def recarga() -> None:
    """Purchases of single packages (recargas)."""


@recarga.command("confirmar")
@click.argument("recarga_id", metavar="ID")
@click.option("--recusar", is_flag=True, help="Refuse the purchase instead (nothing is credited).")
@click.option("--referencia", default=None, help="The payment's reference (PIX id, bank slip number), recorded.")
def recarga_confirmar(recarga_id: str, recusar: bool, referencia: str | None) -> None:
    """Confirm an offline payment (PIX, bank slip) of a purchase: its credits enter the wallet once.
    A purchase already paid, refused or expired is left as it is (PURCHASE_CLOSED when it contradicts)."""
    from graphql_api.core.errors import ApiError
    from graphql_api.core.scalars import format_timestamp
    from graphql_api.recarga import service as recargas

    async def work(settings: Settings):
        return await recargas.confirmar_pela_equipe(
            recargas.MEMBRO_CLI, recarga_id, recusar=recusar, referencia=referencia
        )

    try:
        row = _run_with_db(work)
    except ApiError as error:
        _fail_on_api_error(error)
    _print_json(
        {
            "recargaId": row.id,
            "integradorId": row.integrador_id,
            "ambiente": row.ambiente,
            "pacote": row.pacote_id,
            "creditos": row.creditos,
            "situacao": row.situacao,
            "pagaEm": format_timestamp(row.paga_em) if row.paga_em else None,
            "encerradaEm": format_timestamp(row.encerrada_em) if row.encerrada_em else None,
        }
    )


@main.group()
def plano() -> None:
    """Plans: the catalogue and integrators' subscriptions (docs/creditos.md)."""


def _plano_json(row) -> dict:
    return {
        "codigo": row.codigo,
        "versao": row.versao,
        "nome": row.nome,
        "precoCentavos": row.preco_centavos,
        "creditosMensais": row.creditos_mensais,
        "limites": {
            "porMinutoChave": row.limite_por_minuto_chave,
            "porMinutoIntegrador": row.limite_por_minuto_integrador,
        },
        "vigente": row.vigente,
    }


async def _publish_cache_clears(settings: Settings, *topics: str) -> None:
    """A change from this command (a plan: both credential caches by default; an OAuth app) reaches
    the servers' caches through Redis; on the embedded default they read it within a minute
    (their caches' lifetime)."""
    from redis.asyncio import Redis

    from graphql_api.chave.service import CACHE_TOPIC
    from graphql_api.oauth.cache import CACHE_TOPIC as OAUTH_TOPIC
    from vitrine.infra.bus import InvalidationBus

    if not settings.redis_url:
        return
    redis = Redis.from_url(settings.redis_url)
    try:
        bus = InvalidationBus(redis, channel=settings.redis_key("invalidar"))
        for topic in topics or (CACHE_TOPIC, OAUTH_TOPIC):
            await bus.publish(topic)
    finally:
        await redis.aclose()


@plano.command("listar")
@click.option("--todas-versoes", is_flag=True, help="Also the versions no longer offered.")
def plano_listar(todas_versoes: bool) -> None:
    """Print the catalogue (the plans offered now, cheapest first)."""
    from graphql_api.creditos import repository
    from graphql_api.creditos.models import Plano

    async def work(settings: Settings):
        if todas_versoes:
            return await Plano.all().order_by("ordem", "codigo", "versao")
        return await repository.vigentes()

    _print_json({"planos": [_plano_json(row) for row in _run_with_db(work)]})


@plano.command("mudar")
@click.option("--integrador", "integrador_id", required=True, help="Integrator id (itg_…).")
@click.option("--ambiente", type=click.Choice(["teste", "producao"]), required=True)
@click.option("--plano", "codigo", required=True, help="Code of the plan, e.g. essencial.")
def plano_mudar(integrador_id: str, ambiente: str, codigo: str) -> None:
    """Change an integrator's plan: a bigger plan at once (the difference of credits granted now),
    a smaller one at the next cycle start; the current plan's code cancels a scheduled change."""
    from graphql_api.core.errors import ApiError
    from graphql_api.core.scalars import format_timestamp
    from graphql_api.creditos import planos
    from graphql_api.integrador import service as integradores

    async def work(settings: Settings):
        integrador = await integradores.obter(integrador_id)
        atual = await planos.mudar_plano(integrador.id, ambiente, codigo, bus=None)
        await _publish_cache_clears(settings)
        return atual

    try:
        atual = _run_with_db(work)
    except ApiError as error:
        _fail_on_api_error(error)
    mudanca = atual.mudanca
    _print_json(
        {
            "integradorId": integrador_id,
            "ambiente": atual.ambiente,
            "plano": _plano_json(atual.assinatura.plano),
            "cicloInicioEm": format_timestamp(atual.assinatura.ciclo_inicio_em),
            "cicloFimEm": format_timestamp(atual.assinatura.ciclo_fim_em),
            "mudancaAgendada": {
                "plano": _plano_json(mudanca.plano),
                "aplicaEm": format_timestamp(mudanca.aplica_em),
                "motivo": mudanca.motivo,
            }
            if mudanca
            else None,
        }
    )


@plano.command("publicar")
@click.option("--codigo", required=True, help="Code of the plan (a new code creates a new plan).")
@click.option("--nome", default=None)
@click.option("--preco-centavos", type=int, default=None, help="Monthly price in BRL cents.")
@click.option("--creditos-mensais", type=int, default=None, help="The monthly quota.")
@click.option("--limite-chave", type=int, default=None, help="Requests per minute per key.")
@click.option("--limite-integrador", type=int, default=None, help="Requests per minute per integrator.")
def plano_publicar(
    codigo: str,
    nome: str | None,
    preco_centavos: int | None,
    creditos_mensais: int | None,
    limite_chave: int | None,
    limite_integrador: int | None,
) -> None:
    """Publish a new version of a plan (options left out keep the current version's); subscribers
    move to it at their next cycle start."""
    from graphql_api.core.errors import ApiError
    from graphql_api.creditos import catalogo

    dados = {
        "codigo": codigo,
        "nome": nome,
        "precoCentavos": preco_centavos,
        "creditosMensais": creditos_mensais,
        "limitePorMinutoChave": limite_chave,
        "limitePorMinutoIntegrador": limite_integrador,
    }

    async def work(settings: Settings):
        return await catalogo.publicar_versao({k: v for k, v in dados.items() if v is not None})

    try:
        row = _run_with_db(work)
    except ApiError as error:
        _fail_on_api_error(error)
    _print_json(_plano_json(row))
