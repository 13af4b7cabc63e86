"""The portal for integrator staff and the sellers' pages (/vendedor/...), mounted at / beside /v1, /docs, /midia and /static."""

from aiohttp import web

from portal import (
    acesso,
    apps,
    avisos,
    chamadas,
    chaves,
    checkout,
    consentimento,
    contas,
    contrato,
    creditos,
    emails,
    equipe,
    geracoes,
    integracao,
    produtos,
    vendedores,
    visao_geral,
)
from portal.web import not_found_handlers

ROUTE_MODULES = (
    acesso,
    visao_geral,
    integracao,
    chaves,
    chamadas,
    avisos,
    contas,
    produtos,
    geracoes,
    creditos,
    emails,
    equipe,
    contrato,
    apps,
    vendedores,
    consentimento,
    checkout,
)


def add_routes(app: web.Application) -> None:
    """The portal's routes, and last of all (after /v1, /docs, /midia and /static, which the
    composition root adds first) the page for an address nobody serves."""
    for module in ROUTE_MODULES:
        for method, path, handler in module.routes.routes:
            app.router.add_route(method, path, handler)
    for method, handler in not_found_handlers().items():
        app.router.add_route(method, "/{caminho:.*}", handler)
