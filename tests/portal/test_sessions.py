"""Session and CSRF rules of the portal: fixation, tokens, logout, re-authentication, sign-in
rate limit, cookie flags and security headers."""

from datetime import UTC, datetime, timedelta

import pytest

from graphql_api.chave.models import ChaveApi
from graphql_api.integracao import contrato
from graphql_api.integrador.models import Integrador
from graphql_api.usuario import autenticacao, senhas
from graphql_api.usuario.models import Sessao, Usuario
from portal.web import ANON_COOKIE, SELLER_COOKIE, SESSION_COOKIE
from tests.factories import raw_http
from vitrine.keys import RUNTIME


async def test_the_session_id_changes_at_sign_in_and_the_old_one_dies(portal, new_portal, owner):
    # given a signed-in portal whose session id an attacker planted or learnt earlier
    first = portal.session
    assert first
    # when the person signs in again on that portal
    response = await portal.signin(owner)
    # then a new id is issued and the old one no longer opens anything, on any portal
    assert response.status == 303
    second = portal.session
    assert second and second != first
    assert await Sessao.filter(id=senhas.token_hash(first)).count() == 0
    attacker = await new_portal()
    attacker.client.session.cookie_jar.update_cookies({SESSION_COOKIE: first})
    replay = await attacker.get("/visao-geral")
    assert replay.status == 303 and replay.headers["Location"].startswith("/entrar")


async def test_a_planted_cookie_never_becomes_a_signed_in_session(client, portal, new_portal):
    victim = await new_portal()
    pessoa = await victim.signup()
    await victim.signout()
    # given an attacker-chosen session value in the victim's portal
    planted = "planted-by-the-attacker"
    victim.client.session.cookie_jar.update_cookies({SESSION_COOKIE: planted})
    # when the victim signs in
    assert (await victim.signin(pessoa)).status == 303
    # then the session id is one the server made, not the planted one
    assert victim.session not in (None, planted)
    portal.client.session.cookie_jar.update_cookies({SESSION_COOKIE: planted})
    assert (await portal.get("/visao-geral")).status == 303


async def test_state_changing_requests_without_a_valid_csrf_token_are_refused(portal, owner):
    # missing token
    response = await portal.client.post("/chaves", data={"nome": "sem token"}, allow_redirects=False)
    assert response.status == 403
    assert "CSRF" in await response.text()
    # wrong token
    response = await portal.client.post("/chaves", data={"nome": "x", "csrf": "0" * 64}, allow_redirects=False)
    assert response.status == 403
    # a token that is not even ASCII, in the form or in htmx's header
    response = await portal.client.post("/chaves", data={"nome": "x", "csrf": "ç" * 64}, allow_redirects=False)
    assert response.status == 403
    response = await portal.client.post(
        "/chaves", data={"nome": "x"}, headers={"X-CSRF-Token": "ç"}, allow_redirects=False
    )
    assert response.status == 403
    # the token of an earlier session
    stale = await portal.csrf("/visao-geral")
    await portal.signin(owner)  # new session, new token
    response = await portal.client.post("/chaves", data={"nome": "velho", "csrf": stale}, allow_redirects=False)
    assert response.status == 403
    # nothing was created by the refused requests
    assert await ChaveApi.filter(nome__in=["sem token", "x", "velho"]).count() == 0
    # the header htmx sends is accepted, like the form field
    token = await portal.csrf("/visao-geral")
    response = await portal.client.post(
        "/chaves", data={"nome": "via htmx"}, headers={"X-CSRF-Token": token, "HX-Request": "true"}
    )
    assert response.status == 201


async def test_anonymous_forms_need_the_token_too(client, new_portal):
    stranger = await new_portal()
    # a cross-site POST carries no token (and no anonymous cookie): refused, whatever the content
    response = await stranger.client.post("/entrar", data={"email": "a@b.test", "senha": "x"}, allow_redirects=False)
    assert response.status == 403
    response = await stranger.client.post("/cadastro", data={"empresa": "X"}, allow_redirects=False)
    assert response.status == 403


