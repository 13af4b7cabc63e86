"""The consent screen (/oauth/autorizar) over real HTTP, as a seller's browser and an app see it:
the contract's order of checks (error page vs. redirected error), sign-in and back, the consent
itself, cancel, CSRF, framing, and the per-seller limit."""

import re
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from graphql_api.oauth.models import AppOAuth
from tests.factories import pkce_pair

REDIRECT = "https://app.integradora.test/callback"


def authorize_url(app, **overrides) -> str:
    _, challenge = pkce_pair()
    params = {
        "response_type": "code",
        "client_id": app.client_id,
        "redirect_uri": app.redirect_uri,
        "scope": "produtos:ler geracoes:criar",
        "state": "st-123",
        "code_challenge": challenge,
        "code_challenge_method": "S256",
    } | overrides
    return "/oauth/autorizar?" + urlencode({k: v for k, v in params.items() if v is not None})


def callback(response) -> dict[str, str]:
    """The query the app's redirect_uri receives (a redirect, never an error page)."""
    assert response.status in (302, 303), response.status
    location = response.headers["Location"]
    assert location.startswith(REDIRECT + "?"), location
    return {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}


@pytest.fixture
async def app(oauth, integrator):
    return await oauth.app(integrator, redirect_uri=REDIRECT)


@pytest.fixture
async def seller(portal):
    """A seller signed up and signed in on `portal`."""
    return await portal.seller_signup(nome="Loja da Maria")


async def test_a_signed_out_seller_signs_in_and_comes_back_to_the_same_request(portal, new_portal, app):
    vendedor = await portal.seller_signup()
    browser = await new_portal()
    url = authorize_url(app)
    response = await browser.get(url)
    assert response.status == 303
    assert response.headers["Location"].startswith("/vendedor/entrar?proximo=")
    signed_in = await browser.seller_signin(vendedor, proximo=url)
    assert signed_in.status == 303 and signed_in.headers["Location"] == url
    page = await browser.page(url)
    assert "App da Integradora" in page and "Integradora Teste" in page


async def test_the_consent_screen_says_who_asks_what_and_what_stays_hidden(portal, seller, app):
    response = await portal.get(authorize_url(app))
    assert response.status == 200
    page = await response.text()
    assert "App da Integradora" in page and "Integradora Teste" in page
    assert "Ver as fichas dos seus produtos" in page and "Pedir galerias, vídeos" in page
    assert "Enviar e remover fichas" not in page  # not asked
    assert "nome da sua loja, mas não o seu e-mail" in page
    assert ">Autorizar</button>" in page and ">Cancelar</button>" in page
    # the decision's own form carries the token, not only the sign-out form above it
    decision_form = page[page.index('<form method="post" action="/oauth/autorizar">') :]
    assert re.search(r'^\s*<input type="hidden" name="csrf" value="[0-9a-f]{64}">', decision_form.split("\n", 1)[1])
    csp = response.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in csp and response.headers["X-Frame-Options"] == "DENY"
    assert "form-action 'self' https://app.integradora.test" in csp
    assert response.headers["Cache-Control"] == "no-store"


async def test_authorise_sends_the_code_state_and_iss_to_the_app(client, portal, seller, app, oauth, settings):
    url = authorize_url(app)
    response = await portal.submit(
        "/oauth/autorizar", dict(parse_qs(urlsplit(url).query), decisao="autorizar"), token_from=url
    )
    query = callback(response)
    assert query["code"].startswith("oac_") and query["state"] == "st-123"
    assert query["iss"] == settings.base_url


async def test_cancel_sends_access_denied(portal, seller, app):
    url = authorize_url(app)
    response = await portal.submit(
        "/oauth/autorizar", dict(parse_qs(urlsplit(url).query), decisao="cancelar"), token_from=url
    )
    query = callback(response)
    assert query["error"] == "access_denied" and query["state"] == "st-123" and "code" not in query


async def test_the_consent_form_needs_its_csrf_token(portal, seller, app):
    url = authorize_url(app)
    await portal.page(url)
    fields = {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()} | {"decisao": "autorizar"}
    forged = await portal.client.post("/oauth/autorizar", data=fields, allow_redirects=False)
    assert forged.status == 403 and "Location" not in forged.headers
    wrong = await portal.client.post("/oauth/autorizar", data=fields | {"csrf": "0" * 64}, allow_redirects=False)
    assert wrong.status == 403


