"""Credits: the wallet's statement (the ledger, newest first, paginated), in teste the free
refill of play credits, buying a single package (roles with creditos:comprar: owners and finance),
which leads to the purchase's payment link (the checkout page, portal/checkout.py), and the
environment's plan with its quota and the plan change (in production the password is asked again)."""

from datetime import datetime
from urllib.parse import urlencode

from aiohttp import web

from graphql_api.core.errors import ApiError
from graphql_api.core.relogio import agora
from graphql_api.core.scalars import parse_timestamp
from graphql_api.executor import Operation
from graphql_api.operations import fragments
from graphql_api.operations import plano as ops_plano
from graphql_api.operations import recarga as ops_recarga
from portal import grafico
from portal.checkout import SITUACOES
from portal.web import Page, PortalRoutes, form_errors

routes = PortalRoutes()

PAGE_SIZE = 50
EXTRATO = Operation(
    """query($cursor: String) {
      saldo { ...SaldoFields }
      extrato(limite: """
    + str(PAGE_SIZE)
    + """, cursor: $cursor) {
        itens { id tipo creditosDisponiveis creditosReservados geracaoId descricao criadoEm } """
    + fragments.PAGINACAO
    + """
      }
      pacotes { ...PacoteFields }
      recargas(limite: 5) { itens { ...RecargaFields } }
    }"""
    + fragments.SALDO
    + fragments.PACOTE
    + fragments.RECARGA
)
RECARREGAR = Operation("mutation { recarregarTeste { creditosDisponiveis } }")
TIPOS = {
    "reserva": "Reserva",
    "captura": "Cobrança",
    "liberacao": "Devolução",
    "recarga": "Recarga",
    "concessao_plano": "Créditos do plano",
    "expiracao_plano": "Expiração do plano",
    "compra_pacote": "Compra de pacote",
    "ajuste": "Ajuste da equipe",
}
PLANO = Operation(
    """query {
      plano { ...PlanoAtualFields }
      planos { ...PlanoFields }
      cotaDoMes { ...CotaDoMesFields }
      saldo { ...SaldoFields }
    }"""
    + fragments.PLANO_ATUAL
    + fragments.COTA_DO_MES
    + fragments.SALDO
)


async def _render(page: Page, *, erro: str | None = None, status: int = 200) -> web.Response:
    data = await page.run(EXTRATO, cursor=page.query("cursor") or None)
    return page.render(
        "portal/extrato.html",
        status=status,
        saldo=data["saldo"],
        lancamentos=data["extrato"]["itens"],
        proximo=data["extrato"]["paginacao"]["proximoCursor"],
        tipos=TIPOS,
        pacotes=data["pacotes"],
        recargas=data["recargas"]["itens"],
        situacoes=SITUACOES,
        erro_compra=erro,
    )


@routes.get("/extrato")
async def extrato(page: Page) -> web.StreamResponse:
    return await _render(page)


@routes.post("/extrato/recarregar")
async def recarregar(page: Page) -> web.StreamResponse:
    await page.run(RECARREGAR)
    return page.redirect("/extrato", flash="recarregado")


@routes.post("/extrato/comprar")
async def comprar(page: Page) -> web.StreamResponse:
    """A purchase of the chosen package, then on to its payment link."""
    try:
        recarga = await page.run(ops_recarga.CRIAR_RECARGA, dados={"pacote": await page.field("pacote")})
    except ApiError as error:
        if error.type != "VALIDATION_FAILED":
            raise
        return await _render(page, erro=" ".join(f.mensagem for f in error.fields), status=error.status)
    return page.redirect(recarga["criarRecarga"]["linkPagamento"])


async def _plano(page: Page, *, status: int = 200, erro: str | None = None) -> web.StreamResponse:
    data = await page.run(PLANO)
    return page.render(
        "portal/plano.html",
        status=status,
        atual=data["plano"],
        planos=data["planos"],
        cota=data["cotaDoMes"],
        saldo=data["saldo"],
        erro=erro,
    )


@routes.get("/plano")
async def plano(page: Page) -> web.StreamResponse:
    return await _plano(page)