async def test_logout_ends_the_session_on_the_server(portal, new_portal, owner):
    token = portal.session
    response = await portal.signout()
    assert response.status == 303 and response.headers["Location"] == "/entrar?aviso=saiu"
    assert portal.session is None
    assert await Sessao.filter(id=senhas.token_hash(token)).count() == 0
    # a copy of the cookie kept elsewhere is worthless now
    thief = await new_portal()
    thief.client.session.cookie_jar.update_cookies({SESSION_COOKIE: token})
    assert (await thief.get("/chaves")).status == 303


async def test_a_live_key_needs_the_password_again_and_then_production_access(portal, owner):
    await portal.switch("producao")
    # without re-authentication: sent to the password prompt
    response = await portal.submit("/chaves", {"nome": "produção"})
    assert response.status == 303
    assert response.headers["Location"].startswith("/reautenticar?proximo=")
    # a wrong password is shown beside the field
    response = await portal.submit(
        "/reautenticar", {"senha": "errada-errada", "proximo": "/chaves"}, token_from="/reautenticar"
    )
    assert response.status == 422
    page = await response.text()
    assert "Senha incorreta." in page and 'aria-invalid="true"' in page
    # the right one opens 5 minutes
    response = await portal.submit(
        "/reautenticar", {"senha": owner.senha, "proximo": "/chaves"}, token_from="/reautenticar"
    )
    assert response.status == 303 and response.headers["Location"].startswith("/chaves")
    # then the one live-key rule speaks: no production access yet
    response = await portal.submit("/chaves", {"nome": "produção"})
    assert response.status == 409
    page = await response.text()
    assert "acesso de produção ainda não foi liberado" in page
    assert await ChaveApi.filter(ambiente="producao", nome="produção").count() == 0
    # released, but the current contract not accepted yet: the page says which
    usuario = await Usuario.get(email=owner.email)
    await Integrador.filter(id=usuario.integrador_id).update(
        producao_situacao="liberada", producao_liberacao="automatica"
    )
    response = await portal.submit("/chaves", {"nome": "produção"})
    assert response.status == 409 and "contrato" in await response.text()
    await contrato.aceitar(usuario.integrador_id, (await contrato.vigente()).versao, por="Dona Ana")
    response = await portal.submit("/chaves", {"nome": "produção"})
    assert response.status == 201 and "sk_live_" in await response.text()


async def test_re_authentication_lasts_five_minutes(portal, owner):
    await portal.switch("producao")
    await portal.submit("/reautenticar", {"senha": owner.senha, "proximo": "/chaves"}, token_from="/reautenticar")
    await Sessao.filter(id=senhas.token_hash(portal.session)).update(
        reautenticado_em=datetime.now(UTC) - timedelta(minutes=6)
    )
    response = await portal.submit("/chaves", {"nome": "tarde demais"})
    assert response.status == 303 and response.headers["Location"].startswith("/reautenticar")


async def test_sign_in_is_limited_per_e_mail(portal, new_portal, owner):
    await portal.signout()
    wrong = type(owner)(owner.email, "senha-errada-demais")
    for _ in range(autenticacao.MAX_FAILURES_PER_EMAIL):
        response = await portal.signin(wrong)
        assert response.status == 401
        assert "E-mail ou senha incorretos." in await response.text()
    # even the right password is refused now, with how long to wait
    response = await portal.signin(owner)
    assert response.status == 429
    assert 0 < int(response.headers["Retry-After"]) <= 15 * 60
    assert "Muitas senhas erradas" in await response.text()
    assert portal.session is None
    # another person on the same address is not locked by this e-mail's failures
    other = await new_portal()
    pessoa = await other.signup()
    await other.signout()
    assert (await other.signin(pessoa)).status == 303


async def test_sign_in_is_limited_per_address(portal, owner):
    await portal.signout()
    for n in range(autenticacao.MAX_FAILURES_PER_IP):
        response = await portal.signin(type(owner)(f"ninguem{n}@exemplo.test", "qualquer-coisa"))
        assert response.status == 401
    response = await portal.signin(owner)
    assert response.status == 429 and "Retry-After" in response.headers