@pytest.mark.parametrize(
    "overrides",
    [
        {"client_id": None},
        {"client_id": "app_" + "0" * 26},
        {"client_id": "nada"},
        {"redirect_uri": None},
        {"redirect_uri": REDIRECT + "/"},
        {"redirect_uri": REDIRECT.replace("app.", "APP.")},
        {"redirect_uri": REDIRECT + "?x=1"},
        {"redirect_uri": REDIRECT.replace("https", "http")},
        {"redirect_uri": "https://atacante.test/callback"},
    ],
)
async def test_a_bad_client_or_redirect_uri_is_an_error_page_never_a_redirect(portal, seller, app, overrides):
    response = await portal.get(authorize_url(app, **overrides))
    assert response.status == 400
    assert "Location" not in response.headers
    page = await response.text()
    assert "OAUTH_" in page


@pytest.mark.parametrize(
    ("registrado", "pedido", "mostrado", "explicacao", "fonte"),
    [
        (REDIRECT, REDIRECT, "app.integradora.test", "", "https://app.integradora.test"),
        (
            "https://app.integradora.test:8443/cb",
            None,
            "app.integradora.test:8443",
            "",
            "https://app.integradora.test:8443",
        ),
        (
            "http://127.0.0.1/oauth/volta",
            "http://127.0.0.1:51234/oauth/volta",
            "127.0.0.1:51234",
            ", um programa neste computador",
            "http://127.0.0.1:51234",
        ),
        (
            "http://[::1]:8080/volta",
            "http://[::1]:40001/volta",
            "[::1]:40001",
            ", um programa neste computador",
            "http://[::1]:40001",
        ),
        (
            "com.exemplo.app:/oauth/volta",
            None,
            "com.exemplo.app",
            ", um aplicativo instalado neste aparelho",
            "com.exemplo.app:",
        ),
    ],
)
async def test_the_consent_screen_shows_where_the_code_goes(
    portal, seller, oauth, integrator, registrado, pedido, mostrado, explicacao, fonte
):
    app = await oauth.app(integrator, tipo="publico", redirect_uri=registrado)
    response = await portal.get(authorize_url(app, redirect_uri=pedido or registrado))
    assert response.status == 200, await response.text()
    page = await response.text()
    destino = page[page.index('<p class="destino">') :].split("</p>", 1)[0]
    assert f'Ao autorizar, você volta para\n  <strong class="mono">{mostrado}</strong>{explicacao}.' in destino
    assert "Autorize só se você reconhece este endereço como do App da Integradora." in destino
    # the decision's answer redirects there: the form may lead to it
    assert f"form-action 'self' {fonte};" in response.headers["Content-Security-Policy"] + ";"


async def test_only_a_loopback_ips_port_is_free(portal, seller, oauth, integrator):
    """RFC 8252 §7.3: any port of http://127.0.0.1 and http://[::1]; the rest exactly as registered."""
    ip = await oauth.app(integrator, tipo="publico", redirect_uri="http://127.0.0.1:8080/volta?app=1")
    for usado in (
        "http://127.0.0.1:8080/volta?app=1",
        "http://127.0.0.1:9/volta?app=1",
        "http://127.0.0.1/volta?app=1",
    ):
        assert (await portal.get(authorize_url(ip, redirect_uri=usado))).status == 200, usado
    for usado in (
        "http://127.0.0.1:9/volta",
        "http://127.0.0.1:9/volta?app=1&x=2",
        "http://127.0.0.1:9/volta/?app=1",
        "https://127.0.0.1:9/volta?app=1",
        "http://localhost:8080/volta?app=1",
        "http://[::1]:8080/volta?app=1",
        "http://127.0.0.1:0/volta?app=1",
        "http://127.0.0.1:65536/volta?app=1",
        "http://127.0.0.1:9@atacante.test/volta?app=1",
    ):
        response = await portal.get(authorize_url(ip, redirect_uri=usado))
        assert response.status == 400 and "Location" not in response.headers, usado
    # localhost is compared exactly, port included
    nome = await oauth.app(integrator, tipo="publico", redirect_uri="http://localhost:8080/volta")
    assert (await portal.get(authorize_url(nome))).status == 200
    assert (await portal.get(authorize_url(nome, redirect_uri="http://localhost:8081/volta"))).status == 400


