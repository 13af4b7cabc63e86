"""The OAuth apps page, through real HTTP: confidential and public apps, the client_secret shown
once, rotation (the previous secret stops at once), edits, disabling for good, the limit of 10
active apps (also under concurrent creations), every redirect URI rule, scopes, production access
and the password, roles, tenancy and CSRF."""

import asyncio
import re

import pytest

from graphql_api.oauth import segredos
from graphql_api.oauth.cache import CACHE_TOPIC
from graphql_api.oauth.escopos import DESCRICOES
from graphql_api.oauth.models import AppOAuth
from tests.factories import Integrator
from tests.portal.conftest import integrador_id, join

_CLIENT_ID = re.compile(r'id="client-id"[^>]* value="(app_[0-9a-z]{26})"')
_SECRET = re.compile(r'id="client-secret"[^>]* value="(cs_(?:test|live)_[A-Za-z0-9]{40})"')
_ONCE = "Esta é a única vez que o <code>client_secret</code> aparece"
URI = "https://loja.exemplo.com.br/oauth/retorno"


def app_form(**overrides) -> dict:
    return {
        "nome": "Conector da Loja",
        "tipo": "confidencial",
        "redirectUris": URI,
        "escopos": ["produtos:ler", "geracoes:criar"],
    } | overrides


async def register(portal, **overrides) -> tuple[str, str | None]:
    """Register an app on the page; (its client_id, the secret shown once or None)."""
    response = await portal.submit("/apps", app_form(**overrides))
    assert response.status == 201, await response.text()
    assert response.headers["Cache-Control"] == "no-store"
    page = await response.text()
    secret = _SECRET.search(page)
    return _CLIENT_ID.search(page).group(1), secret.group(1) if secret else None


@pytest.fixture
def published(client, monkeypatch):
    """The topics the service published on the invalidation bus during the test (the calls
    themselves: with Redis each one also comes back to this process from the channel)."""
    from vitrine.keys import RUNTIME

    bus = client.app[RUNTIME].bus
    publish = bus.publish
    topics: list[str] = []

    async def recorded(topic: str) -> None:
        topics.append(topic)
        await publish(topic)

    monkeypatch.setattr(bus, "publish", recorded)
    return topics


async def test_a_confidential_app_shows_its_secret_once_and_keeps_only_the_hash(portal, owner, published):
    # given an empty page offering every OAuth scope in plain Portuguese, and only those
    page = await portal.page("/apps")
    assert "Nenhum app OAuth de teste ainda" in page
    for escopo, descricao in DESCRICOES.items():
        assert f'name="escopos" value="{escopo}"' in page and descricao in page
    assert 'value="contas:escrever"' not in page and 'value="avisos:gerenciar"' not in page
    # when a confidential app is registered
    response = await portal.submit("/apps", app_form(redirectUris=f"{URI}\n\nhttp://localhost:8080/retorno\n"))
    assert response.status == 201
    page = await response.text()
    client_id, secret = _CLIENT_ID.search(page).group(1), _SECRET.search(page).group(1)
    assert _ONCE in page and secret.startswith("cs_test_")
    # then only the secret's hash and its last 4 characters are kept
    app = await AppOAuth.get(id=client_id)
    assert app.hash_segredo == segredos.resumo(secret) and secret not in (app.hash_segredo or "")
    assert segredos.confere(app.hash_segredo, secret) and app.final_segredo == secret[-4:]
    assert (app.integrador_id, app.ambiente, app.nome, app.tipo, app.situacao) == (
        await integrador_id(owner),
        "teste",
        "Conector da Loja",
        "confidencial",
        "ativo",
    )
    assert app.redirect_uris == [URI, "http://localhost:8080/retorno"]
    assert app.escopos == ["produtos:ler", "geracoes:criar"]
    # and no page shows the secret again
    listing = await portal.page("/apps")
    assert client_id in listing and "Conector da Loja" in listing and secret not in listing
    detail = await portal.page(f"/apps/{client_id}")
    assert f"cs_test_…{secret[-4:]}" in detail and secret not in detail and _ONCE not in detail
    assert published == []  # a new app has nothing cached anywhere


