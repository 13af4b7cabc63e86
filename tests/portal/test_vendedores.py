"""The sellers' pages over real HTTP: sign-up, sign-in and its failure counter, sessions of their
own (cookie, fixation, sign-out, expiry), CSRF, headers, `proximo` round trips, and the wall
between sellers' and integrators' sessions."""

import html
import re
from datetime import UTC, datetime, timedelta
from urllib.parse import quote

from argon2 import PasswordHasher

from graphql_api.usuario import autenticacao, senhas
from graphql_api.usuario.models import Sessao, TentativaEntrada
from graphql_api.vendedor.models import SessaoVendedor, Vendedor
from portal.web import ANON_COOKIE, SELLER_COOKIE, SESSION_COOKIE
from tasks import maintenance
from tests.portal.conftest import Pessoa
from vitrine.keys import RUNTIME

# Where the consent page will send a seller who is not signed in: a query string of its own,
# with values that are themselves URL-encoded.
CONSENT = (
    "/oauth/autorizar?response_type=code&client_id=app_01jabcdefghjkmnpqrstvwxyz0"
    "&redirect_uri=https%3A%2F%2Fintegradora.test%2Fvolta%3Fa%3D1%26b%3D2&state=x%20y%2Bz&scope=produtos%3Aler"
)
_HIDDEN_PROXIMO = re.compile(r'name="proximo" value="([^"]*)"')
_CADASTRO_LINK = re.compile(r'href="(/vendedor/cadastro[^"]*)"')


def hidden_proximo(page: str) -> str:
    return html.unescape(_HIDDEN_PROXIMO.search(page).group(1))


# ---------------------------------------------------------------- sign-up


async def test_sign_up_signs_the_seller_in_and_shows_the_connected_apps(portal):
    # when a seller signs up
    response = await portal.submit(
        "/vendedor/cadastro",
        {"nome": "  Loja da Maria  ", "email": " Maria@Loja.TEST ", "senha": "uma senha bem longa", "proximo": ""},
    )
    # then they are signed in and sent to their apps
    assert response.status == 303
    assert response.headers["Location"] == "/vendedor/apps?aviso=vendedor_bem_vindo"
    assert portal.seller_session and portal.session is None  # a seller session, not a portal one
    page = await portal.page("/vendedor/apps?aviso=vendedor_bem_vindo")
    assert "<h1>Apps conectados</h1>" in page
    assert "Loja da Maria" in page and "maria@loja.test" in page
    assert "Nenhum app conectado à sua loja." in page
    assert "Cadastro feito." in page
    # no integrator navigation on the sellers' pages
    assert "Chaves de API" not in page and "/visao-geral" not in page
    # stored as the staff's people are: trimmed name, lower-case e-mail, argon2id hash
    vendedor = await Vendedor.get(email="maria@loja.test")
    assert vendedor.id.startswith("vnd_") and vendedor.nome == "Loja da Maria"
    assert vendedor.hash_senha.startswith("$argon2id$")
    assert PasswordHasher().verify(vendedor.hash_senha, "uma senha bem longa")
    assert vendedor.ultimo_acesso_em is not None


async def test_the_sign_up_form_is_labelled_and_shows_each_error_beside_its_field(portal):
    page = await portal.page("/vendedor/cadastro")
    for label, campo in (("Nome da loja", "nome"), ("E-mail", "email"), ("Senha", "senha")):
        assert f'<label for="campo-{campo}">{label}</label>' in page
    response = await portal.submit(
        "/vendedor/cadastro", {"nome": "", "email": "sem-arroba", "senha": "curta", "proximo": ""}
    )
    assert response.status == 422
    page = await response.text()
    assert page.count('aria-invalid="true"') == 3
    assert "Campo obrigatório." in page
    assert "Informe um e-mail válido" in page
    assert "Use pelo menos 10 caracteres." in page
    assert 'value="sem-arroba"' in page and "curta" not in page  # the password is never echoed
    assert portal.seller_session is None


