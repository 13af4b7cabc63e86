"""Media in a real browser: a product whose photos the service fetched from the test's HTTPS host
is screened with thumbnails, a gallery and a presentation video are ordered from the product's
page, their progress is watched until the end, the gallery's images load and the video plays."""

import re

import pytest
from playwright.sync_api import Page, expect

from e2e.passos import Navegador, api, create_test_key, sign_up
from tests.factories import media_origin
from tests.fichas import RICA, fotos

pytestmark = pytest.mark.slow

RENDER_TIMEOUT = 120_000  # ms: a test-size video is a few seconds; a loaded CI machine is slower


def _all_images_loaded(page: Page, selector: str) -> int:
    """How many images match, after asserting that every one of them decoded (once the browser
    is done with each: an image htmx just swapped in may still be loading)."""
    page.wait_for_function(
        "selector => { const images = [...document.querySelectorAll(selector)];"
        " return images.length > 0 && images.every(i => i.complete); }",
        arg=selector,
        timeout=15_000,
    )
    sizes = page.eval_on_selector_all(selector, "images => images.map(i => i.complete ? i.naturalWidth : 0)")
    assert sizes and all(width > 0 for width in sizes), sizes
    return len(sizes)


def test_order_a_gallery_and_a_video_from_the_product_page(page: Page, service: str, artifacts, photo_site):
    navegador = Navegador(page, service)

    def shot(name: str) -> None:
        page.screenshot(path=str(artifacts / f"{name}.png"), full_page=True)

    sign_up(page, service, empresa="Integradora Mídia", nome="Marcos Mídia")
    key = create_test_key(page)

    # the integrator's server sends an account and a product with three photos
    conta = api(service, "POST", "/contas", key, {"codigoExterno": "loja-midia", "nome": "Loja da Cafeteira"})
    assert conta.status == 201
    conta_id = conta.data["data"]["id"]
    produto = api(
        service, "PUT", f"/contas/{conta_id}/produtos/CAF-12", key, {**RICA, "imagens": fotos(photo_site, 1, 2, 3)}
    )
    assert produto.status == 200

    # the product's page shows the check running, then its verdict by itself
    nav = page.get_by_role("navigation", name="Seções do portal")
    nav.get_by_role("link", name="Contas e produtos").click()
    page.get_by_role("link", name="Loja da Cafeteira").click()
    page.get_by_role("link", name="CAF-12").click()
    expect(page.get_by_role("heading", name=re.compile("Cafeteira Elétrica Inox"))).to_be_visible()
    verdict = page.locator("#veredito-galeria")
    expect(verdict).to_contain_text("aprovado", timeout=30_000)
    expect(page.locator("#veredito-video_cinepremium")).to_contain_text("reprovado")  # 3 photos, 5 needed
    expect(page.locator("#veredito-video_cinepremium")).to_contain_text("CinePremium")
    expect(page.get_by_text("3 de 3 aprovadas")).to_be_visible()
    assert _all_images_loaded(page, "ul.photos img") == 3
    product_url = page.url
    shot("produto")

    # a gallery ordered from the page: the progress bar moves to the end, then the images load
    page.get_by_role("button", name="Gerar galeria").click()
    expect(page).to_have_url(re.compile(r"/geracoes/ger_\w+\?aviso=pedido_recebido"))
    expect(page.get_by_role("progressbar", name="Progresso da geração")).to_be_visible()
    expect(page.locator("#situacao")).to_have_text("concluída", timeout=RENDER_TIMEOUT)
    expect(page.get_by_role("progressbar", name="Progresso da geração")).to_have_attribute("value", "100")
    quantidade = _all_images_loaded(page, "ul.gallery img")
    assert quantidade >= 2
    expect(page.get_by_text(re.compile(r"Créditos cobrados: \d+"))).to_contain_text(str(quantidade * 2))
    shot("geracao-galeria")

    # a presentation video, ordered from the same page, played in the page
    page.goto(product_url)
    expect(page.get_by_role("heading", name=re.compile("Cafeteira Elétrica Inox"))).to_be_visible()
    page.get_by_role("radio", name=re.compile("Vídeo de apresentação")).check()
    page.get_by_role("button", name="Gerar vídeo").click()
    expect(page).to_have_url(re.compile(r"/geracoes/ger_\w+\?aviso=pedido_recebido"))
    expect(page.locator("#situacao")).to_have_text("concluída", timeout=RENDER_TIMEOUT)
    video = page.locator("video").first
    expect(video).to_be_visible()
    played = page.evaluate("""async () => {
        const video = document.querySelector("video");
        video.muted = true;
        await video.play();
        await new Promise(resolve => setTimeout(resolve, 1200));
        video.pause();
        return {time: video.currentTime, width: video.videoWidth, duration: video.duration};
    }""")
    assert played["time"] > 0.3 and played["width"] > 0 and played["duration"] > 3, played
    shot("geracao-video")

    # both generations in the list
    nav.get_by_role("link", name="Gerações").click()
    expect(page.locator("table.data tbody tr")).to_have_count(2)
    expect(page.get_by_text("Vídeo de apresentação")).to_be_visible()
    shot("geracoes")

    # nothing from anywhere but the service and its media store (S3 on the scaled leg)
    estranhos = [url for url in navegador.foreign() if not (media_origin() and url.startswith(media_origin()))]
    assert navegador.requested and not estranhos, estranhos
    assert any(("/midia/" in url) or (media_origin() and url.startswith(media_origin())) for url in navegador.requested)
    assert navegador.console_errors == [], navegador.console_errors