async def test_a_public_app_has_no_secret_to_show_or_rotate(portal, owner, published):
    client_id, secret = await register(portal, tipo="publico", nome="App do Celular")
    assert secret is None
    assert published == [CACHE_TOPIC]  # its origins are allowed by CORS in every process at once
    app = await AppOAuth.get(id=client_id)
    assert app.tipo == "publico" and app.hash_segredo is None and app.final_segredo is None
    detail = await portal.page(f"/apps/{client_id}")
    assert "sem segredo (app público)" in detail and "Rotacionar segredo" not in detail
    response = await portal.submit(f"/apps/{client_id}/segredo", {}, token_from=f"/apps/{client_id}")
    assert response.status == 409 and "Apps públicos não têm segredo" in await response.text()
    assert (await AppOAuth.get(id=client_id)).hash_segredo is None


async def test_rotating_the_secret_invalidates_the_previous_one_at_once(portal, owner, published):
    client_id, old = await register(portal)
    confirm = await portal.page(f"/apps/{client_id}/segredo")
    assert '<option value="0" selected>Nada: o segredo atual deixa de valer na hora</option>' in confirm  # the default
    response = await portal.submit(f"/apps/{client_id}/segredo", {})
    assert response.status == 200 and response.headers["Cache-Control"] == "no-store"
    page = await response.text()
    new = _SECRET.search(page).group(1)
    assert new != old and _ONCE in page and "O segredo anterior deixou de valer agora" in page
    assert _CLIENT_ID.search(page).group(1) == client_id
    app = await AppOAuth.get(id=client_id)
    assert not segredos.confere(app.hash_segredo, old) and segredos.confere(app.hash_segredo, new)
    assert app.final_segredo == new[-4:] and app.segredo_rotacionado_em is not None
    assert published == [CACHE_TOPIC]  # every process forgets the old secret
    detail = await portal.page(f"/apps/{client_id}")
    assert new not in detail and f"cs_test_…{new[-4:]}" in detail and "Segredo rotacionado em" in detail


async def test_a_rotation_with_an_overlap_window_keeps_both_secrets_until_it_ends(
    client, portal, owner, oauth, published, relogio
):
    from authlib.integrations.base_client.errors import OAuthError
    from authlib.integrations.httpx_client import AsyncOAuth2Client

    from tests.factories import OAuthApp

    base = str(client.make_url("")).rstrip("/")
    client_id, old = await register(portal, escopos=["contas:ler"])
    app = OAuthApp(client_id, old, URI, Integrator(await integrador_id(owner), ""))
    tokens = await oauth.tokens(app, await oauth.consentir(app))

    async def renovar(secret: str, refresh_token: str) -> dict:
        """The integrator's server renewing with authlib's client and this secret (HTTP Basic)."""
        async with AsyncOAuth2Client(client_id=client_id, client_secret=secret) as servidor:
            return await servidor.refresh_token(f"{base}/oauth/token", refresh_token=refresh_token)

    # the page asks how long the current secret keeps working; 24 hours chosen
    confirm = await portal.page(f"/apps/{client_id}/segredo")
    for opcao in ("1 hora", "24 horas", "3 dias", "7 dias"):
        assert f">{opcao}</option>" in confirm
    response = await portal.submit(f"/apps/{client_id}/segredo", {"carenciaHoras": "24"})
    assert response.status == 200, await response.text()
    page = await response.text()
    new = _SECRET.search(page).group(1)
    assert f'O segredo anterior (<span class="mono">…{old[-4:]}</span>) continua valendo até' in page
    assert published == [CACHE_TOPIC]
    # the app's page says two secrets work, and until when
    detail = await portal.page(f"/apps/{client_id}")
    assert "Dois segredos valem até" in detail
    assert f"cs_test_…{new[-4:]}" in detail and f"cs_test_…{old[-4:]}" in detail
    # both authenticate during the window
    renewed = await renovar(old, tokens["refresh_token"])
    renewed = await renovar(new, renewed["refresh_token"])
    # and the window ends by itself: the previous secret is invalid_client, the new one goes on
    relogio.avancar(hours=24, seconds=1)
    with pytest.raises(OAuthError) as refused:
        await renovar(old, renewed["refresh_token"])
    assert refused.value.error == "invalid_client"
    await renovar(new, renewed["refresh_token"])
    await portal.signin(owner)  # 24 hours later: the session ended
    detail = await portal.page(f"/apps/{client_id}")
    assert "Dois segredos valem até" not in detail and f"…{old[-4:]}" not in detail