async def test_the_store_name_is_one_line_of_at_most_200_characters(portal):
    for nome, mensagem in (("Loja\nDois", "Caracteres de controle"), ("L" * 201, "Máximo de 200 caracteres.")):
        response = await portal.submit(
            "/vendedor/cadastro", {"nome": nome, "email": "linha@loja.test", "senha": "uma senha bem longa"}
        )
        assert response.status == 422
        assert mensagem in await response.text()
    assert await Vendedor.filter(email="linha@loja.test").count() == 0
    await portal.seller_signup(nome="L" * 200, email="linha@loja.test")
    assert (await Vendedor.get(email="linha@loja.test")).nome == "L" * 200


async def test_an_e_mail_already_used_by_a_seller_is_a_validation_error_on_email(portal, new_portal):
    vendedor = await portal.seller_signup()
    other = await new_portal()
    response = await other.submit(
        "/vendedor/cadastro",
        {"nome": "Outra Loja", "email": vendedor.email.upper(), "senha": "outra senha bem longa"},
    )
    assert response.status == 422
    page = await response.text()
    assert "Já existe um cadastro de vendedor com este e-mail: entre com ele." in page
    assert 'aria-invalid="true"' in page
    assert await Vendedor.filter(email=vendedor.email).count() == 1
    assert other.seller_session is None


async def test_a_staff_e_mail_is_free_for_a_seller_account(portal, new_portal):
    # people of an integrator and sellers are separate: the same person may be both
    owner = await portal.signup()
    seller = await new_portal()
    await seller.seller_signup(email=owner.email, senha="senha da loja bem longa")
    assert await Vendedor.filter(email=owner.email).count() == 1


# ---------------------------------------------------------------- sign-in


async def test_the_sign_in_form_speaks_the_contract_words_and_keeps_proximo(portal):
    page = await portal.page(f"/vendedor/entrar?proximo={quote(CONSENT)}")
    assert '<label for="campo-email">E-mail</label>' in page
    assert '<label for="campo-senha">Senha</label>' in page
    assert '<button class="btn wide" type="submit">Entrar</button>' in page
    assert hidden_proximo(page) == CONSENT
    # the link to sign up carries the same proximo, encoded as one query value
    link = html.unescape(_CADASTRO_LINK.search(page).group(1))
    assert link == f"/vendedor/cadastro?proximo={quote(CONSENT, safe='/')}"
    assert hidden_proximo(await portal.page(link)) == CONSENT


async def test_sign_in_right_wrong_and_unknown(portal, new_portal):
    vendedor = await portal.seller_signup()
    await portal.seller_signout()
    # a wrong password and an unknown e-mail get the same answer, shown on the form
    for pessoa in (Pessoa(vendedor.email, "outra senha qualquer"), Pessoa("ninguem@loja.test", vendedor.senha)):
        response = await portal.seller_signin(pessoa)
        assert response.status == 401
        page = await response.text()
        assert "E-mail ou senha incorretos." in page and 'role="alert"' in page
        assert portal.seller_session is None
    # the right one opens a session and goes to the apps
    response = await portal.seller_signin(vendedor)
    assert response.status == 303 and response.headers["Location"] == "/vendedor/apps"
    assert (await portal.get("/vendedor/apps")).status == 200
    # a signed-in seller who opens the sign-in page goes straight on
    response = await portal.get("/vendedor/entrar?proximo=/vendedor/apps%3Fa%3D1")
    assert response.status == 303 and response.headers["Location"] == "/vendedor/apps?a=1"


async def test_too_many_failures_lock_the_e_mail_and_show_the_wait(portal, new_portal):
    vendedor = await portal.seller_signup()
    await portal.seller_signout()
    wrong = Pessoa(vendedor.email, "senha errada demais")
    for _ in range(autenticacao.MAX_FAILURES_PER_EMAIL):
        assert (await portal.seller_signin(wrong)).status == 401
    # even the right password is refused now, saying how long to wait
    response = await portal.seller_signin(vendedor)
    assert response.status == 429
    assert 0 < int(response.headers["Retry-After"]) <= 15 * 60
    page = await response.text()
    assert re.search(r"Muitas senhas erradas em pouco tempo\. Tente de novo em \d+ minuto\(s\)\.", page)
    assert "redefina" not in page  # sellers have no password reset to offer
    assert portal.seller_session is None
    # another seller on the same address is not locked by this e-mail's failures
    other = await new_portal()
    loja = await other.seller_signup()
    await other.seller_signout()
    assert (await other.seller_signin(loja)).status == 303


