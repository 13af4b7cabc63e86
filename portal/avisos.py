"""Notice addresses: register one (its whsec_ secret shown once), change its events, rotate the
secret (after the password: it reveals a new one), remove it, send the three test deliveries and
watch their results arrive, send a sample of an event, and read its delivery history (filtered by
event and result) down to each attempt's body and headers, with manual redelivery."""

import json
from urllib.parse import urlencode

from aiohttp import web

from graphql_api.aviso.schemas import NovoAviso, PedidoTeste, Rotacao
from graphql_api.core.errors import ApiError
from graphql_api.core.inputs import entrada
from graphql_api.executor import Operation

# The same documents as the /v1/avisos routes: one per operation.
from graphql_api.operations import aviso as ops
from graphql_api.operations import fragments
from portal.web import Page, PortalRoutes, form_errors

routes = PortalRoutes()

PAGE_SIZE = 20
POLL_SECONDS = 1
CARENCIAS = (24, 72, 168, 0)  # hours the previous secret still signs after a rotation
CASOS = {
    "valida": "Entrega válida",
    "assinatura_errada": "Assinatura errada",
    "timestamp_antigo": "Horário de 10 minutos atrás",
}

_RODADA = (
    "fragment RodadaFields on RodadaTesteAviso { id avisoId url situacao criadoEm concluidaEm "
    "testes { ...TesteAvisoFields } }" + fragments.TESTE_AVISO
)
LISTAR = Operation(
    "query { avisos(limite: 100) { itens { ...AvisoFields } } eventosAviso { nome descricao } }" + fragments.AVISO
)
OBTER = Operation(
    "query($id: ID!) { aviso(id: $id) { ...AvisoFields } eventosAviso { nome descricao } }" + fragments.AVISO
)
DETALHE = Operation(
    """query($id: ID!, $avisoId: String!, $cursor: String, $situacao: String, $tipo: String) {
      aviso(id: $id) { ...AvisoFields }
      eventosAviso { nome descricao }
      ultimaRodadaTesteAviso(avisoId: $avisoId) { ...RodadaFields }
      entregasAviso(avisoId: $avisoId, situacao: $situacao, tipo: $tipo, limite: """
    + str(PAGE_SIZE)
    + """, cursor: $cursor) {
        itens { ...EntregaFields } """
    + fragments.PAGINACAO
    + """
      }
    }"""
    + fragments.AVISO
    + fragments.ENTREGA
    + _RODADA
)
TESTES = Operation(
    "query($avisoId: String!) { ultimaRodadaTesteAviso(avisoId: $avisoId) { ...RodadaFields } }" + _RODADA
)

REGISTRO_FIELDS = {"url", "eventos"}
FILTROS_ENTREGAS = ("tipo", "situacao")
RESULTADOS = {
    "entregue": "Entregue",
    "falhou": "Falhou",
    "pendente": "Aguardando nova tentativa",
    "enviando": "Enviando",
}


async def _eventos_marcados(page: Page) -> list[str]:
    return [e for e in (await page.form()).getall("eventos", []) if isinstance(e, str)]


async def _listing(page: Page, *, status: int = 200, **extra) -> web.StreamResponse:
    data = await page.run(LISTAR)
    context = {"novo": None, "erros": {}, "erro": None, "valores": {"url": "", "eventos": []}} | extra
    return page.render(
        "portal/avisos.html", status=status, avisos=data["avisos"]["itens"], eventos=data["eventosAviso"], **context
    )


@routes.get("/avisos")
async def avisos(page: Page) -> web.StreamResponse:
    return await _listing(page)