async def test_a_rotation_inside_a_window_ends_the_oldest_and_the_window_is_checked(portal, owner):
    from graphql_api.oauth.apps import segredo_confere

    client_id, first = await register(portal)
    response = await portal.submit(f"/apps/{client_id}/segredo", {"carenciaHoras": "168"})
    second = _SECRET.search(await response.text()).group(1)
    confirm = await portal.page(f"/apps/{client_id}/segredo")
    assert f'O segredo anterior (<span class="mono">…{first[-4:]}</span>) ainda vale até' in confirm
    response = await portal.submit(f"/apps/{client_id}/segredo", {"carenciaHoras": "1"})
    third = _SECRET.search(await response.text()).group(1)
    app = await AppOAuth.get(id=client_id)
    assert [segredo_confere(app, s) for s in (first, second, third)] == [False, True, True]
    # a window outside 0 to 7 days is refused beside the field, and nothing changes
    for carencia, motivo in (("169", "A carência vai de 0"), ("-1", "foram -1"), ("dois dias", "inteiro")):
        response = await portal.submit(f"/apps/{client_id}/segredo", {"carenciaHoras": carencia})
        assert response.status == 422, carencia
        page = await response.text()
        assert 'id="erro-carenciaHoras"' in page and motivo in page, page[page.find("erro-carenciaHoras") :][:300]
        assert _SECRET.search(page) is None
    assert (await AppOAuth.get(id=client_id)).hash_segredo == app.hash_segredo


async def test_editing_name_redirect_uris_and_scopes(portal, owner, published):
    client_id, secret = await register(portal)
    detail = await portal.page(f"/apps/{client_id}")
    assert URI in detail and 'value="produtos:ler" checked' in detail
    response = await portal.submit(
        f"/apps/{client_id}",
        {
            "nome": "Conector v2",
            "redirectUris": "https://a.exemplo.com/cb\nhttps://b.exemplo.com/cb?x=1",
            "escopos": ["contas:ler"],
        },
    )
    assert response.status == 303 and response.headers["Location"] == f"/apps/{client_id}?aviso=app_atualizado"
    app = await AppOAuth.get(id=client_id)
    assert app.nome == "Conector v2" and app.escopos == ["contas:ler"]
    assert app.redirect_uris == ["https://a.exemplo.com/cb", "https://b.exemplo.com/cb?x=1"]
    assert segredos.confere(app.hash_segredo, secret) and app.tipo == "confidencial"  # untouched
    assert published == [CACHE_TOPIC]
    assert "App atualizado" in await portal.page(response.headers["Location"])
    # a refused edit changes nothing and says why beside each field
    response = await portal.submit(
        f"/apps/{client_id}",
        {"nome": "", "redirectUris": "http://exemplo.com/cb\nhttps://ok.exemplo.com/x#y", "escopos": []},
    )
    assert response.status == 422
    page = await response.text()
    assert 'id="erro-nome"' in page and 'id="erro-escopos"' in page and "Escolha pelo menos um escopo" in page
    assert "Endereço 1 (http://exemplo.com/cb): precisa usar https://" in page
    assert "Endereço 2 (https://ok.exemplo.com/x#y): não pode ter fragmento" in page
    assert (await AppOAuth.get(id=client_id)).nome == "Conector v2" and published == [CACHE_TOPIC]


