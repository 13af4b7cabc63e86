"""The call log page with OAuth apps: a filter by app (the integrator's apps of the environment),
and each call saying whether a key or an app's token made it."""

from tests.api.test_oauth_v1 import vincular
from tests.factories import Factory, Integrator, OAuthFactory, eventually
from tests.portal.conftest import create_key, integrador_id


async def test_portal_call_log_filters_by_app(client, portal, owner):
    integrator = Integrator(await integrador_id(owner), await create_key(portal))
    oauth = OAuthFactory(Factory(client))
    vinculo = await vincular(oauth, integrator, app=await oauth.app(integrator, nome="Loja Conectada"))
    await oauth.app(integrator, nome="App Parado")
    por_token = await client.get(f"/v1/contas/{vinculo.conta_id}", headers=vinculo.headers)
    por_chave = await client.get("/v1/contas", headers=integrator.headers)

    async def listed() -> str:
        page = await portal.page("/chamadas")
        assert por_token.headers["X-Request-Id"] in page and por_chave.headers["X-Request-Id"] in page
        return page

    page = await eventually(listed)
    select = page.split('<select id="filtro-clientId" name="clientId"')[1].split("</select>")[0]
    assert f'<option value="{vinculo.app.client_id}">Loja Conectada</option>' in select and "App Parado" in select
    assert "OAuth · Loja Conectada" in page
    filtered = await portal.page(f"/chamadas?clientId={vinculo.app.client_id}")
    assert por_token.headers["X-Request-Id"] in filtered and por_chave.headers["X-Request-Id"] not in filtered
    assert f'<option value="{vinculo.app.client_id}" selected>' in filtered
    lista = await portal.page(f"/chamadas/lista?clientId={vinculo.app.client_id}")
    assert por_token.headers["X-Request-Id"] in lista and por_chave.headers["X-Request-Id"] not in lista
    detalhe = await portal.page(f"/chamadas/{por_token.headers['X-Request-Id']}")
    assert "Token OAuth" in detalhe and "Loja Conectada" in detalhe and vinculo.app.client_id in detalhe
    assert (await portal.get("/chamadas?clientId=nao-e-app")).status == 422
