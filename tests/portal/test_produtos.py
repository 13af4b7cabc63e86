"""A product's page and media orders from the portal, through real HTTP: the ficha, the screening
with thumbnails served by signed links, the verdict per media type with pendencias explained, a
gallery ordered from the page (once, however often the form is sent) and followed to its images."""

import html
import re

import pytest

from graphql_api.conferencia.catalog import CATALOG
from tests.factories import Integrator, eventually, fetch_media
from tests.fichas import RICA, cenas, fotos
from tests.portal.conftest import create_key, integrador_id

_MINIATURA = re.compile(r'<img src="([^"]+\.min\.jpg[^"]*)"')
_PEDIDO = re.compile(r'name="pedido" value="([^"]+)"')


@pytest.fixture
async def seller(portal, owner, factory, photo_site):
    """The owner's test key, one account and a product with two good photos and a blurred one,
    checked; returns (integrator, product)."""
    integrator = Integrator(await integrador_id(owner), await create_key(portal))
    conta = await factory.conta(integrator, nome="Loja da Joana")
    imagens = fotos(photo_site, 1, 2) + [{"url": photo_site("/foto/3.jpg?blur=12"), "ordem": 3}]
    produto = await factory.produto(integrator, conta, codigo="CAF-12", **RICA, imagens=imagens)
    return integrator, await factory.conferido(integrator, produto)


async def test_product_page_shows_ficha_screening_thumbnails_and_the_verdict(client, portal, seller):
    integrator, produto = seller
    conta_page = await portal.page(f"/contas/{produto['contaId']}")
    path = f"/contas/{produto['contaId']}/produtos/CAF-12"
    assert f'href="{path}"' in conta_page and "2 de 3 aprovadas" in conta_page

    page = await portal.page(path)
    assert "Cafeteira Elétrica Inox 1,2 L" in page and "Voltagem" in page and "220 V" in page
    assert "2 de 3 aprovadas" in page
    # thumbnails of every decoded photo, through signed links of the service itself
    thumbnails = _MINIATURA.findall(page)
    assert len(thumbnails) == 3
    status, content_type, body = await fetch_media(client, thumbnails[0])
    assert status == 200 and content_type == "image/jpeg"
    assert len(body) < 40_000
    # the blurred photo is refused, with the catalog's title and fix beside it
    blurred = page[page.index('id="foto-3"') :]
    blurred = blurred[: blurred.index("</li>")]
    assert "reprovada" in blurred and CATALOG["FOTO_DESFOCADA"].correcao in blurred
    # the verdict per media type; a pendencia is explained with the catalog's cause and fix
    for tipo in ("galeria", "video_apresentacao", "video_cinepremium"):
        assert f'id="veredito-{tipo}"' in page
    cinepremium = page[page.index('id="veredito-video_cinepremium"') :]
    assert "reprovado" in cinepremium[:400]
    assert CATALOG["CINEPREMIUM_FOTOS_INSUFICIENTES"].causa in cinepremium
    assert "/docs/pendencias#CINEPREMIUM_FOTOS_INSUFICIENTES" in cinepremium
    assert "Nenhuma geração ainda" in page


async def test_the_page_reloads_itself_until_both_the_product_and_its_check_are_done(portal, seller):
    from graphql_api.produto.models import Produto

    integrator, produto = seller
    path = f"/contas/{produto['contaId']}/produtos/CAF-12"
    assert 'id="atualizacao-automatica"' not in await portal.page(path)  # all done: a still page
    # The product read before its check ended, the verdict after (the page reads them one after
    # the other): the verdict shows, and the page keeps reloading until the product catches up.
    await Produto.filter(id=produto["id"]).update(situacao="conferindo")
    page = await portal.page(path)
    assert 'id="veredito-galeria"' in page
    poller = page[page.index('id="atualizacao-automatica"') :]
    assert f'hx-get="{path}"' in poller[:300] and 'hx-trigger="every 2s"' in poller[:300]


async def test_a_gallery_ordered_from_the_page_runs_once_and_shows_its_images(client, portal, seller):
    integrator, produto = seller
    path = f"/contas/{produto['contaId']}/produtos/CAF-12"
    page = await portal.page(path)
    pedido = _PEDIDO.search(page).group(1)
    quantidade = re.search(r'<option value="(\d+)" selected>', page).group(1)

    first = await portal.submit(f"{path}/galeria", {"pedido": pedido, "quantidadeImagens": quantidade}, token_from=path)
    assert first.status == 303
    location = first.headers["Location"]
    assert re.fullmatch(r"/geracoes/ger_\w+\?aviso=pedido_recebido", location)
    # the same form sent again (a double click, a reload) finds the same order
    again = await portal.submit(f"{path}/galeria", {"pedido": pedido, "quantidadeImagens": quantidade}, token_from=path)
    assert again.headers["Location"] == location
    geracao_id = location.split("/")[2].split("?")[0]

    page = await portal.page(location)
    assert 'id="barra-progresso"' in page

    async def finished():
        fragment = await portal.page(f"/geracoes/{geracao_id}/andamento")
        assert "hx-trigger" not in fragment, "still polling"
        return fragment

    fragment = await eventually(finished, timeout=60, interval=0.3)
    assert 'value="100"' in fragment and "concluída" in fragment
    images = re.findall(r'<img src="([^"]+)" alt="Imagem (\d+)', fragment)
    assert [int(n) for _, n in images] == list(range(1, int(quantidade) + 1))
    status, content_type, _ = await fetch_media(client, images[0][0])
    assert status == 200 and content_type in ("image/png", "image/jpeg")

    listing = await portal.page("/geracoes")
    assert listing.count(geracao_id) >= 1 and "Galeria" in listing
    assert geracao_id in await portal.page(path)
    # charged once: one gallery in the integrator's test wallet
    saldo = await client.get("/v1/saldo", headers=integrator.headers)
    assert (await saldo.json())["data"]["creditosReservados"] == 0