async def test_a_native_apps_addresses_follow_its_type_on_registration_and_edit(portal, owner):
    """A public app (installed on the seller's device) may come back through the loopback
    interface or its own scheme (RFC 8252); the edit form is checked by the edited app's type."""
    nativo = "com.exemplo.app:/oauth/volta\nhttp://127.0.0.1/oauth/volta"
    client_id, _ = await register(portal, tipo="publico", redirectUris=nativo)
    assert (await AppOAuth.get(id=client_id)).redirect_uris == nativo.split("\n")
    page = await portal.page(f"/apps/{client_id}")
    assert "com.exemplo.app:/volta" in page  # the field's hint says what a native app may use
    response = await portal.submit(
        f"/apps/{client_id}",
        {
            "nome": "App do Celular",
            "redirectUris": "com.exemplo.app:/nova\nhttp://[::1]/volta",
            "escopos": ["contas:ler"],
        },
    )
    assert response.status == 303, await response.text()
    assert (await AppOAuth.get(id=client_id)).redirect_uris == ["com.exemplo.app:/nova", "http://[::1]/volta"]
    # a confidential app's page refuses them, saying why
    confidencial, _ = await register(portal)
    response = await portal.submit(
        f"/apps/{confidencial}",
        {"nome": "Conector", "redirectUris": "com.exemplo.app:/nova", "escopos": ["contas:ler"]},
    )
    assert response.status == 422 and "só valem para apps públicos" in await response.text()


async def test_disabling_is_for_good(portal, owner, published):
    client_id, secret = await register(portal)
    confirm = await portal.page(f"/apps/{client_id}/desativar")
    assert "Isso não pode ser desfeito" in confirm and client_id in confirm
    response = await portal.submit(f"/apps/{client_id}/desativar", {})
    assert response.status == 303 and response.headers["Location"] == "/apps?aviso=app_desativado"
    app = await AppOAuth.get(id=client_id)
    assert app.situacao == "desativado" and app.desativado_em is not None
    assert published == [CACHE_TOPIC]
    detail = await portal.page(f"/apps/{client_id}")
    assert (
        "A desativação é definitiva" in detail and 'action="/apps/' not in detail and "Rotacionar segredo" not in detail
    )
    # nothing changes a disabled app any more
    response = await portal.submit(
        f"/apps/{client_id}", {"nome": "De volta", "redirectUris": URI, "escopos": ["contas:ler"]}, token_from="/apps"
    )
    assert response.status == 409 and "Este app OAuth está desativado" in await response.text()
    response = await portal.submit(f"/apps/{client_id}/segredo", {}, token_from="/apps")
    assert response.status == 409
    # disabling again is harmless
    response = await portal.submit(f"/apps/{client_id}/desativar", {}, token_from="/apps")
    assert response.status == 303
    after = await AppOAuth.get(id=client_id)
    assert (after.nome, after.hash_segredo, after.desativado_em) == (app.nome, app.hash_segredo, app.desativado_em)
    assert published == [CACHE_TOPIC]


async def test_ten_active_apps_at_most_and_disabled_ones_do_not_count(portal, owner):
    ids = [(await register(portal, nome=f"App {n}", tipo="publico"))[0] for n in range(10)]
    response = await portal.submit("/apps", app_form(nome="App 11"))
    assert response.status == 409
    page = await response.text()
    assert "Este integrador já tem 10 apps OAuth ativos" in page and "Desative um app que não usa mais" in page
    assert 'value="App 11"' in page  # the form keeps what was typed
    assert await AppOAuth.filter(nome="App 11").count() == 0
    await portal.submit(f"/apps/{ids[0]}/desativar", {}, token_from="/apps")
    await register(portal, nome="App 11")


async def test_two_creations_at_once_cannot_pass_the_limit_together(portal, owner):
    for n in range(9):
        await register(portal, nome=f"App {n}", tipo="publico")
    responses = await asyncio.gather(*(portal.submit("/apps", app_form(nome=f"Corrida {n}")) for n in range(2)))
    assert sorted(r.status for r in responses) == [201, 409]
    itg = await integrador_id(owner)
    assert await AppOAuth.filter(integrador_id=itg, situacao="ativo").count() == 10


