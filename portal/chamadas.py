"""The call log: every filter of GET /integracao/chamadas, a box to jump to a request id, a list
that refreshes itself (htmx polling of the first page) and the detail of a call with masked
bodies, response headers, cause and fix, and the call again as a curl command."""

import json
import shlex
from typing import Any
from urllib.parse import urlencode

from aiohttp import web

from graphql_api.chamada.schemas import FiltroChamadas
from graphql_api.core.errors import CATALOG, ApiError
from graphql_api.core.inputs import entrada

# The same operations as GET /v1/integracao/chamadas and its detail: one document each.
from graphql_api.operations.integracao import APPS_CHAMADAS, ENDPOINTS_CHAMADAS, LISTAR_CHAMADAS, OBTER_CHAMADA
from portal.web import Page, PortalRoutes, form_errors

routes = PortalRoutes()

PAGE_SIZE = 50

FILTROS = ("de", "ate", "status", "metodo", "endpoint", "codigoErro", "contaId", "chave", "clientId", "ambiente")
METODOS = ("GET", "POST", "PUT", "PATCH", "DELETE")
CODIGOS_ERRO = sorted(CATALOG)
POLL_SECONDS = 3


def _filters(page: Page) -> dict[str, str]:
    return {name: page.query(name).strip() for name in FILTROS if page.query(name).strip()}


async def _apps(page: Page) -> dict[str, str]:
    """client_id -> how the page names the app: the integrator's OAuth apps of this environment."""
    apps = (await page.run(APPS_CHAMADAS))["appsChamadas"]
    return {a["clientId"]: a["nome"] if a["ativo"] else f"{a['nome']} (desativado)" for a in apps}


async def _listing(
    page: Page,
    template: str,
    *,
    endpoints: tuple[str, ...] | list[str] = (),
    erro_ir: str | None = None,
) -> web.StreamResponse:
    filtros = _filters(page)
    apps = await _apps(page)
    cursor = page.query("cursor") or None
    erros: dict[str, str] = {}
    erro: str | None = None
    result: dict[str, Any] = {"itens": [], "paginacao": {"proximoCursor": None}}
    try:
        result = (
            await page.run(LISTAR_CHAMADAS, filtros=entrada(FiltroChamadas, filtros), limite=PAGE_SIZE, cursor=cursor)
        )["chamadas"]
    except ApiError as error:
        if error.type != "VALIDATION_FAILED":
            raise
        erros, erro = form_errors(error, set(FILTROS))
    proximo = result["paginacao"]["proximoCursor"]
    return page.render(
        template,
        status=404 if erro_ir else 422 if erros or erro else 200,
        erro_ir=erro_ir,
        request_id=page.query("requestId").strip(),
        chamadas=result["itens"],
        filtros=filtros,
        consulta=urlencode(filtros),
        proxima=urlencode(filtros | {"cursor": proximo}) if proximo else None,
        ao_vivo=cursor is None and not (erros or erro),
        poll_seconds=POLL_SECONDS,
        erros=erros,
        erro=erro,
        metodos=METODOS,
        endpoints=endpoints,
        codigos_erro=CODIGOS_ERRO,
        apps=apps,
    )


@routes.get("/chamadas")
async def chamadas(page: Page) -> web.StreamResponse:
    erro_ir = None
    if request_id := page.query("requestId").strip():
        # The jump box: straight to the call, or why not, beside the box.
        try:
            await page.run(OBTER_CHAMADA, requestId=request_id)
        except ApiError as error:
            if error.type != "NOT_FOUND":
                raise
            erro_ir = (
                f"Nenhuma chamada {request_id} neste ambiente. Confira o valor do cabeçalho X-Request-Id "
                "(começa com req_) e o ambiente escolhido no topo da página."
            )
        else:
            return page.redirect(f"/chamadas/{request_id}")
    # The endpoint filter suggests the templates this log really holds: whichever door took the
    # calls, and nothing that could not match.
    endpoints = (await page.run(ENDPOINTS_CHAMADAS))["endpointsChamadas"]
    return await _listing(page, "portal/chamadas.html", endpoints=endpoints, erro_ir=erro_ir)


@routes.get("/chamadas/lista")
async def lista(page: Page) -> web.StreamResponse:
    """The list alone, for htmx polling."""
    return await _listing(page, "portal/_chamadas_lista.html")


@routes.get("/chamadas/{requestId}")
async def detalhe(page: Page) -> web.StreamResponse:
    chamada = (await page.run(OBTER_CHAMADA, requestId=page.request.match_info["requestId"]))["chamada"]
    apps = await _apps(page) if chamada["clientId"] else {}
    return page.render(
        "portal/chamada.html", chamada=chamada, apps=apps, curl=como_curl(chamada, page.runtime.settings.api_url)
    )


# The credential never leaves the log: the command reads it from the shell's environment.
CREDENCIAL_CURL = {"api_key": "$VITRINE_CHAVE", "oauth": "$VITRINE_TOKEN"}


def como_curl(chamada: dict[str, Any], api_url: str) -> str:
    """The call as a curl command: method, URL, the headers it sent with the credential replaced
    by a shell variable and the Idempotency-Key by a placeholder (the log keeps them masked), and
    the masked body as it was logged."""
    caminho = chamada["caminho"].removeprefix("/v1")
    partes = ["curl", "-X", chamada["metodo"], shlex.quote(f"{api_url}{caminho}")]
    credencial = CREDENCIAL_CURL.get(chamada["credencial"], "$VITRINE_CHAVE")
    partes += ["-H", f'"Authorization: Bearer {credencial}"']
    for nome, valor in (chamada["cabecalhosEnviados"] or {}).items():
        if nome == "Authorization":
            continue
        if nome == "Idempotency-Key":
            valor = "<nova-chave-de-idempotencia>"
        partes += ["-H", shlex.quote(f"{nome}: {valor}")]
    corpo = chamada["corpoEnviado"]
    if corpo is not None:
        texto = corpo if isinstance(corpo, str) else json.dumps(corpo, ensure_ascii=False, separators=(",", ":"))
        partes += ["--data-raw", shlex.quote(texto)]
    return " \\\n  ".join(_pares(partes))


def _pares(partes: list[str]) -> list[str]:
    """The command's words, each option with its value on one line."""
    linhas = [" ".join(partes[:4])]
    linhas += [f"{partes[i]} {partes[i + 1]}" for i in range(4, len(partes), 2)]
    return linhas