async def test_an_order_the_check_does_not_allow_is_refused_beside_its_form(portal, seller):
    _, produto = seller
    path = f"/contas/{produto['contaId']}/produtos/CAF-12"
    page = await portal.page(path)
    pedido = _PEDIDO.search(page).group(1)
    response = await portal.submit(f"{path}/galeria", {"pedido": pedido, "quantidadeImagens": "11"}, token_from=path)
    assert response.status == 422
    gallery_form = _form(await response.text(), f"{path}/galeria")
    assert 'role="alert"' in gallery_form and "quantidadeImagens" in gallery_form
    # CinePremium was refused by the check (too few photos): the video form says so
    response = await portal.submit(f"{path}/video", {"pedido": pedido, "tipo": "cinepremium"}, token_from=path)
    assert response.status in (409, 422)
    video_form = _form(await response.text(), f"{path}/video")
    assert 'role="alert"' in video_form and "cinepremium" in video_form.lower()


def _form(page: str, action: str) -> str:
    start = page.index(f'action="{action}"')
    return page[start : page.index("</form>", start)]


async def test_products_and_generations_of_another_integrator_are_not_found(portal, new_portal, seller):
    _, produto = seller
    other = await new_portal()
    await other.signup()
    response = await other.get(f"/contas/{produto['contaId']}/produtos/CAF-12")
    assert response.status == 404


async def test_the_page_explains_text_over_a_photo_and_a_small_product_before_anything_is_ordered(
    portal, owner, factory, photo_site
):
    # given a product whose principal carries a FRETE GRÁTIS banner, and a photo of a small bottle
    integrator = Integrator(await integrador_id(owner), await create_key(portal))
    conta = await factory.conta(integrator, nome="Loja da Ana")
    imagens = cenas(photo_site, "texto_sobreposto", "pequeno_descentrado")
    produto = await factory.produto(integrator, conta, codigo="GAR-1", **RICA, imagens=imagens)
    await factory.conferido(integrator, produto)
    page = html.unescape(await portal.page(f"/contas/{conta['id']}/produtos/GAR-1"))
    # then each photo shows its motivo with the catalog's title, what was measured and the fix
    banner = page[page.index('id="foto-1"') :]
    banner = banner[: banner.index("</li>")]
    texto = CATALOG["FOTO_TEXTO_SOBREPOSTO"]
    assert texto.titulo in banner and "FRETE" in banner and texto.correcao in banner
    assert "/docs/pendencias#FOTO_TEXTO_SOBREPOSTO" in banner and "aprovada" in banner
    small = page[page.index('id="foto-2"') :]
    small = small[: small.index("</li>")]
    assert CATALOG["FOTO_PRODUTO_PEQUENO"].titulo in small and "1,5×" in small
    # and the gallery's verdict explains the pendencia on the principal with its cause and fix
    galeria = page[page.index('id="veredito-galeria"') :]
    galeria = galeria[: galeria.index("</article>")]
    pendencia = CATALOG["GALERIA_PRINCIPAL_TEXTO_SOBREPOSTO"]
    assert pendencia.titulo in galeria and pendencia.causa in galeria and "(imagens.principal)" in galeria


async def test_a_product_that_allows_no_video_disables_the_order_and_fixes_name_its_id(
    portal, owner, factory, photo_site
):
    integrator = Integrator(await integrador_id(owner), await create_key(portal))
    conta = await factory.conta(integrator, nome="Loja do Pedro")
    # one good photo (no video type accepts fewer than 2) and one the server answers 404
    imagens = fotos(photo_site, 1) + [{"url": photo_site("/status/404"), "ordem": 2}]
    produto = await factory.conferido(
        integrator, await factory.produto(integrator, conta, codigo="UM-1", **RICA, imagens=imagens)
    )
    page = await portal.page(f"/contas/{produto['contaId']}/produtos/UM-1")
    video_form = _form(page, f"/contas/{produto['contaId']}/produtos/UM-1/video")
    botao = re.search(r"<button[^>]*>Gerar vídeo</button>", video_form).group(0)
    assert "disabled" in botao and 'aria-describedby="motivo-video"' in botao
    assert "reprovou os dois tipos de vídeo" in video_form
    # the presenter is chosen by what it is, not by the API's value
    assert '<option value="automatico">Automático' in video_form and ">automatico<" not in video_form
    # the unreachable photo's fix names this product and points at this page's own button
    assert f"POST /produtos/{produto['id']}/conferencia?refazer=true" in page
    assert "{produtoId}" not in page and 'href="#conferir-de-novo"' in page and 'id="conferir-de-novo"' in page