@pytest.mark.parametrize(
    ("uris", "message"),
    [
        ("http://loja.exemplo.com/cb", "Endereço 1 (http://loja.exemplo.com/cb): precisa usar https://"),
        ("ftp://loja.exemplo.com/cb", "precisa ser um endereço completo começando com https://"),
        ("/oauth/retorno", "precisa ser um endereço completo começando com https://"),
        ("http://localhost/cb", "http://localhost precisa da porta"),
        ("com.exemplo.app:/volta", "esquemas próprios (com.exemplo.app:/…) só valem para apps públicos"),
        ("https://loja.exemplo.com/cb#inicio", "não pode ter fragmento"),
        ("https://*.exemplo.com/cb", "curingas (*) não são aceitos"),
        ("https://loja.exemplo.com/*", "curingas (*) não são aceitos"),
        ("https://usuario:senha@loja.exemplo.com/cb", "não pode ter usuário nem senha"),
        ("https://loja.exemplo.com/a b", "tem espaços"),
        ("https://" + "a" * 2000 + ".com/", "passa de 2000 caracteres"),
        (
            "\n".join(f"https://loja.exemplo.com/{n}" for n in range(6)),
            "No máximo 5 endereços de retorno por app; foram 6.",
        ),
        (f"{URI}\nhttps://outra.exemplo.com/cb\n{URI}", f"Endereço 3 ({URI}): repete o endereço 1."),
        ("", "Informe pelo menos um endereço de retorno"),
    ],
)
async def test_each_redirect_uri_rule_is_explained_beside_the_field(portal, owner, uris, message):
    response = await portal.submit("/apps", app_form(redirectUris=uris))
    assert response.status == 422
    page = await response.text()
    assert 'id="erro-redirectUris"' in page and message in page
    assert await AppOAuth.filter(integrador_id=await integrador_id(owner)).count() == 0


async def test_test_apps_may_return_to_the_developers_machine_with_a_port(portal, owner):
    uris = "http://localhost:8080/retorno\nhttp://127.0.0.1:3000/cb\nhttps://localhost:8443/cb"
    client_id, _ = await register(portal, redirectUris=uris)
    assert (await AppOAuth.get(id=client_id)).redirect_uris == uris.split("\n")


async def test_production_apps_need_production_access_the_password_and_https(portal, owner):
    itg = Integrator(await integrador_id(owner), "")
    await portal.switch("producao")
    # before production access: said before the attempt, and refused with the way to get it
    page = await portal.page("/apps")
    assert "Ainda não é possível registrar apps de produção" in page and 'href="/integracao"' in page
    response = await portal.submit("/apps", app_form())
    assert response.status == 409
    page = await response.text()
    assert "Apps OAuth de produção só podem ser criados com o acesso de produção liberado" in page
    assert "conclua as 8 etapas de integração" in page and 'href="/integracao"' in page
    assert await AppOAuth.filter(integrador_id=itg.id).count() == 0
    # released: the password first
    from tests.factories import Factory

    await Factory(portal.client).released(itg)
    assert "Ainda não é possível registrar apps de produção" not in await portal.page("/apps")
    response = await portal.submit("/apps", app_form(), headers={"Referer": str(portal.client.make_url("/apps"))})
    assert response.status == 303 and response.headers["Location"] == "/reautenticar?proximo=/apps"
    await portal.reauthenticate(owner, proximo="/apps")
    # production apps take https only, not even localhost
    response = await portal.submit("/apps", app_form(redirectUris="http://localhost:8080/cb"))
    assert response.status == 422 and "apps de produção só aceitam https://" in await response.text()
    client_id, secret = await register(portal)
    assert secret.startswith("cs_live_")
    assert (await AppOAuth.get(id=client_id)).ambiente == "producao"
    # the production app is not visible from the test environment
    await portal.switch("teste")
    assert client_id not in await portal.page("/apps")
    assert (await portal.get(f"/apps/{client_id}")).status == 404


