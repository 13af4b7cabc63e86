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
    for module in ROUTE_MODULES:
        for method, path, handler in module.routes.routes:
            app.router.add_route(method, path, handler)