@routes.post("/avisos")
async def registrar(page: Page) -> web.StreamResponse:
    valores = {"url": (await page.field("url")).strip(), "eventos": await _eventos_marcados(page)}
    try:
        registro = (await page.run(ops.REGISTRAR_AVISO, dados=entrada(NovoAviso, valores)))["registrarAviso"]
    except ApiError as error:
        if error.type not in ("VALIDATION_FAILED", "NOTICE_ADDRESS_LIMIT_REACHED"):
            raise
        erros, erro = form_errors(error, REGISTRO_FIELDS)
        return await _listing(page, status=error.status, erros=erros, erro=erro, valores=valores)
    if not registro["criado"]:
        return page.redirect(f"/avisos/{registro['aviso']['id']}", flash="aviso_atualizado")
    # Rendered, not redirected: the secret exists only in this response (Cache-Control: no-store).
    return await _listing(page, status=201, novo=registro)


async def _detail(page: Page, aviso_id: str, *, status: int = 200, **extra) -> web.StreamResponse:
    filtros = {name: page.query(name) for name in FILTROS_ENTREGAS if page.query(name)}
    try:
        variaveis = {"situacao": None, "tipo": None} | filtros
        data = await page.run(DETALHE, id=aviso_id, avisoId=aviso_id, cursor=page.query("cursor") or None, **variaveis)
    except ApiError as error:
        if error.type != "VALIDATION_FAILED" or not filtros:
            raise
        return page.redirect(f"/avisos/{aviso_id}")  # a filter value from an old link: show all
    entregas = data["entregasAviso"]
    context = {"erros": {}, "erro": None, "marcados": None} | extra
    return page.render(
        "portal/aviso.html",
        status=status,
        filtros=filtros,
        consulta=urlencode(filtros),
        resultados=RESULTADOS,
        aviso=data["aviso"],
        eventos=data["eventosAviso"],
        rodada=data["ultimaRodadaTesteAviso"],
        entregas=entregas["itens"],
        proximo=entregas["paginacao"]["proximoCursor"],
        casos=CASOS,
        poll_seconds=POLL_SECONDS,
        **context,
    )


@routes.get("/avisos/{id}")
async def detalhe(page: Page) -> web.StreamResponse:
    return await _detail(page, page.request.match_info["id"])


@routes.get("/avisos/{id}/testes")
async def testes(page: Page) -> web.StreamResponse:
    """The latest test run alone, polled by htmx until it is concluded."""
    aviso_id = page.request.match_info["id"]
    rodada = (await page.run(TESTES, avisoId=aviso_id))["ultimaRodadaTesteAviso"]
    return page.render(
        "portal/_avisos_testes.html", aviso={"id": aviso_id}, rodada=rodada, casos=CASOS, poll_seconds=POLL_SECONDS
    )


@routes.post("/avisos/{id}/testar")
async def testar(page: Page) -> web.StreamResponse:
    aviso_id = page.request.match_info["id"]
    await page.run(ops.TESTAR_AVISO, dados=entrada(PedidoTeste, {"avisoId": aviso_id}))
    return page.redirect(f"/avisos/{aviso_id}", flash="testes_enviados")


@routes.post("/avisos/{id}/eventos")
async def alterar_eventos(page: Page) -> web.StreamResponse:
    """Registering the same url again changes its events (and turns a switched-off address on)."""
    aviso_id = page.request.match_info["id"]
    aviso = (await page.run(OBTER, id=aviso_id))["aviso"]
    marcados = await _eventos_marcados(page)
    try:
        await page.run(ops.REGISTRAR_AVISO, dados=entrada(NovoAviso, {"url": aviso["url"], "eventos": marcados}))
    except ApiError as error:
        if error.type != "VALIDATION_FAILED":
            raise
        erros, erro = form_errors(error, {"eventos"})
        return await _detail(page, aviso_id, status=422, erros=erros, erro=erro, marcados=marcados)
    return page.redirect(f"/avisos/{aviso_id}", flash="aviso_atualizado")


@routes.get("/avisos/{id}/segredo")
async def segredo_confirmar(page: Page) -> web.StreamResponse:
    aviso = (await page.run(OBTER, id=page.request.match_info["id"]))["aviso"]
    return page.render("portal/aviso_segredo.html", aviso=aviso, carencias=CARENCIAS, novo=None, erros={}, erro=None)