async def test_a_disabled_app_is_an_error_page(portal, seller, app):
    await AppOAuth.filter(id=app.client_id).update(situacao="desativado")
    response = await portal.get(authorize_url(app))
    assert response.status == 400 and "Location" not in response.headers


async def test_repeated_client_id_is_an_error_page(portal, seller, app):
    url = authorize_url(app) + "&client_id=" + app.client_id
    response = await portal.get(url)
    assert response.status == 400 and "Location" not in response.headers


@pytest.mark.parametrize(
    ("overrides", "error"),
    [
        ({"code_challenge": None}, "invalid_request"),
        ({"code_challenge_method": None}, "invalid_request"),
        ({"code_challenge_method": "plain"}, "invalid_request"),
        ({"code_challenge": "curto"}, "invalid_request"),
        ({"response_type": None}, "invalid_request"),
        ({"response_type": "token"}, "unsupported_response_type"),
        ({"scope": "produtos:ler creditos:ler"}, "invalid_scope"),
        ({"scope": "tudo"}, "invalid_scope"),
    ],
)
async def test_other_errors_go_back_to_the_app_with_state(new_portal, app, overrides, error, settings):
    browser = await new_portal()  # no session: the request is checked before any sign-in
    query = callback(await browser.get(authorize_url(app, **overrides)))
    assert query["error"] == error and query["state"] == "st-123"
    assert query["error_description"].isascii() and query["iss"] == settings.base_url


async def test_an_app_limited_to_some_scopes_cannot_ask_others(portal, seller, oauth, integrator):
    limited = await oauth.app(integrator, redirect_uri=REDIRECT, escopos=["produtos:ler"])
    query = callback(await portal.get(authorize_url(limited, scope="produtos:ler geracoes:ler")))
    assert query["error"] == "invalid_scope"
    assert (await portal.get(authorize_url(limited, scope="produtos:ler"))).status == 200


async def test_without_scope_the_request_is_for_every_allowed_scope(portal, seller, oauth, integrator):
    app = await oauth.app(integrator, redirect_uri=REDIRECT, escopos=["produtos:ler", "geracoes:ler"])
    page = await portal.page(authorize_url(app, scope=None))
    assert "Ver as fichas dos seus produtos" in page and "Ver e baixar as imagens" in page
    assert "Pedir galerias" not in page


async def test_ten_authorisations_in_ten_minutes_then_temporarily_unavailable(portal, seller, app):
    for _ in range(10):
        url = authorize_url(app)
        response = await portal.submit(
            "/oauth/autorizar", dict(parse_qs(urlsplit(url).query), decisao="autorizar"), token_from=url
        )
        assert "code" in callback(response)
    url = authorize_url(app)
    response = await portal.submit(
        "/oauth/autorizar", dict(parse_qs(urlsplit(url).query), decisao="autorizar"), token_from=url
    )
    assert callback(response)["error"] == "temporarily_unavailable"


async def test_a_staff_session_does_not_consent(portal, owner, app):
    response = await portal.get(authorize_url(app))
    assert response.status == 303 and response.headers["Location"].startswith("/vendedor/entrar")


async def test_the_linked_account_takes_the_store_name_under_the_app_integrator(portal, seller, app, oauth, integrator):
    url = authorize_url(app)
    response = await portal.submit(
        "/oauth/autorizar", dict(parse_qs(urlsplit(url).query), decisao="autorizar"), token_from=url
    )
    assert "code" in callback(response)
    from graphql_api.conta.models import Conta

    conta = await Conta.get(integrador_id=integrator.id, origem="vinculada")
    assert conta.nome == "Loja da Maria" and conta.ambiente == "teste"  # the app's environment
    assert conta.situacao == "pausada"  # nothing reaches the integrator until the code is exchanged
    assert conta.codigo_externo.startswith("vdr_") and conta.codigo_externo != conta.vendedor_id
