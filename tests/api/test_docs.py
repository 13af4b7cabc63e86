"""Public documentation: the OpenAPI document, the error catalog page and JSON, the guides."""

import re

import pytest
from openapi_spec_validator import validate as validate_openapi

from graphql_api.conferencia import catalog as conferencia_catalog
from graphql_api.core.errors import CATALOG
from graphql_api.evento import amostras, payloads
from graphql_api.evento.catalog import EVENT_TYPES, TEST_EVENT
from rest_v1.app import ROUTE_MODULES
from tests.unit.test_textos import PLACEHOLDER
from vitrine.docs_site import GUIDES
from vitrine.infra.storage import EXPIRY_STEP, MediaStorage


async def test_openapi_document_lists_every_route_with_its_errors(client):
    response = await client.get("/v1/openapi.json")  # public: no credential
    assert response.status == 200
    spec = await response.json()
    validate_openapi(spec)  # a valid OpenAPI 3.1 document, per the specification's schema
    assert spec["openapi"].startswith("3.1")
    declared = {(s.path, s.method.lower()) for module in ROUTE_MODULES for s in module.specs}
    documented = {(path, method) for path, ops in spec["paths"].items() for method in ops}
    assert declared == documented
    post_contas = spec["paths"]["/contas"]["post"]
    assert {"201", "401", "409", "422", "429"} <= set(post_contas["responses"])
    assert post_contas["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith("/NovaConta")
    assert "Conta" in spec["components"]["schemas"] and "Ficha" in spec["components"]["schemas"]
    geracao = spec["components"]["schemas"]["Geracao"]
    assert {"id", "tipo", "situacao", "creditosReservados", "ambiente", "progresso", "resultados"} <= set(
        geracao["properties"]
    )


async def test_openapi_document_describes_every_notice(client):
    spec = await (await client.get("/v1/openapi.json")).json()
    validate_openapi(spec)
    # one notice per selectable event, and the test deliveries' aviso.teste
    assert list(spec["webhooks"]) == [*EVENT_TYPES, TEST_EVENT]
    for tipo, webhook in spec["webhooks"].items():
        notice = webhook["post"]
        # the Standard Webhooks headers and the service-named one, all required
        headers = {p["name"]: p for p in notice["parameters"] if p["in"] == "header"}
        assert set(headers) == {"webhook-id", "webhook-timestamp", "webhook-signature", "X-Vitrine-Signature"}
        assert all(h["required"] for h in headers.values())
        # the answers a receiver gives: 2XX to a valid one, 400/401/403 to a bad signature or old timestamp
        assert {"2XX", "400", "401", "403"} <= set(notice["responses"])
        # the body: the envelope of this type, from the payload model, with the sample as example
        body = notice["requestBody"]["content"]["application/json"]
        name = body["schema"]["$ref"].rsplit("/", 1)[1]
        assert name == payloads.envelope(tipo).__name__
        envelope = spec["components"]["schemas"][name]
        assert envelope["required"] == ["id", "tipo", "criadoEm", "contaId", "data"]
        assert envelope["properties"]["tipo"]["const"] == tipo
        data = spec["components"]["schemas"][envelope["properties"]["data"]["$ref"].rsplit("/", 1)[1]]
        assert set(data["properties"]) == set(payloads.DADOS[tipo].model_fields)
        assert all(f.get("description") or "$ref" in f for f in data["properties"].values()), tipo
        assert body["example"] == amostras.exemplo(tipo)
    motivo = spec["components"]["schemas"]["MotivoDesvinculacao"]
    assert motivo["enum"] == ["vendedor_revogou", "integrador_revogou", "app_desativado", "credencial_reutilizada"]


async def test_error_page_has_an_anchor_per_type_and_every_link_resolves(client, integrator):
    html = await (await client.get("/docs/erros")).text()
    anchors = set(re.findall(r'<tr id="([A-Z_]+)"', html))
    assert anchors == set(CATALOG)
    body = await (await client.get("/v1/nao-existe", headers=integrator.headers)).json()
    assert body["error"]["documentation"].split("#")[1] in anchors


async def test_error_catalog_as_json(client):
    body = await (await client.get("/docs/erros.json")).json()
    types = {e["type"]: e for e in body["data"]}
    assert set(types) == set(CATALOG)
    assert all(e["causa"] and e["correcao"] and e["status"] >= 400 for e in types.values())
    assert "obrigatorio" in body["codigosDeCampo"]


async def test_guides_render_and_unknown_pages_are_404(client):
    for path in (
        "/docs",
        "/docs/ficha",
        "/docs/conferencia",
        "/docs/limites",
        "/docs/autenticacao",
        "/docs/chamadas",
        "/docs/avisos",
        "/docs/geracoes",
        "/docs/midia",
    ):
        response = await client.get(path)
        assert response.status == 200, path
        assert "<h1>" in await response.text()
    assert (await client.get("/docs/../README")).status == 404
    assert (await client.get("/docs/nao-existe")).status == 404


async def test_media_links_refuse_tampering_and_expiry(client, factory):
    storage = factory.runtime.storage
    if not isinstance(storage, MediaStorage):
        pytest.skip(
            "the file store's own links (/midia): S3's presigned links are tested in tests/unit/test_storage_s3.py"
        )
    storage.save("testes/ok.txt", b"conteudo")
    url, _ = storage.signed_url("testes/ok.txt")
    path = url.split("vitrine.test", 1)[1]
    response = await client.get(path)
    assert response.status == 200 and await response.read() == b"conteudo"
    ranged = await client.get(path, headers={"Range": "bytes=0-3"})
    assert ranged.status == 206 and await ranged.read() == b"cont"
    assert (await client.get(path.replace("sig=", "sig=0"))).status == 403
    for forged in ("sig=%C3%A7", "sig=%FF", "exp=%D9%A3"):  # not ASCII, or a digit of another script
        key = forged.split("=")[0]
        tampered = re.sub(f"{key}=[^&]*", forged, path)
        assert (await client.get(tampered)).status == 403, tampered
    expired, _ = storage.signed_url("testes/ok.txt", ttl=-EXPIRY_STEP - 1)  # expiries round up to the minute
    response = await client.get(expired.split("vitrine.test", 1)[1])
    assert response.status == 403 and (await response.json())["error"]["type"] == "FORBIDDEN"


async def test_notice_guide_documents_every_event_and_the_retry_schedule(client, settings):
    from graphql_api.aviso.entregas import agenda_nominal
    from graphql_api.evento.catalog import EVENT_TYPES, TEST_EVENT

    html = await (await client.get("/docs/avisos")).text()
    for tipo in [*EVENT_TYPES, TEST_EVENT]:
        assert f"<code>{tipo}</code>" in html, tipo
    # the table shows the default schedule: 12 attempts, the waits of agenda_nominal
    defaults = agenda_nominal(settings.model_copy(update={"aviso_backoff_base_segundos": 10.0}))
    assert len(defaults) == 11 and "<td>12</td>" in html and "<td>13</td>" not in html


async def test_pendencias_page_has_an_anchor_per_code_and_is_linked_from_the_errors(client):
    html = await (await client.get("/docs/pendencias")).text()
    assert set(re.findall(r'<tr id="([A-Z_]+)"', html)) == set(conferencia_catalog.CATALOG)
    assert 'href="/docs/pendencias"' in await (await client.get("/docs/erros")).text()
    body = await (await client.get("/docs/pendencias.json")).json()
    entries = body["data"]["motivosDeFoto"] + body["data"]["pendencias"]
    assert {e["codigo"] for e in entries} == set(conferencia_catalog.CATALOG)
    assert all(e["causa"] and e["correcao"] and e["severidade"] in ("bloqueio", "fraco") for e in entries)
    assert {"GALERIA_QUANTIDADE_ACIMA_DO_SUPORTADO", "CINEPREMIUM_FOTOS_INSUFICIENTES"} <= {
        e["codigo"] for e in entries
    }


async def test_openapi_documents_the_check_and_product_routes(client):
    spec = await (await client.get("/v1/openapi.json")).json()
    conferencia = spec["paths"]["/produtos/{produtoId}/conferencia"]["post"]
    assert {"200", "202", "404", "429"} <= set(conferencia["responses"])
    assert "CHECK_LIMIT_EXCEEDED" in conferencia["responses"]["429"]["description"]
    assert spec["paths"]["/contas/{contaId}/produtos/{codigo}"]["delete"]["responses"]["204"]
    assert {"get", "put", "delete"} == set(spec["paths"]["/contas/{contaId}/produtos/{codigo}"])
    resultado = spec["components"]["schemas"]["ResultadoConferencia"]["properties"]
    assert {"tipo", "aprovado", "quantidadeMaximaImagens", "quantidadesAprovadas", "notaVideo", "pendencias"} <= set(
        resultado
    )


async def test_generated_samples_are_served_with_the_docs(client):
    html = await (await client.get("/docs/midia")).text()
    assert '<img src="/docs/samples/galeria-teste-01-principal.jpg"' in html
    response = await client.get("/docs/samples/galeria-teste-01-principal.jpg")
    assert response.status == 200 and response.content_type == "image/jpeg"


async def test_the_screenshots_the_guides_show_are_served_with_the_docs(client):
    html = await (await client.get("/docs/oauth")).text()
    for name in ("consentimento", "apps-conectados"):
        assert f'<img src="/docs/screenshots/{name}.png"' in html
        response = await client.get(f"/docs/screenshots/{name}.png")
        assert response.status == 200 and response.content_type == "image/png"


async def test_api_reference_is_served_from_the_service_alone(client):
    page = await client.get("/docs/referencia")
    assert page.status == 200
    html = await page.text()
    assert 'data-spec-url="/v1/openapi.json"' in html
    assert "/static/vendor/redoc.standalone.js" in html
    csp = page.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "script-src 'self';" in csp and "connect-src 'self'" in csp
    # every script the page loads is the service's own, and is there
    for src in re.findall(r'<script src="([^"]+)"', html):
        assert src.startswith("/static/"), src
        assert (await client.get(src)).status == 200, src


async def test_search_finds_guide_sections_errors_and_codes_ignoring_accents(client):
    page = await client.get("/docs/busca", params={"q": "conferencia"})
    html = await page.text()
    assert page.status == 200
    assert "seções encontradas" in html
    assert "<mark>conferência</mark>" in html.lower()  # "conferencia" found "Conferência"

    erros = await (await client.get("/docs/busca", params={"q": "IDEMPOTENCY_KEY_REQUIRED"})).text()
    assert 'href="/docs/erros#IDEMPOTENCY_KEY_REQUIRED"' in erros

    nada = await (await client.get("/docs/busca", params={"q": "xyzzy plugh"})).text()
    assert "Nada encontrado para <strong>xyzzy plugh</strong>" in nada

    hostil = await client.get("/docs/busca", params={"q": "<script>alert(1)</script>" * 50})
    assert hostil.status == 200
    assert "<script>alert" not in await hostil.text()


async def test_every_search_result_links_to_a_section_that_exists(client):
    html = await (await client.get("/docs/busca", params={"q": "chave"})).text()
    links = sorted(set(re.findall(r'<li>\s*<a href="(/docs[^"#]*)#([^"]+)"', html)))
    assert len(links) > 5
    pages: dict[str, str] = {}
    for path, anchor in links:
        if path not in pages:
            response = await client.get(path)
            assert response.status == 200, path
            pages[path] = await response.text()
        assert f'id="{anchor}"' in pages[path], (path, anchor)


async def test_docs_pages_lead_back_to_the_portal_and_to_the_reference(client):
    html = await (await client.get("/docs/avisos")).text()
    assert 'href="/visao-geral">Voltar ao portal' in html
    assert 'href="/docs/referencia"' in html
    assert 'role="search"' in html


def _prosa(html: str) -> str:
    """The page without its code blocks (a sample's f-string braces are code, not placeholders)."""
    return re.sub(r"<pre\b.*?</pre>", "", html, flags=re.S)


async def test_docs_pages_have_no_unfilled_placeholder(client):
    """The guides and the catalogue pages as a reader gets them (tests/unit/test_textos.py checks
    the catalogues' texts themselves)."""
    paginas = ["/docs" if nome == "index" else f"/docs/{nome}" for nome, _ in GUIDES]
    for pagina in [*paginas, "/docs/erros", "/docs/pendencias", "/docs/integracao"]:
        html = _prosa(await (await client.get(pagina)).text())
        assert not PLACEHOLDER.search(html), (pagina, PLACEHOLDER.findall(html))