@routes.post("/avisos/{id}/segredo")
async def rotacionar(page: Page) -> web.StreamResponse:
    aviso_id = page.request.match_info["id"]
    carencia = await page.field("carenciaHoras")
    dados: dict[str, int | str]
    try:
        dados = {"carenciaHoras": int(carencia)}
    except ValueError:
        dados = {"carenciaHoras": carencia}  # the service reports it beside the field
    try:
        novo = (await page.run(ops.ROTACIONAR_SEGREDO, id=aviso_id, dados=entrada(Rotacao, dados)))[
            "rotacionarSegredoAviso"
        ]
    except ApiError as error:
        if error.type != "VALIDATION_FAILED":
            raise  # REAUTHENTICATION_REQUIRED asks for the password and comes back here
        erros, erro = form_errors(error, {"carenciaHoras"})
        aviso = (await page.run(OBTER, id=aviso_id))["aviso"]
        return page.render(
            "portal/aviso_segredo.html", status=422, aviso=aviso, carencias=CARENCIAS, novo=None, erros=erros, erro=erro
        )
    return page.render(
        "portal/aviso_segredo.html", aviso=novo["aviso"], carencias=CARENCIAS, novo=novo, erros={}, erro=None
    )


@routes.get("/avisos/{id}/remover")
async def remover_confirmar(page: Page) -> web.StreamResponse:
    aviso = (await page.run(OBTER, id=page.request.match_info["id"]))["aviso"]
    return page.render("portal/aviso_remover.html", aviso=aviso)


@routes.post("/avisos/{id}/remover")
async def remover(page: Page) -> web.StreamResponse:
    await page.run(ops.REMOVER_AVISO, id=page.request.match_info["id"])
    return page.redirect("/avisos", flash="aviso_removido")


@routes.post("/avisos/{id}/entregas/{entregaId}/reenviar")
async def reenviar(page: Page) -> web.StreamResponse:
    aviso_id = page.request.match_info["id"]
    await page.run(ops.REENVIAR_ENTREGA, avisoId=aviso_id, entregaId=page.request.match_info["entregaId"])
    return page.redirect(f"/avisos/{aviso_id}", flash="reenvio")


@routes.post("/avisos/{id}/amostra")
async def enviar_amostra(page: Page) -> web.StreamResponse:
    """A sample of the chosen event, shaped and signed like the real one; its delivery opens."""
    aviso_id = page.request.match_info["id"]
    tipo = await page.field("tipo")
    try:
        entrega = (await page.run(ops.ENVIAR_EVENTO_TESTE, avisoId=aviso_id, tipo=tipo))["enviarEventoTeste"]
    except ApiError as error:
        if error.type != "VALIDATION_FAILED":
            raise
        erros, erro = form_errors(error, {"tipo"})
        return await _detail(page, aviso_id, status=422, erros=erros, erro=erro)
    return page.redirect(f"/avisos/{aviso_id}/entregas/{entrega['id']}", flash="amostra_enviada")


@routes.get("/avisos/{id}/entregas/{entregaId}")
async def entrega(page: Page) -> web.StreamResponse:
    """One delivery: the exact body, and per attempt the headers sent and what came back."""
    aviso_id = page.request.match_info["id"]
    aviso = (await page.run(OBTER, id=aviso_id))["aviso"]
    entrega = (await page.run(ops.OBTER_ENTREGA, avisoId=aviso_id, id=page.request.match_info["entregaId"]))[
        "entregaAviso"
    ]
    return page.render("portal/aviso_entrega.html", aviso=aviso, entrega=entrega, corpo=_legivel(entrega["corpo"]))


def _legivel(corpo: str) -> str:
    """The body indented for reading (the bytes sent are compact JSON: shown as sent below)."""
    try:
        return json.dumps(json.loads(corpo), ensure_ascii=False, indent=2)
    except ValueError:
        return corpo
