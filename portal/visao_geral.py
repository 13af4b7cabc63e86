"""The overview: environment, balance, the 8 integration steps in short, open alerts, recent
errors and, for technical roles, the latest calls and the active keys. Only real data: nothing
here announces what is still to come."""

from aiohttp import web

from graphql_api.executor import Operation
from portal.web import Page, PortalRoutes

routes = PortalRoutes()

VISAO_GERAL = Operation(
    """query($tecnico: Boolean!) {
      saldo { modeloCobranca creditosDisponiveis creditosReservados atualizadoEm }
      integracaoStatus {
        etapasConcluidas etapasObrigatorias producao { situacao }
        etapas { codigo titulo situacao }
        alertasAbertos { id tipo mensagem abertoEm evidencia }
      }
      errosRecentes { tipo status total ultimaOcorrencia ultimoRequestId mensagem comoCorrigir documentacao }
      chamadas(limite: 5) @include(if: $tecnico) {
        itens { requestId criadoEm metodo caminho status codigoErro duracaoMs chave credencial clientId }
      }
      appsChamadas @include(if: $tecnico) { clientId nome ativo }
      chaves @include(if: $tecnico) { identificador ativa }
    }"""
)


@routes.get("/visao-geral")
async def visao_geral(page: Page) -> web.StreamResponse:
    tecnico = page.can("chamadas:ler") and page.can("chaves:gerenciar")
    data = await page.run(VISAO_GERAL, tecnico=tecnico)
    chaves = data.get("chaves") or []
    return page.render(
        "portal/visao_geral.html",
        saldo=data["saldo"],
        integracao=data["integracaoStatus"],
        erros=data["errosRecentes"],
        chamadas=(data.get("chamadas") or {}).get("itens", []),
        apps={a["clientId"]: a["nome"] for a in data.get("appsChamadas") or []},
        chaves_ativas=sum(1 for c in chaves if c["ativa"]),
        tecnico=tecnico,
    )
