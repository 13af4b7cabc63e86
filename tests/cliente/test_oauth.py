"""The client's OAuth helpers against the running service: the authorisation address with PKCE
S256 and state, the seller's consent on the real consent screen (a browser-like client), the
code exchange, calls with the token, refresh before expiry and after a 401, and revocation."""

import asyncio
import base64
import dataclasses
import hashlib
import time
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.portal.conftest import Browser
from vitrine_client import AppOAuth, AsyncAppOAuth, AsyncVitrine, ErroOAuth, NaoAutorizado, Proibido, Vitrine

REDIRECT = "https://app.integradora.test/callback"
ESCOPOS = ["contas:ler", "produtos:ler", "produtos:escrever", "geracoes:ler"]


@pytest.fixture
async def vendedor(client) -> Browser:
    """A seller signed up and signed in, in a browser-like client of the running service."""
    navegador = Browser(client)
    await navegador.seller_signup(nome="Loja do Cliente")
    return navegador


async def consentir(vendedor: Browser, url: str, decisao: str = "autorizar") -> str:
    """The seller presses Autorizar (or Cancelar) on the consent screen at `url`; the address the
    browser is sent back to."""
    partes = urlsplit(url)
    caminho = f"{partes.path}?{partes.query}"
    resposta = await vendedor.submit(
        "/oauth/autorizar", dict(parse_qs(partes.query), decisao=decisao), token_from=caminho
    )
    assert resposta.status in (302, 303), await resposta.text()
    return resposta.headers["Location"]


async def test_authorisation_code_with_pkce_then_calls_refresh_and_revocation(
    servico, oauth, integrator, vendedor, settings
):
    registrado = await oauth.app(integrator, redirect_uri=REDIRECT)
    app = AsyncAppOAuth(
        registrado.client_id, registrado.client_secret, redirect_uri=REDIRECT, url=servico, emissor=settings.base_url
    )
    # the address: S256 challenge of a fresh verifier, the state, the scopes
    pedido = app.autorizacao(escopos=ESCOPOS)
    consulta = {k: v[0] for k, v in parse_qs(urlsplit(pedido.url).query).items()}
    assert pedido.url.startswith(servico + "/oauth/autorizar?")
    assert 43 <= len(pedido.code_verifier) <= 128
    desafio = base64.urlsafe_b64encode(hashlib.sha256(pedido.code_verifier.encode()).digest()).rstrip(b"=").decode()
    assert consulta["code_challenge"] == desafio and consulta["code_challenge_method"] == "S256"
    assert consulta["state"] == pedido.state and consulta["scope"] == " ".join(ESCOPOS)
    assert app.autorizacao().code_verifier != pedido.code_verifier  # a new verifier each time
    # the seller consents; the callback's state (and iss) are checked, the code exchanged
    codigo = app.ler_retorno(await consentir(vendedor, pedido.url), state=pedido.state)
    tokens = await app.trocar_codigo(codigo, pedido.code_verifier)
    assert tokens.access_token.startswith("oat_test_") and tokens.conta_id.startswith("cta_")
    assert tokens.expira_em > time.time() + 3000

    renovados = []
    autenticacao = app.autenticacao(tokens, ao_renovar=renovados.append)
    async with AsyncVitrine(oauth=autenticacao, url=servico) as cliente:
        # the token sees only the linked account, and no integrator-only route
        assert [c.id async for c in cliente.contas.listar()] == [tokens.conta_id]
        with pytest.raises(Proibido):
            await cliente.saldo.obter()
        # about to expire: refreshed before the calls, once for five calls at the same time
        autenticacao.tokens = dataclasses.replace(autenticacao.tokens, expira_em=time.time() + 5)
        contas = await asyncio.gather(*(cliente.contas.obter(tokens.conta_id) for _ in range(5)))
        assert {c.id for c in contas} == {tokens.conta_id}
        assert len(renovados) == 1 and renovados[0].refresh_token != tokens.refresh_token
        assert autenticacao.tokens == renovados[0]
        # a token the service no longer takes: a 401, a refresh, the call again
        autenticacao.tokens = dataclasses.replace(autenticacao.tokens, access_token="oat_test_" + "x" * 40)
        assert (await cliente.contas.obter(tokens.conta_id)).id == tokens.conta_id
        assert len(renovados) == 2
        # revoking ends the whole authorisation: the 401, the refresh refused, NaoAutorizado
        await app.revogar(autenticacao.tokens.refresh_token)
        with pytest.raises(NaoAutorizado):
            await cliente.contas.obter(tokens.conta_id)


async def test_a_public_app_with_the_sync_client(servico, oauth, integrator, vendedor):
    registrado = await oauth.app(integrator, tipo="publico", redirect_uri=REDIRECT)
    assert registrado.client_secret is None
    app = AppOAuth(registrado.client_id, redirect_uri=REDIRECT, url=servico)
    pedido = app.autorizacao()  # every scope the app is allowed
    assert "scope=" not in pedido.url
    retorno = await consentir(vendedor, pedido.url)

    def integrar() -> tuple[str, str]:
        tokens = app.trocar_codigo(app.ler_retorno(retorno, state=pedido.state), pedido.code_verifier)
        renovados = app.renovar(tokens.refresh_token, escopos=["contas:ler"])  # a smaller scope
        with Vitrine(oauth=app.autenticacao(renovados), url=servico) as cliente:
            return cliente.contas.obter(tokens.conta_id).id, renovados.scope

    conta_id, escopo = await asyncio.to_thread(integrar)
    assert conta_id.startswith("cta_") and escopo == "contas:ler"


async def test_refusals_of_the_flow_raise_erro_oauth(servico, oauth, integrator, vendedor):
    registrado = await oauth.app(integrator, redirect_uri=REDIRECT)
    app = AsyncAppOAuth(registrado.client_id, registrado.client_secret, redirect_uri=REDIRECT, url=servico)
    # the seller cancels
    pedido = app.autorizacao(escopos=ESCOPOS)
    with pytest.raises(ErroOAuth) as levantado:
        app.ler_retorno(await consentir(vendedor, pedido.url, "cancelar"), state=pedido.state)
    assert levantado.value.erro == "access_denied"
    # a callback with another state (a forged one)
    pedido = app.autorizacao(escopos=ESCOPOS)
    retorno = await consentir(vendedor, pedido.url)
    with pytest.raises(ErroOAuth) as levantado:
        app.ler_retorno(retorno, state="outro-state")
    assert levantado.value.erro == "state_invalido"
    # the code with another verifier
    codigo = app.ler_retorno(retorno, state=pedido.state)
    with pytest.raises(ErroOAuth) as levantado:
        await app.trocar_codigo(codigo, "v" * 50)
    assert levantado.value.erro == "invalid_grant" and levantado.value.status == 400
    # a refresh the service refuses, needed before a call: the call raises it
    pedido = app.autorizacao(escopos=ESCOPOS)
    codigo = app.ler_retorno(await consentir(vendedor, pedido.url), state=pedido.state)
    tokens = await app.trocar_codigo(codigo, pedido.code_verifier)
    vencido = dataclasses.replace(tokens, expira_em=time.time() - 1, refresh_token="ort_" + "0" * 40)
    async with AsyncVitrine(oauth=app.autenticacao(vencido), url=servico) as cliente:
        with pytest.raises(ErroOAuth) as levantado:
            await cliente.contas.obter(tokens.conta_id)
    assert levantado.value.erro == "invalid_grant"
