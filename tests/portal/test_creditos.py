"""The portal's Créditos page: the balance by pool, the cycle's usage drawn on the server as SVG
(title, description and a table with the same figures; no script), the ledger with filters, the
plan link, package purchase and the purchases with their state."""

import re

from graphql_api.core.transactions import transaction
from graphql_api.creditos import planos
from graphql_api.creditos import service as creditos
from graphql_api.integrador.models import Integrador


async def gastar(integrador_id: str, geracao_id: str, valor: int) -> None:
    async with transaction():
        await creditos.reservar(integrador_id, "teste", geracao_id, valor, "Galeria")
        await creditos.liquidar(integrador_id, "teste", geracao_id, reservados=valor, cobrados=valor)


async def test_the_page_shows_balance_usage_ledger_and_purchases(portal, owner):
    integrador = await Integrador.all().order_by("-criado_em").first()
    await planos.mudar_plano(integrador.id, "teste", "essencial", bus=None)
    await gastar(integrador.id, "ger_portal1", 120)
    page = await portal.page("/creditos")
    # the balance by pool and the quota
    assert "<dt>Do plano</dt><dd>380" in page and "<dt>De pacotes</dt><dd>1.000" in page
    assert "24% <span>da cota do mês usados" in page and 'href="/plano"' in page
    # the chart: server-side SVG with a title and description, bars, the cumulative line, the quota
    svg = page[page.index("<svg") : page.index("</svg>")]
    assert 'role="img"' in svg and '<title id="grafico-titulo">' in svg and '<desc id="grafico-desc">' in svg
    assert "<rect" in svg and "<polyline" in svg and "stroke-dasharray" in svg and "cota 500" in svg
    assert "120 créditos até hoje" in svg
    assert "<script" not in svg and "http" not in svg.replace(
        "http://www.w3.org/2000/svg", ""
    )  # nothing from elsewhere
    # the table fallback holds the same figures
    assert re.search(r"<td>\d\d/\d\d/\d{4}</td><td>120</td><td>120</td>", page)
    # the ledger with its pools and the balance after each entry
    assert "Créditos do plano" in page and "Cobrança" in page and "ger_portal1" in page
    # filtered by kind: only charges
    filtered = await portal.page("/creditos?tipo=captura")
    ledger = filtered[filtered.index("t-movimentos") :]
    assert "Cobrança" in ledger and "Créditos do plano</strong>" not in ledger
    assert '<option value="captura" selected>' in filtered
    # a bad filter is said on the page
    response = await portal.client.get("/creditos?de=ontem")
    texto = await response.text()
    assert response.status == 422 and '<div class="notice bad" role="alert">' in texto and "AAAA-MM-DD" in texto
    # buying a package leads to the checkout; the purchase is listed pending
    response = await portal.submit("/extrato/comprar", {"pacote": "pacote_500"}, token_from="/creditos")
    assert response.status == 303 and "/checkout/rec_" in response.headers["Location"]
    page = await portal.page("/creditos")
    compras = page[page.index("t-compras") : page.index("t-movimentos")]
    assert "rec_" in compras and "500" in compras and "R$ 49,00" in compras