async def test_failures_are_counted_per_kind_of_person_for_an_e_mail(portal, new_portal):
    # given a portal person and a seller account made with the same e-mail
    owner = await portal.signup()
    await portal.signout()
    seller = await new_portal()
    vendedor = await seller.seller_signup(email=owner.email, senha="senha da loja bem longa")
    await seller.seller_signout()
    # when the seller door gets wrong passwords for that e-mail up to the limit
    for _ in range(autenticacao.MAX_FAILURES_PER_EMAIL):
        assert (await seller.seller_signin(Pessoa(owner.email, "senha errada demais"))).status == 401
    assert (await seller.seller_signin(vendedor)).status == 429
    # then the portal person is not locked out
    assert (await portal.signin(owner)).status == 303
    await portal.signout()
    # and guesses at the portal person are not cleared by a seller signing in with that e-mail
    await TentativaEntrada.filter(email=owner.email).delete()
    for _ in range(autenticacao.MAX_FAILURES_PER_EMAIL - 1):
        assert (await portal.signin(Pessoa(owner.email, "senha errada demais"))).status == 401
    assert (await seller.seller_signin(vendedor)).status == 303
    assert (await portal.signin(Pessoa(owner.email, "senha errada demais"))).status == 401
    assert (await portal.signin(owner)).status == 429


async def test_failures_from_one_address_count_across_both_doors(portal):
    await portal.seller_signup()
    await portal.seller_signout()
    half = autenticacao.MAX_FAILURES_PER_IP // 2
    for n in range(half):
        assert (await portal.signin(Pessoa(f"pessoa{n}@exemplo.test", "qualquer coisa"))).status == 401
    for n in range(autenticacao.MAX_FAILURES_PER_IP - half):
        assert (await portal.seller_signin(Pessoa(f"loja{n}@exemplo.test", "qualquer coisa"))).status == 401
    response = await portal.seller_signin(Pessoa("outra@exemplo.test", "qualquer coisa"))
    assert response.status == 429 and "Retry-After" in response.headers


# ---------------------------------------------------------------- proximo


async def test_proximo_survives_the_sign_in_redirect_with_its_query_string(portal, new_portal):
    vendedor = await portal.seller_signup()
    browser = await new_portal()
    # a seller page visited without a session sends to the sign-in, with the whole path and query
    response = await browser.get("/vendedor/apps?x=1&y=2")
    assert response.status == 303
    assert response.headers["Location"] == "/vendedor/entrar?proximo=/vendedor/apps%3Fx%3D1%26y%3D2"
    page = await browser.page(response.headers["Location"])
    assert hidden_proximo(page) == "/vendedor/apps?x=1&y=2"
    response = await browser.seller_signin(vendedor, proximo=hidden_proximo(page))
    assert response.status == 303 and response.headers["Location"] == "/vendedor/apps?x=1&y=2"


async def test_proximo_of_the_consent_page_survives_sign_up(new_portal):
    browser = await new_portal()
    # the seller arrives at the sign-in page from the consent page, then chooses to sign up
    entrar = await browser.page(f"/vendedor/entrar?proximo={quote(CONSENT)}")
    cadastro_url = html.unescape(_CADASTRO_LINK.search(entrar).group(1))
    cadastro = await browser.page(cadastro_url)
    assert hidden_proximo(cadastro) == CONSENT
    # a mistake in the form keeps proximo
    response = await browser.submit(
        "/vendedor/cadastro",
        {"nome": "Loja", "email": "x", "senha": "uma senha bem longa", "proximo": CONSENT},
        token_from=cadastro_url,
    )
    assert response.status == 422 and hidden_proximo(await response.text()) == CONSENT
    # and the sign-up goes back to the consent request exactly as it was, signed in
    response = await browser.submit(
        "/vendedor/cadastro",
        {
            "nome": "Loja",
            "email": f"consent-{id(browser)}@loja.test",
            "senha": "uma senha bem longa",
            "proximo": CONSENT,
        },
        token_from=cadastro_url,
    )
    assert response.status == 303 and response.headers["Location"] == CONSENT
    assert browser.seller_session