async def test_integrator_only_scopes_are_refused_with_the_reason(portal, owner):
    response = await portal.submit("/apps", app_form(escopos=["produtos:ler", "contas:escrever", "creditos:comprar"]))
    assert response.status == 422
    page = await response.text()
    assert 'id="erro-escopos"' in page
    assert "contas:escrever, creditos:comprar: só a chave de API do integrador tem esses escopos" in page
    response = await portal.submit("/apps", app_form(escopos=["produtos:apagar"]))
    assert response.status == 422 and "Escopos desconhecidos: produtos:apagar" in await response.text()
    assert await AppOAuth.filter(integrador_id=await integrador_id(owner)).count() == 0


async def test_another_integrators_app_is_not_found(portal, owner, new_portal):
    client_id, _ = await register(portal)
    other = await new_portal()
    await other.signup()
    assert client_id not in await other.page("/apps")
    assert (await other.get(f"/apps/{client_id}")).status == 404
    for path, data in (
        (f"/apps/{client_id}", app_form(nome="Roubado")),
        (f"/apps/{client_id}/segredo", {}),
        (f"/apps/{client_id}/desativar", {}),
    ):
        response = await other.submit(path, data, token_from="/apps")
        assert response.status == 404, path
    app = await AppOAuth.get(id=client_id)
    assert app.nome == "Conector da Loja" and app.situacao == "ativo"
    assert (await other.get("/apps/app_naoexiste")).status == 404


async def test_developers_manage_apps_finance_only_reads(portal, owner, new_portal):
    client_id, _ = await register(portal)
    developer, _ = await join(portal, new_portal, "Davi Dev", "desenvolvedor")
    assert 'action="/apps"' in await developer.page("/apps")
    dev_app, _ = await register(developer, nome="App do Davi")
    finance, _ = await join(portal, new_portal, "Fabi Finanças", "financeiro")
    assert 'href="/apps"' in await finance.page("/visao-geral")
    listing = await finance.page("/apps")
    assert client_id in listing and dev_app in listing and 'action="/apps"' not in listing
    detail = await finance.page(f"/apps/{client_id}")
    assert URI in detail and "Rotacionar segredo" not in detail and "Desativar" not in detail
    response = await finance.submit("/apps", app_form(nome="App da Fabi"), token_from="/apps")
    assert response.status == 403 and "apps:gerenciar" in await response.text()
    for path in (f"/apps/{client_id}/segredo", f"/apps/{client_id}/desativar"):
        assert (await finance.submit(path, {}, token_from="/apps")).status == 403
    assert await AppOAuth.filter(nome="App da Fabi").count() == 0
    assert (await AppOAuth.get(id=client_id)).situacao == "ativo"


async def test_every_app_form_needs_the_csrf_token(portal, owner):
    client_id, secret = await register(portal)
    for path, data in (
        ("/apps", app_form(nome="Sem token")),
        (f"/apps/{client_id}", app_form(nome="Sem token")),
        (f"/apps/{client_id}/segredo", {}),
        (f"/apps/{client_id}/desativar", {}),
    ):
        for token in (None, "0" * 64):
            body = data | ({"csrf": token} if token else {})
            response = await portal.client.post(path, data=body, allow_redirects=False)
            assert response.status == 403, path
            assert "CSRF" in await response.text()
    app = await AppOAuth.get(id=client_id)
    assert app.nome == "Conector da Loja" and app.situacao == "ativo" and segredos.confere(app.hash_segredo, secret)
    assert await AppOAuth.filter(nome="Sem token").count() == 0