@routes.post("/plano")
async def mudar_plano(page: Page) -> web.StreamResponse:
    codigo = await page.field("plano")
    try:
        atual = (await page.run(ops_plano.MUDAR_PLANO, entrada={"plano": codigo}))["mudarPlano"]
    except ApiError as error:
        if error.type != "VALIDATION_FAILED":
            raise
        _, erro = form_errors(error, set())
        return await _plano(page, status=error.status, erro=erro)
    agendada = atual["mudancaAgendada"]
    if agendada and agendada["motivo"] == "reducao" and agendada["plano"]["codigo"] == codigo:
        return page.redirect("/plano", flash="plano_agendado")
    return page.redirect("/plano", flash="plano_alterado")


@routes.post("/plano/cancelar")
async def cancelar_mudanca(page: Page) -> web.StreamResponse:
    await page.run(ops_plano.CANCELAR_MUDANCA_PLANO)
    return page.redirect("/plano", flash="mudanca_cancelada")


# -- the Créditos page: balance by pool, the cycle's usage chart, the ledger with filters, plan and
# package purchase, purchases and their state ----------------------------------------------------

CREDITOS = Operation(
    """query($filtros: FiltroExtratoInput, $cursor: String) {
      saldo { ...SaldoFields }
      cotaDoMes { ...CotaDoMesFields }
      plano { ...PlanoAtualFields }
      extrato(filtros: $filtros, limite: """
    + str(PAGE_SIZE)
    + """, cursor: $cursor) { itens { ...LancamentoFields } """
    + fragments.PAGINACAO
    + """ }
      pacotes { ...PacoteFields }
      recargas(limite: 10) { itens { ...RecargaFields } }
    }"""
    + fragments.SALDO
    + fragments.COTA_DO_MES
    + fragments.PLANO_ATUAL
    + fragments.LANCAMENTO
    + fragments.PACOTE
    + fragments.RECARGA
)
CAPTURAS = Operation(
    """query($filtros: FiltroExtratoInput, $cursor: String) {
      extrato(filtros: $filtros, limite: 100, cursor: $cursor) { itens { creditosReservados criadoEm } """
    + fragments.PAGINACAO
    + """ }
    }"""
)
CAPTURAS_MAX_PAGINAS = 20  # 2,000 charges a cycle drawn; the table and the ledger hold the rest
FILTROS = ("tipo", "de", "ate")


async def _capturas(page: Page, desde: str) -> list[tuple[datetime, int]]:
    capturas: list[tuple[datetime, int]] = []
    cursor = None
    for _ in range(CAPTURAS_MAX_PAGINAS):
        data = (await page.run(CAPTURAS, filtros={"tipo": "captura", "de": desde}, cursor=cursor))["extrato"]
        capturas += [(parse_timestamp(i["criadoEm"]), -i["creditosReservados"]) for i in data["itens"]]
        cursor = data["paginacao"]["proximoCursor"]
        if not cursor:
            break
    return capturas


@routes.get("/creditos")
async def creditos(page: Page) -> web.StreamResponse:
    filtros = {nome: page.query(nome) for nome in FILTROS if page.query(nome)}
    erro: str | None = None
    try:
        data = await page.run(CREDITOS, filtros=filtros or None, cursor=page.query("cursor") or None)
    except ApiError as error:
        if error.type != "VALIDATION_FAILED":
            raise
        erro = " ".join(f.mensagem for f in error.fields) or error.description
        data = await page.run(CREDITOS, filtros=None, cursor=None)
    cota = data["cotaDoMes"]
    inicio, fim = parse_timestamp(cota["cicloInicioEm"]), parse_timestamp(cota["cicloFimEm"])
    dias = grafico.por_dia(inicio, fim, agora(), await _capturas(page, cota["cicloInicioEm"]))
    total_dias = max(1, (fim.date() - inicio.date()).days)
    return page.render(
        "portal/creditos.html",
        status=422 if erro else 200,
        saldo=data["saldo"],
        cota=cota,
        atual=data["plano"],
        grafico=grafico.desenhar(dias, cota["cotaMensal"], total_dias),
        lancamentos=data["extrato"]["itens"],
        proximo=data["extrato"]["paginacao"]["proximoCursor"],
        filtros=filtros,
        erro_filtros=erro,
        pager_extra=urlencode(filtros),
        tipos=TIPOS,
        pacotes=data["pacotes"],
        recargas=data["recargas"]["itens"],
        situacoes=SITUACOES,
    )