async def test_proximo_of_the_consent_page_survives_sign_in(portal):
    vendedor = await portal.seller_signup()
    await portal.seller_signout()
    page = await portal.page(f"/vendedor/entrar?proximo={quote(CONSENT)}")
    response = await portal.seller_signin(vendedor, proximo=hidden_proximo(page))
    assert response.status == 303 and response.headers["Location"] == CONSENT


async def test_only_local_paths_are_followed(portal, new_portal):
    vendedor = await portal.seller_signup()
    for proximo in (
        "https://evil.example/roubo",
        "//evil.example/roubo",
        "/\\evil.example",
        "javascript:alert(1)",
        "/vendedor/apps\r\nSet-Cookie: x=1",
    ):
        await portal.seller_signout()
        response = await portal.seller_signin(vendedor, proximo=proximo)
        assert response.status == 303 and response.headers["Location"] == "/vendedor/apps", proximo
    browser = await new_portal()
    response = await browser.submit(
        "/vendedor/cadastro",
        {"nome": "Loja", "email": "evil@loja.test", "senha": "uma senha bem longa", "proximo": "//evil.example"},
    )
    assert response.status == 303 and response.headers["Location"] == "/vendedor/apps"


# ---------------------------------------------------------------- sessions, CSRF, headers


async def test_sign_out_ends_the_session_on_the_server(portal, new_portal):
    await portal.seller_signup()
    token = portal.seller_session
    response = await portal.seller_signout()
    assert response.status == 303 and response.headers["Location"] == "/vendedor/entrar?aviso=saiu"
    assert portal.seller_session is None
    assert await SessaoVendedor.filter(id=senhas.token_hash(token)).count() == 0
    assert "Você saiu." in await portal.page("/vendedor/entrar?aviso=saiu")
    thief = await new_portal()
    thief.client.session.cookie_jar.update_cookies({SELLER_COOKIE: token})
    response = await thief.get("/vendedor/apps")
    assert response.status == 303 and response.headers["Location"].startswith("/vendedor/entrar")


async def test_the_session_id_changes_at_sign_in_and_a_planted_one_never_signs_in(portal, new_portal):
    vendedor = await portal.seller_signup()
    first = portal.seller_session
    assert (await portal.seller_signin(vendedor)).status == 303
    second = portal.seller_session
    assert second and second != first
    assert await SessaoVendedor.filter(id=senhas.token_hash(first)).count() == 0
    victim = await new_portal()
    victim.client.session.cookie_jar.update_cookies({SELLER_COOKIE: "planted-by-the-attacker"})
    assert (await victim.seller_signin(vendedor)).status == 303
    assert victim.seller_session not in (None, "planted-by-the-attacker")


async def test_state_changing_requests_need_the_csrf_token(portal, new_portal):
    vendedor = await portal.seller_signup()
    stranger = await new_portal()
    # a cross-site POST carries no token: refused on every seller form, whatever the content
    for path, data in (
        ("/vendedor/entrar", {"email": vendedor.email, "senha": vendedor.senha}),
        ("/vendedor/cadastro", {"nome": "X", "email": "csrf@loja.test", "senha": "uma senha bem longa"}),
    ):
        response = await stranger.client.post(path, data=data, allow_redirects=False)
        assert response.status == 403
        page = await response.text()
        assert "CSRF" in page and "Vitrine <span>para lojas</span>" in page  # the sellers' own layout
    assert stranger.seller_session is None
    assert await Vendedor.filter(email="csrf@loja.test").count() == 0
    # a wrong token, and one of the anonymous form, do not sign a seller out
    for token in ("0" * 64, await stranger.csrf("/vendedor/entrar")):
        response = await portal.client.post("/vendedor/sair", data={"csrf": token}, allow_redirects=False)
        assert response.status == 403
    assert (await portal.get("/vendedor/apps")).status == 200
    # the page's own token works, in the form field or in the header htmx sends
    token = await portal.csrf("/vendedor/apps")
    response = await portal.client.post("/vendedor/sair", headers={"X-CSRF-Token": token}, allow_redirects=False)
    assert response.status == 303 and portal.seller_session is None


