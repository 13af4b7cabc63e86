"""The public documentation site at /docs: guides written in docs/*.md, and the pages generated
from the catalogs (errors at /docs/erros, pendencias and photo motivos at /docs/pendencias, each
with an anchor per code, and as JSON)."""

from __future__ import annotations

import re
from dataclasses import asdict

from aiohttp import web

from graphql_api.conferencia.catalog import MOTIVOS, PENDENCIAS
from graphql_api.core.errors import CATALOG, FIELD_CODES
from vitrine import docs_busca
from vitrine.keys import RUNTIME
from vitrine.settings import DOCS_DIR
from vitrine.templating import environment, render_markdown

_PAGE_NAME = re.compile(r"^[a-z0-9\-]+$")
_templates = environment()

# Guides listed in the navigation, in reading order: (file name without .md, title).
GUIDES = [
    ("index", "Começando"),
    ("autenticacao", "Autenticação e ambientes"),
    ("oauth", "OAuth: contas de vendedores"),
    ("ficha", "Ficha do produto"),
    ("conferencia", "Fotos e conferência"),
    ("limites", "Limites e idempotência"),
    ("chamadas", "Registro de chamadas"),
    ("creditos", "Créditos, planos e preços"),
    ("avisos", "Avisos (webhooks)"),
    ("geracoes", "Gerações"),
    ("midia", "Mídia gerada"),
    ("cliente-python", "Cliente Python"),
    ("operacao", "Operação: saúde, métricas e logs"),
]


# Nothing on the docs comes from another origin. The API reference's renderer (Redoc, from npm,
# served from /static/vendor) styles itself with inline styles and searches in a blob: worker.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'; "
    "base-uri 'none'; object-src 'none'; form-action 'self'"
)


def _render(request: web.Request, template: str, *, status: int = 200, **context) -> web.Response:
    settings = request.app[RUNTIME].settings
    html = _templates.get_template(template).render(
        guides=GUIDES, api_url=settings.api_url, docs_url=settings.docs_url, **context
    )
    return web.Response(text=html, content_type="text/html", status=status, headers={"Content-Security-Policy": CSP})


async def reference(request: web.Request) -> web.Response:
    """The API reference, rendered in the browser from the service's own /v1/openapi.json."""
    return _render(
        request,
        "docs/referencia.html",
        title="Referência da API",
        spec_url="/v1/openapi.json",
        current="referencia",
    )


async def search(request: web.Request) -> web.Response:
    consulta = request.query.get("q", "").strip()[:200]
    resultados = docs_busca.buscar(consulta, tuple(GUIDES)) if consulta else []
    return _render(request, "docs/busca.html", title="Busca", consulta=consulta, resultados=resultados, current="busca")


def guide_placeholders(settings) -> dict[str, str]:
    """The contract's names for the service's addresses, as the guides write them. The OAuth
    endpoints ({auth_url}) and the consent screen ({app_url}) live at the service's root."""
    return {
        "{base_url}": settings.api_url,
        "{docs_url}": settings.docs_url,
        "{auth_url}": settings.base_url,
        "{app_url}": settings.base_url,
    }


async def guide(request: web.Request) -> web.Response:
    name = request.match_info.get("page", "index")
    path = DOCS_DIR / f"{name}.md"
    if not _PAGE_NAME.match(name) or not path.is_file():
        body = render_markdown(
            f"# Página não encontrada\n\nNenhuma página da documentação tem o endereço `{request.path}`. "
            "Siga pelo índice, ou busque o que procura."
        )
        return _render(request, "docs/page.html", status=404, title="Página não encontrada", body=body, current="")
    settings = request.app[RUNTIME].settings
    text = path.read_text()
    for placeholder, value in guide_placeholders(settings).items():
        text = text.replace(placeholder, value)
    title = next((t for n, t in GUIDES if n == name), name)
    return _render(request, "docs/page.html", title=title, body=render_markdown(text), current=name)


async def errors_page(request: web.Request) -> web.Response:
    kinds = sorted(CATALOG.values(), key=lambda k: (k.status, k.type))
    return _render(request, "docs/erros.html", title="Erros", kinds=kinds, field_codes=FIELD_CODES, current="erros")


async def integration_page(request: web.Request) -> web.Response:
    from graphql_api.integracao.alertas import TIPOS
    from graphql_api.integracao.etapas import ETAPAS

    return _render(
        request,
        "docs/integracao.html",
        title="Etapas de integração",
        etapas=ETAPAS,
        tipos_alerta=TIPOS,
        current="integracao",
    )


async def errors_json(request: web.Request) -> web.Response:
    docs_url = request.app[RUNTIME].settings.docs_url
    return web.json_response(
        {
            "data": [
                asdict(kind) | {"documentacao": f"{docs_url}/erros#{kind.type}"}
                for kind in sorted(CATALOG.values(), key=lambda k: k.type)
            ],
            "codigosDeCampo": FIELD_CODES,
        }
    )


_SECTIONS = (
    (
        "Motivos de foto",
        "Em fotos.itens[].motivos do produto. Uma foto com um motivo de bloqueio fica reprovada e não entra em nenhuma mídia.",
        "foto",
    ),
    ("Galeria", "Em resultados[].pendencias da galeria.", "galeria"),
    ("Vídeo de apresentação", "Em resultados[].pendencias de video_apresentacao.", "video_apresentacao"),
    ("Vídeo CinePremium", "Em resultados[].pendencias de video_cinepremium.", "video_cinepremium"),
)


async def pendencias_page(request: web.Request) -> web.Response:
    codes = list(MOTIVOS.values()) + list(PENDENCIAS.values())
    sections = [(title, intro, tipo, [c for c in codes if c.tipo == tipo]) for title, intro, tipo in _SECTIONS]
    return _render(request, "docs/pendencias.html", title="Pendências", sections=sections, current="pendencias")


async def pendencias_json(request: web.Request) -> web.Response:
    docs_url = request.app[RUNTIME].settings.docs_url

    def entries(codes):
        return [asdict(c) | {"documentacao": f"{docs_url}/pendencias#{c.codigo}"} for c in codes.values()]

    return web.json_response({"data": {"motivosDeFoto": entries(MOTIVOS), "pendencias": entries(PENDENCIAS)}})


def add_routes(app: web.Application) -> None:
    app.router.add_get("/docs", guide)
    app.router.add_get("/docs/erros", errors_page)
    app.router.add_get("/docs/erros.json", errors_json)
    app.router.add_get("/docs/integracao", integration_page)
    app.router.add_get("/docs/pendencias", pendencias_page)
    app.router.add_get("/docs/pendencias.json", pendencias_json)
    app.router.add_get("/docs/referencia", reference)
    app.router.add_get("/docs/busca", search)
    app.router.add_static("/docs/samples", DOCS_DIR / "samples")  # what Vitrine makes, to look at
    app.router.add_static("/docs/screenshots", DOCS_DIR / "screenshots")  # the pages the guides show
    app.router.add_get("/docs/{page}", guide)