async def test_unknown_and_known_e_mails_get_the_same_answer(portal, owner):
    await portal.signout()
    unknown = await portal.signin(type(owner)("nao-existe@exemplo.test", owner.senha))
    wrong = await portal.signin(type(owner)(owner.email, "outra-senha-qualquer"))
    assert unknown.status == wrong.status == 401
    assert "E-mail ou senha incorretos." in await unknown.text()
    assert "E-mail ou senha incorretos." in await wrong.text()


async def test_cookie_flags_and_security_headers(client, portal):
    response = await portal.submit(
        "/cadastro",
        {
            "empresa": "Flags",
            "emailAlertas": "a@flags.test",
            "nome": "F",
            "email": "f@flags.test",
            "senha": "senha-com-flags",
        },
    )
    cookie = response.cookies[SESSION_COOKIE]
    assert cookie["httponly"] is True and cookie["samesite"] == "Lax" and cookie["path"] == "/"
    assert not cookie["secure"]  # served over http in this test
    page = await portal.get("/visao-geral")
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]
    assert page.headers["X-Frame-Options"] == "DENY" and page.headers["Cache-Control"] == "no-store"
    assert page.headers["Server-Timing"].startswith("app;dur=")


async def test_the_cookie_is_secure_when_served_over_https(client, portal):
    token = await portal.csrf("/cadastro")
    # given the service published at an https address (this test's own app instance)
    client.app[RUNTIME].settings.public_url = "https://portal.test"
    response = await client.post(
        "/cadastro",
        allow_redirects=False,
        data={
            "csrf": token,
            "empresa": "Segura",
            "emailAlertas": "a@segura.test",
            "nome": "S",
            "email": "s@segura.test",
            "senha": "senha-segura-https",
        },
    )
    assert response.cookies[SESSION_COOKIE]["secure"] is True


async def test_an_expired_session_sends_to_sign_in(portal, owner):
    await Sessao.filter(id=senhas.token_hash(portal.session)).update(expira_em=datetime.now(UTC) - timedelta(seconds=1))
    response = await portal.get("/chaves")
    assert response.status == 303 and response.headers["Location"] == "/entrar?proximo=/chaves"


async def test_sign_in_returns_only_to_local_pages(portal, owner):
    await portal.signout()
    response = await portal.signin(owner, proximo="//evil.example/roubo")
    assert response.headers["Location"] == "/visao-geral"
    await portal.signout()
    response = await portal.signin(owner, proximo="/chamadas?status=4xx")
    assert response.headers["Location"] == "/chamadas?status=4xx"


async def test_htmx_requests_without_a_session_are_redirected_by_header(client, new_portal):
    stranger = await new_portal()
    response = await stranger.get("/chamadas/lista", headers={"HX-Request": "true"})
    assert response.status == 204 and response.headers["HX-Redirect"].startswith("/entrar")


@pytest.mark.parametrize("cookie", [SESSION_COOKIE, SELLER_COOKIE, ANON_COOKIE])
@pytest.mark.parametrize("path", ["/entrar", "/visao-geral", "/vendedor/entrar", "/nao-existe"])
async def test_a_cookie_whose_bytes_are_not_utf8_is_a_stranger_not_a_500(client, cookie, path):
    """Our cookies are URL-safe ASCII: one with other bytes was never ours, and the page answers
    as to a browser without it (sign-in, redirect, 404), never with an error of the service."""
    # given a browser that sends one of our cookies with bytes that are not UTF-8
    request = f"GET {path} HTTP/1.1\r\nHost: vitrine\r\nConnection: close\r\n".encode() + f"Cookie: {cookie}=".encode()
    # when it asks for a page
    status, headers = await raw_http(client, request + b"\xff\xfe-planted\r\n\r\n")
    # then it gets what a browser without that cookie gets
    plain, plain_headers = await raw_http(client, request.rsplit(b"Cookie", 1)[0] + b"\r\n")
    assert status == plain and status < 500
    assert headers.get("location", "").split("?")[0] == plain_headers.get("location", "").split("?")[0]