async def test_cookie_flags_and_security_headers(portal):
    response = await portal.submit(
        "/vendedor/cadastro", {"nome": "Flags", "email": "flags@loja.test", "senha": "senha com flags"}
    )
    cookie = response.cookies[SELLER_COOKIE]
    assert cookie["httponly"] is True and cookie["samesite"] == "Lax" and cookie["path"] == "/"
    assert int(cookie["max-age"]) == 7 * 24 * 3600
    assert not cookie["secure"]  # served over http in this test
    assert SESSION_COOKIE not in response.cookies
    for path in ("/vendedor/apps", "/vendedor/entrar", "/vendedor/cadastro"):
        page = await portal.client.get(path)
        assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
        assert page.headers["X-Frame-Options"] == "DENY" and page.headers["Cache-Control"] == "no-store"
        assert page.headers["X-Content-Type-Options"] == "nosniff"


async def test_the_cookie_is_secure_when_served_over_https(client, portal):
    token = await portal.csrf("/vendedor/cadastro")
    client.app[RUNTIME].settings.public_url = "https://portal.test"
    response = await client.post(
        "/vendedor/cadastro",
        allow_redirects=False,
        data={"csrf": token, "nome": "Segura", "email": "segura@loja.test", "senha": "senha segura https"},
    )
    assert response.status == 303
    assert response.cookies[SELLER_COOKIE]["secure"] is True


async def test_staff_and_seller_sessions_are_not_interchangeable(portal, new_portal):
    owner = await portal.signup()
    seller = await new_portal()
    loja = await seller.seller_signup()
    # a staff session does not open seller pages, nor a seller session the integrator's
    response = await portal.get("/vendedor/apps")
    assert response.status == 303 and response.headers["Location"] == "/vendedor/entrar?proximo=/vendedor/apps"
    response = await seller.get("/visao-geral")
    assert response.status == 303 and response.headers["Location"] == "/entrar?proximo=/visao-geral"
    # a cookie value moved to the other kind's cookie opens nothing either
    swapped = await new_portal()
    swapped.client.session.cookie_jar.update_cookies(
        {SELLER_COOKIE: portal.session, SESSION_COOKIE: seller.seller_session}
    )
    assert (await swapped.get("/vendedor/apps")).status == 303
    assert (await swapped.get("/visao-geral")).status == 303
    # one browser may hold both; signing out of one keeps the other
    await portal.seller_signin(loja)
    assert (await portal.get("/vendedor/apps")).status == 200 and (await portal.get("/visao-geral")).status == 200
    await portal.seller_signout()
    assert (await portal.get("/visao-geral")).status == 200
    assert (await portal.get("/vendedor/apps")).status == 303
    await portal.seller_signin(loja)
    await portal.signout()
    assert (await portal.get("/vendedor/apps")).status == 200
    assert await Sessao.filter(usuario__email=owner.email).count() == 0


async def test_an_expired_session_sends_to_sign_in_and_is_purged(portal):
    vendedor = await portal.seller_signup()
    token_hash = senhas.token_hash(portal.seller_session)
    await SessaoVendedor.filter(id=token_hash).update(expira_em=datetime.now(UTC) - timedelta(seconds=1))
    response = await portal.get("/vendedor/apps")
    assert response.status == 303 and response.headers["Location"] == "/vendedor/entrar?proximo=/vendedor/apps"
    assert portal.seller_session is None  # the stale cookie is dropped
    # a session past its maximum life is refused even if recently used
    await portal.seller_signin(vendedor)
    await SessaoVendedor.filter(id=senhas.token_hash(portal.seller_session)).update(
        criado_em=datetime.now(UTC) - timedelta(days=7, seconds=1)
    )
    assert (await portal.get("/vendedor/apps")).status == 303
    # expired rows that no browser comes back for are removed by the periodic maintenance
    stale = await SessaoVendedor.create(
        id="f" * 64,
        vendedor_id=(await Vendedor.get(email=vendedor.email)).id,
        ultimo_uso_em=datetime.now(UTC) - timedelta(days=2),
        expira_em=datetime.now(UTC) - timedelta(hours=1),
    )
    result = await maintenance.expurgar_sessoes()
    assert result["sessoesVendedorRemovidas"] >= 1
    assert await SessaoVendedor.filter(id=stale.id).count() == 0