async def test_staff_read_apps_and_api_keys_never_reach_them(client, portal, owner):
    from graphql_api.core.context import Context
    from graphql_api.core.errors import ApiError
    from graphql_api.core.principal import ALL_SCOPES, Ambiente, CredentialKind, Principal
    from graphql_api.executor import Operation, run
    from graphql_api.operations import apps as ops
    from tests.api.test_integracao import graphql, staff_token
    from vitrine.keys import RUNTIME

    client_id, _ = await register(portal)
    itg = await integrador_id(owner)
    token = await staff_token()
    query = "query($i: String) { appsOAuth(integradorId: $i) { clientId tipo situacao escopos } }"
    _, body = await graphql(client, token, query, i=itg)
    assert body["data"]["appsOAuth"] == [
        {
            "clientId": client_id,
            "tipo": "confidencial",
            "situacao": "ativo",
            "escopos": ["produtos:ler", "geracoes:criar"],
        }
    ]
    _, body = await graphql(client, token, "query($id: ID!) { appOAuth(id: $id) { nome ambiente } }", id=client_id)
    assert body["data"]["appOAuth"] == {"nome": "Conector da Loja", "ambiente": "teste"}
    _, body = await graphql(client, token, "{ appsOAuth { clientId } }")
    assert body["errors"][0]["extensions"]["fields"][0]["campo"] == "integradorId"
    _, body = await graphql(
        client, token, "mutation($id: ID!) { desativarAppOAuth(id: $id) { situacao } }", id=client_id
    )
    assert body["errors"][0]["extensions"]["type"] == "FORBIDDEN"
    assert (await AppOAuth.get(id=client_id)).situacao == "ativo"
    # the integrator's API key, were a door to run these operations with it: refused inside the schema
    chave = Principal(kind=CredentialKind.API_KEY, ambiente=Ambiente.TESTE, scopes=ALL_SCOPES, integrador_id=itg)
    context = Context(runtime=client.app[RUNTIME], principal=chave)
    for operation, variables in ((ops.LISTAR_APPS, {}), (ops.DESATIVAR_APP, {"id": client_id})):
        with pytest.raises(ApiError) as refused:
            await run(operation, context, variables)
        assert refused.value.type == "FORBIDDEN"
    # a person naming another integrator is told that only staff do that
    pessoa = Principal(kind=CredentialKind.PORTAL, ambiente=Ambiente.TESTE, scopes=frozenset(), integrador_id=itg)
    other = Operation("query OutroIntegrador($i: String) { appsOAuth(integradorId: $i) { clientId } }")
    with pytest.raises(ApiError) as refused:
        await run(other, Context(runtime=client.app[RUNTIME], principal=pessoa), {"i": "itg_outro"})
    assert refused.value.type == "FORBIDDEN"
    mine = await run(other, Context(runtime=client.app[RUNTIME], principal=pessoa), {"i": itg})
    assert mine["appsOAuth"] == [{"clientId": client_id}]
    assert (await AppOAuth.get(id=client_id)).situacao == "ativo"


async def test_what_the_page_changes_reaches_the_oauth_endpoints_at_once(client, portal, owner, oauth):
    from tests.factories import OAuthApp, auth

    # an app registered on the page, authorised by a seller, with its tokens
    client_id, old = await register(portal, escopos=["contas:ler"])
    app = OAuthApp(client_id, old, URI, Integrator(await integrador_id(owner), ""))
    tokens = await oauth.tokens(app, await oauth.consentir(app))
    assert (await client.get("/v1/contas", headers=auth(tokens["access_token"]))).status == 200
    refresh = {"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"]}
    # rotated on the page: the previous secret is refused at once, the new one works
    response = await portal.submit(f"/apps/{client_id}/segredo", {})
    new = _SECRET.search(await response.text()).group(1)
    response = await client.post("/oauth/token", data=refresh, **oauth.basic(app))
    assert response.status == 401 and (await response.json())["error"] == "invalid_client"
    app.client_secret = new
    response = await client.post("/oauth/token", data=refresh, **oauth.basic(app))
    assert response.status == 200, await response.text()
    access = (await response.json())["access_token"]
    assert (await client.get("/v1/contas", headers=auth(access))).status == 200  # now cached
    # disabled on the page: its token answers 401 at once, and the token endpoint refuses the app
    await portal.submit(f"/apps/{client_id}/desativar", {})
    response = await client.get("/v1/contas", headers=auth(access))
    assert response.status == 401 and "desativado" in (await response.json())["error"]["description"]
    response = await client.post("/oauth/token", data=refresh, **oauth.basic(app))
    assert response.status == 401 and (await response.json())["error"] == "invalid_client"