async def test_the_seller_home_leads_to_the_apps_or_to_sign_in(new_portal):
    stranger = await new_portal()
    response = await stranger.get("/vendedor")
    assert response.status == 303 and response.headers["Location"] == "/vendedor/apps"
    assert ANON_COOKIE in response.cookies  # anonymous forms are bound to a random value
    response = await stranger.get("/vendedor/apps")
    assert response.status == 303 and response.headers["Location"] == "/vendedor/entrar?proximo=/vendedor/apps"
    await stranger.seller_signup()
    response = await stranger.get("/vendedor")
    assert response.status == 303 and response.headers["Location"] == "/vendedor/apps"
    assert (await stranger.get("/vendedor/apps")).status == 200


# ---------------------------------------------------------------- Apps conectados


async def test_connected_apps_are_listed_and_revoked(portal, new_portal, factory, oauth):
    # given a seller who authorised an integrator's app, whose tokens work on /v1
    vendedor = await portal.seller_signup(nome="Loja Conectada")
    vendedor_id = (await Vendedor.get(email=vendedor.email)).id
    integrator = await factory.integrator(nome="Integradora Conectada")
    app = await oauth.app(integrator, nome="Anúncios Turbo")
    tokens = await oauth.tokens(app, await oauth.consentir(app, vendedor_id, scope="contas:ler produtos:ler"))
    bearer = {"Authorization": f"Bearer {tokens['access_token']}"}
    assert (await factory.client.get("/v1/contas", headers=bearer)).status == 200
    # when the seller opens "Apps conectados"
    page = await portal.page("/vendedor/apps")
    # then the app, its integrator, the permissions given and when are listed, with a revoke button
    assert "Anúncios Turbo" in page and "Integradora Conectada" in page
    assert "Ver o nome e a situação da sua conta" in page
    assert "Ver as fichas dos seus produtos e o resultado das conferências" in page
    assert "Pedir galerias" not in page  # a permission not given is not shown
    assert re.search(r"\d{2}/\d{2}/\d{4} \d{2}:\d{2}:\d{2}", page)
    assert f'action="/vendedor/apps/{app.client_id}/revogar"' in page
    assert 'Revogar<span class="sr-only"> Anúncios Turbo</span>' in page
    assert "Nenhum app conectado" not in page
    # a revocation without the form's token does nothing
    response = await portal.client.post(f"/vendedor/apps/{app.client_id}/revogar", allow_redirects=False)
    assert response.status == 403
    assert (await factory.client.get("/v1/contas", headers=bearer)).status == 200
    # another seller cannot revoke it (for them the app is not connected)
    other = await new_portal()
    await other.seller_signup()
    response = await other.submit(f"/vendedor/apps/{app.client_id}/revogar", {}, token_from="/vendedor/apps")
    assert response.status == 404
    assert "Este aplicativo não está conectado à sua loja." in await response.text()
    assert (await factory.client.get("/v1/contas", headers=bearer)).status == 200
    # "Revogar" ends the access at once: the token answers 401 and the page is empty again
    response = await portal.submit(f"/vendedor/apps/{app.client_id}/revogar", {}, token_from="/vendedor/apps")
    assert response.status == 303 and response.headers["Location"] == "/vendedor/apps?aviso=app_revogado"
    assert (await factory.client.get("/v1/contas", headers=bearer)).status == 401
    page = await portal.page(response.headers["Location"])
    assert "Acesso revogado" in page and "Nenhum app conectado à sua loja." in page
    assert "Anúncios Turbo" not in page


async def test_a_staff_session_cannot_reach_the_sellers_revocation(portal, owner):
    path = "/vendedor/apps/app_01jabcdefghjkmnpqrstvwxyz0/revogar"
    # the token of a portal page is bound to the staff session: not valid on a seller form
    response = await portal.submit(path, {}, token_from="/visao-geral")
    assert response.status == 403
    # with the seller pages' own token, a browser without a seller session goes to the seller sign-in
    response = await portal.submit(path, {}, token_from="/vendedor/entrar")
    assert response.status == 303 and response.headers["Location"] == "/vendedor/entrar?proximo=/vendedor/apps"
