"""oat_ tokens on /v1, from the app's side: each route needs its scope (403 FORBIDDEN naming the
missing one), integrator-only routes answer 403 before the body is read, the token sees only its
linked account, its calls are in the integrator's call log with the app, its notices carry
contaId and its generations debit the integrator's wallet. Same formats as API keys."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

import pytest
from PIL import Image

from graphql_api.core.ids import new_id
from graphql_api.core.principal import OAUTH_SCOPES
from graphql_api.oauth.escopos import ordenados
from rest_v1.app import ROUTE_MODULES
from tests.api.test_auth import assert_error
from tests.factories import Integrator, OAuthApp, auth, eventually
from tests.fichas import RICA, fotos

RATE_HEADERS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")


@dataclass
class Vinculo:
    """An app's view of one seller's consent: its tokens and the linked account."""

    app: OAuthApp
    access_token: str
    refresh_token: str
    conta_id: str

    @property
    def headers(self) -> dict[str, str]:
        return auth(self.access_token)


async def vincular(oauth, integrator: Integrator, *, scope: str | None = None, app: OAuthApp | None = None) -> Vinculo:
    app = app or await oauth.app(integrator)
    tokens = await oauth.tokens(app, await oauth.consentir(app, scope=scope))
    return Vinculo(app, tokens["access_token"], tokens["refresh_token"], tokens["conta_id"])


async def estreitar(client, oauth, vinculo: Vinculo, escopos: list[str]) -> Vinculo:
    """A refresh asking fewer scopes: a narrower access token on the same linked account."""
    data = {"grant_type": "refresh_token", "refresh_token": vinculo.refresh_token, "scope": " ".join(escopos)}
    response = await client.post("/oauth/token", data=data, **oauth.basic(vinculo.app))
    assert response.status == 200, await response.text()
    body = await response.json()
    assert body["scope"] == " ".join(ordenados(escopos)) and body["conta_id"] == vinculo.conta_id
    return Vinculo(vinculo.app, body["access_token"], body["refresh_token"], body["conta_id"])


def assert_same_formats(response) -> None:
    """What every /v1 answer carries, whatever the credential."""
    assert re.fullmatch(r"req_[0-9a-z]{26}", response.headers["X-Request-Id"])
    for name in RATE_HEADERS:
        assert response.headers[name].isdigit(), name


async def assert_missing_scope(response, scope: str) -> dict:
    assert response.status == 403, await response.text()
    assert_same_formats(response)
    body = await response.json()
    assert_error(body, "FORBIDDEN")
    (field,) = body["error"]["fields"]
    assert (field["campo"], field["codigo"]) == ("escopos", scope)
    assert "vendedor" in field["mensagem"] and "scope" in field["mensagem"] and scope in field["mensagem"]
    return body


async def assert_integrator_only(response) -> None:
    assert response.status == 403, await response.text()
    assert_same_formats(response)
    body = await response.json()
    assert_error(body, "FORBIDDEN")
    assert body["error"]["fields"] == [] and "exclusiva do integrador" in body["error"]["description"]


async def imagem_gerada(factory, integrator: Integrator, conta_id: str) -> str:
    """A delivered gallery image of the account, on disk, that an edit can start from."""
    from graphql_api.imagem.service import registrar

    geracao = await factory.geracao(integrator, conta_id=conta_id)
    arquivo = f"testes/{new_id('f')}.jpg"
    jpeg = io.BytesIO()
    Image.new("RGB", (600, 600), "white").save(jpeg, "JPEG")
    await factory.runtime.storage.put(arquivo, jpeg.getvalue())
    imagem = await registrar(
        integrador_id=integrator.id,
        ambiente="teste",
        conta_id=conta_id,
        produto_id=None,
        geracao_id=geracao.id,
        origem="galeria",
        arquivo=arquivo,
        largura=600,
        altura=600,
    )
    return imagem.id


# ---------------------------------------------------------------- scopes per route


@dataclass
class Rota:
    method: str
    path: str  # {conta}, {codigo}, {produto}, {geracao}, {imagem} filled per test
    scope: str
    ok: tuple[int, ...]  # what the route answers a token holding the scope
    body: dict | None = None
    spends_credits: bool = False


ROTAS = [
    Rota("GET", "/contas", "contas:ler", (200,)),
    Rota("GET", "/contas/{conta}", "contas:ler", (200,)),
    Rota("PUT", "/contas/{conta}/produtos/SKU-NOVO", "produtos:escrever", (200,), {"nome": "Produto novo"}),
    Rota("DELETE", "/contas/{conta}/produtos/{codigo}", "produtos:escrever", (204,)),
    Rota("GET", "/contas/{conta}/produtos/{codigo}", "produtos:ler", (200,)),
    Rota("GET", "/contas/{conta}/produtos", "produtos:ler", (200,)),
    Rota("POST", "/produtos/{produto}/conferencia", "produtos:ler", (200, 202)),
    Rota("GET", "/geracoes/{geracao}", "geracoes:ler", (200,)),
    # With the scope the request reaches the order's own rules: this product has no approved
    # check yet (409), the image edit runs (201). Real orders: test_generations_debit_...
    Rota("POST", "/galerias", "geracoes:criar", (409,), {"produtoId": "{produto}", "quantidadeImagens": 3}, True),
    Rota(
        "POST",
        "/videos",
        "geracoes:criar",
        (409,),
        {"produtoId": "{produto}", "tipo": "apresentacao", "avatar": "automatico"},
        True,
    ),
    Rota(
        "POST", "/imagens/{imagem}/edicoes", "geracoes:criar", (201,), {"operacoes": [{"tipo": "fundo_branco"}]}, True
    ),
]


def _fill(value, names: dict[str, str]):
    if isinstance(value, str):
        return value.format(**names)
    if isinstance(value, dict):
        return {k: _fill(v, names) for k, v in value.items()}
    return value


async def _call(client, rota: Rota, names: dict[str, str], headers: dict[str, str], *, body=True):
    headers = dict(headers)
    if rota.spends_credits:
        headers["Idempotency-Key"] = new_id("idem-")
    kwargs = {"json": _fill(rota.body, names)} if body and rota.body is not None else {}
    return await client.request(rota.method, "/v1" + _fill(rota.path, names), headers=headers, **kwargs)


@pytest.mark.parametrize("rota", ROTAS, ids=lambda r: f"{r.method} {r.path}")
async def test_each_route_needs_its_scope(client, factory, oauth, integrator, rota):
    pleno = await vincular(oauth, integrator)
    sem = await estreitar(client, oauth, pleno, [s for s in OAUTH_SCOPES if s != rota.scope])
    # a product, a check and a finished generation in the linked account (the product sent with
    # the seller's token: the integrator's key does not reach a linked account's content)
    conta = {"id": pleno.conta_id}
    produto = await factory.produto(integrator, conta, codigo="SKU-1", key=pleno.access_token)
    geracao = await factory.geracao(integrator, conta_id=pleno.conta_id, produto_id=produto["id"])
    names = {
        "conta": pleno.conta_id,
        "codigo": "SKU-1",
        "produto": produto["id"],
        "geracao": geracao.id,
        "imagem": await imagem_gerada(factory, integrator, pleno.conta_id),
    }
    # without the scope: 403 naming it, before the body is even looked at
    body = await assert_missing_scope(await _call(client, rota, names, sem.headers), rota.scope)
    assert rota.scope in body["error"]["description"]
    if rota.method != "GET":
        broken = await client.request(
            rota.method,
            "/v1" + _fill(rota.path, names),
            data=b"{nao e json",
            headers=sem.headers | {"Content-Type": "application/json"},
        )
        await assert_missing_scope(broken, rota.scope)
    # with it: the route does its work
    response = await _call(client, rota, names, pleno.headers)
    assert response.status in rota.ok, await response.text()
    assert_same_formats(response)


def _template(method: str, path: str) -> tuple[str, str]:
    return method, re.sub(r"\{\w+\}|SKU-NOVO", "{}", path)


def test_every_route_a_token_may_call_is_exercised_with_its_scope():
    specs = {_template(s.method, s.path): s for m in ROUTE_MODULES for s in m.specs if not s.public}
    for rota in ROTAS:
        spec = specs[_template(rota.method, rota.path)]
        assert (spec.scope, spec.integrator_only) == (rota.scope, False), rota
    # outside rule 5 and the table above, only routes any token of the linked account may call
    rest = {k for k, spec in specs.items() if not spec.integrator_only} - {_template(r.method, r.path) for r in ROTAS}
    assert rest == {("GET", "/precos"), ("GET", "/integracao/erros")}
    assert all(specs[k].scope is None for k in rest)


async def test_forcing_a_new_check_needs_produtos_escrever(client, factory, oauth, integrator):
    pleno = await vincular(oauth, integrator)
    produto = await factory.produto(integrator, {"id": pleno.conta_id}, key=pleno.access_token)
    leitor = await estreitar(client, oauth, pleno, ["produtos:ler"])
    path = f"/v1/produtos/{produto['id']}/conferencia"
    assert (await client.post(path, headers=leitor.headers)).status in (200, 202)
    await assert_missing_scope(await client.post(path + "?refazer=true", headers=leitor.headers), "produtos:escrever")
    escritor = await estreitar(client, oauth, leitor, ["produtos:ler", "produtos:escrever"])
    refeita = await client.post(f"/v1/produtos/{produto['id']}/conferencia?refazer=true", headers=escritor.headers)
    assert refeita.status in (200, 202), await refeita.text()


async def test_api_keys_keep_every_route(client, factory, integrator):
    conta = await factory.conta(integrator)
    produto = await factory.produto(integrator, conta)
    for path in ("/saldo", "/contas", f"/contas/{conta['id']}/produtos", "/integracao/status", "/avisos"):
        response = await client.get("/v1" + path, headers=integrator.headers)
        assert response.status == 200, (path, await response.text())
    refeita = await client.post(f"/v1/produtos/{produto['id']}/conferencia?refazer=true", headers=integrator.headers)
    assert refeita.status in (200, 202)


# ---------------------------------------------------------------- integrator-only routes (OAuth rule 5)


RULE_5 = {
    ("GET", "/saldo"),
    ("GET", "/extrato"),
    ("POST", "/contas"),
    ("GET", "/planos"),
    ("GET", "/plano"),
    ("GET", "/cota-do-mes"),
    ("PUT", "/avisos"),
    ("POST", "/avisos"),
    ("GET", "/avisos"),
    ("GET", "/avisos/{avisoId}"),
    ("DELETE", "/avisos/{avisoId}"),
    ("POST", "/avisos/{avisoId}/segredo/rotacao"),
    ("GET", "/avisos/{avisoId}/entregas"),
    ("POST", "/avisos/{avisoId}/entregas/{entregaId}/reenvio"),
    ("POST", "/avisos/teste"),
    ("GET", "/testes-de-avisos/{testeId}"),
    ("POST", "/avisos/escutas"),
    ("GET", "/avisos/escutas/{escutaId}"),
    ("DELETE", "/avisos/escutas/{escutaId}"),
    ("GET", "/avisos/escutas/{escutaId}/eventos"),
    ("GET", "/avisos/escutas/{escutaId}/entregas"),
    ("POST", "/avisos/escutas/{escutaId}/entregas/{entregaId}/resultado"),
    ("POST", "/avisos/disparos"),
    ("GET", "/integracao/status"),
    ("GET", "/integracao/chamadas"),
    ("GET", "/integracao/chamadas/{requestId}"),
    ("POST", "/integracao/pedido-producao"),
    ("GET", "/pacotes"),
    ("POST", "/recargas"),
    ("GET", "/recargas"),
    ("GET", "/recargas/{recargaId}"),
}
PREFIXES = {
    "escutaId": "esc_",
    "avisoId": "avs_",
    "entregaId": "ent_",
    "testeId": "tst_",
    "requestId": "req_",
    "recargaId": "rec_",
}


def test_the_integrator_only_routes_are_the_contracts():
    declared = {(s.method, s.path) for m in ROUTE_MODULES for s in m.specs if s.integrator_only}
    assert declared == RULE_5


@pytest.mark.parametrize("method,path", sorted(RULE_5))
async def test_integrator_only_routes_refuse_tokens_before_the_body(client, oauth, integrator, method, path):
    vinculo = await vincular(oauth, integrator)  # every OAuth scope
    url = "/v1" + re.sub(r"\{(\w+)\}", lambda m: new_id(PREFIXES[m.group(1)]), path)
    # an invalid body (and a bad query) would be 400/422 for a key: the token gets 403 first
    headers = vinculo.headers | {"Content-Type": "application/json"}
    body = b"{nao e json" if method != "GET" else None
    await assert_integrator_only(await client.request(method, url + "?limite=abc", data=body, headers=headers))
    # and the key reaches the route's own rules (those of a GET may ignore the query)
    response = await client.request(
        method, url + "?limite=abc", data=body, headers=integrator.headers | {"Content-Type": "application/json"}
    )
    assert response.status in (200, 400, 404, 409, 422), (response.status, await response.text())


async def test_erros_works_for_both_and_a_token_sees_its_own(client, factory, oauth, integrator):
    vinculo = await vincular(oauth, integrator)
    outra = await factory.conta(integrator)
    # the key makes a 422; the token a 404 probing another account
    assert (await client.post("/v1/contas", json={"nome": ""}, headers=integrator.headers)).status == 422
    assert (await client.get(f"/v1/contas/{outra['id']}", headers=vinculo.headers)).status == 404

    async def grouped(headers) -> set[str]:
        response = await client.get("/v1/integracao/erros", headers=headers)
        assert response.status == 200, await response.text()
        assert_same_formats(response)
        return {e["tipo"] for e in (await response.json())["data"]}

    async def both_logged():
        assert await grouped(integrator.headers) == {"VALIDATION_FAILED", "NOT_FOUND"}
        assert await grouped(vinculo.headers) == {"NOT_FOUND"}

    await eventually(both_logged)


# ---------------------------------------------------------------- the linked account only


async def test_get_contas_lists_only_the_linked_account(client, factory, oauth, integrator):
    await factory.conta(integrator)
    vinculo = await vincular(oauth, integrator, scope="contas:ler")
    await vincular(oauth, integrator, app=vinculo.app)  # another seller of the same app
    response = await client.get("/v1/contas", headers=vinculo.headers)
    assert response.status == 200
    assert_same_formats(response)
    body = await response.json()
    assert [c["id"] for c in body["data"]] == [vinculo.conta_id] and body["paginacao"]["proximoCursor"] is None
    assert body["data"][0]["origem"] == "vinculada" and body["data"][0]["situacao"] == "ativa"
    for query in ("?origem=subconta", "?situacao=pausada", f"?codigoExterno={new_id('x')}"):
        assert (await (await client.get("/v1/contas" + query, headers=vinculo.headers)).json())["data"] == []
    # the key lists them all: the sub-account and both linked accounts
    todas = (await (await client.get("/v1/contas", headers=integrator.headers)).json())["data"]
    assert len(todas) == 3


async def test_every_account_scoped_route_is_404_for_another_account(client, factory, oauth, integrator):
    vinculo = await vincular(oauth, integrator)
    outro = await vincular(oauth, integrator, app=vinculo.app)  # another seller's linked account
    for conta in (await factory.conta(integrator), {"id": outro.conta_id}):
        dono = outro.access_token if conta["id"] == outro.conta_id else None  # a linked account's own token
        produto = await factory.produto(integrator, conta, codigo="SKU-ALHEIO", key=dono)
        geracao = await factory.geracao(integrator, conta_id=conta["id"], produto_id=produto["id"])
        imagem = await imagem_gerada(factory, integrator, conta["id"])
        idem = {"Idempotency-Key": new_id("idem-")}
        calls = [
            ("GET", f"/contas/{conta['id']}", None),
            ("GET", f"/contas/{conta['id']}/produtos", None),
            ("GET", f"/contas/{conta['id']}/produtos/SKU-ALHEIO", None),
            ("PUT", f"/contas/{conta['id']}/produtos/SKU-ALHEIO", {"nome": "Invasor"}),
            ("PUT", f"/contas/{conta['id']}/produtos/SKU-NOVO", {"nome": "Invasor"}),
            ("DELETE", f"/contas/{conta['id']}/produtos/SKU-ALHEIO", None),
            ("POST", f"/produtos/{produto['id']}/conferencia", None),
            ("GET", f"/geracoes/{geracao.id}", None),
            ("POST", "/galerias", {"produtoId": produto["id"], "quantidadeImagens": 3}),
            ("POST", "/videos", {"produtoId": produto["id"], "tipo": "apresentacao", "avatar": "automatico"}),
            ("POST", f"/imagens/{imagem}/edicoes", {"operacoes": [{"tipo": "fundo_branco"}]}),
        ]
        for method, path, body in calls:
            headers = vinculo.headers | (idem if method == "POST" and body else {})
            response = await client.request(method, "/v1" + path, json=body, headers=headers)
            assert response.status == 404, (method, path, await response.text())
            assert_same_formats(response)
            assert_error(await response.json(), "NOT_FOUND")
        # nothing was changed there: the account's own credential still reads the product as it was
        reader = auth(dono) if dono else integrator.headers
        kept = await client.get(f"/v1/contas/{conta['id']}/produtos/SKU-ALHEIO", headers=reader)
        assert (await kept.json())["data"]["nome"] == "Produto Teste"
        missing = await client.get(f"/v1/contas/{conta['id']}/produtos/SKU-NOVO", headers=reader)
        assert missing.status == 404


async def test_responses_and_errors_have_the_same_formats_as_keys(client, factory, oauth, integrator):
    vinculo = await vincular(oauth, integrator)
    outra = await factory.conta(integrator)
    for headers in (integrator.headers, vinculo.headers):
        ok = await client.get(f"/v1/contas/{vinculo.conta_id}", headers=headers)
        assert ok.status == 200 and set(await ok.json()) == {"data"}
        assert_same_formats(ok)
        invalid = await client.put(f"/v1/contas/{vinculo.conta_id}/produtos/X", json={"nome": ""}, headers=headers)
        assert invalid.status == 422
        assert_same_formats(invalid)
        assert_error(await invalid.json(), "VALIDATION_FAILED")
        forced = await client.get("/v1/contas", headers=headers | {"X-Vitrine-Teste": "forcar-429"})
        assert forced.status == 429 and forced.headers["Retry-After"] == "5"
        assert_error(await forced.json(), "TOO_MANY_REQUESTS")
    missing = await client.get(f"/v1/contas/{outra['id']}", headers=vinculo.headers)
    assert missing.status == 404
    assert set((await missing.json())["error"]) == {"type", "message", "description", "fields", "documentation"}


async def test_idempotency_keys_of_a_token_are_its_own(client, oauth, factory, integrator):
    """Two sellers' tokens (and the integrator's key) may use the same Idempotency-Key: none
    collides with the others (409) nor replays another account's answer."""
    a = await vincular(oauth, integrator)
    b = await vincular(oauth, integrator, app=a.app)
    imagem_a = await imagem_gerada(factory, integrator, a.conta_id)
    imagem_b = await imagem_gerada(factory, integrator, b.conta_id)
    pedido = {"operacoes": [{"tipo": "fundo_branco"}]}
    chave = {"Idempotency-Key": "pedido-0001"}
    primeira = await client.post(f"/v1/imagens/{imagem_a}/edicoes", json=pedido, headers=a.headers | chave)
    assert primeira.status == 201, await primeira.text()
    # the same token repeating itself gets the replay
    repetida = await client.post(f"/v1/imagens/{imagem_a}/edicoes", json=pedido, headers=a.headers | chave)
    assert repetida.headers.get("Idempotent-Replayed") == "true"
    assert (await repetida.json())["data"]["id"] == (await primeira.json())["data"]["id"]
    # another seller sending the very same request sees nothing of it
    alheia = await client.post(f"/v1/imagens/{imagem_a}/edicoes", json=pedido, headers=b.headers | chave)
    assert alheia.status == 404 and "Idempotent-Replayed" not in alheia.headers
    # and its own order with the same key is a new one, as is the integrator's
    propria = await client.post(f"/v1/imagens/{imagem_b}/edicoes", json=pedido, headers=b.headers | chave)
    assert propria.status == 201 and "Idempotent-Replayed" not in propria.headers
    # (the key reaches none of a linked account's content: its own sub-account's image)
    imagem_sub = await imagem_gerada(factory, integrator, (await factory.conta(integrator))["id"])
    da_chave = await client.post(f"/v1/imagens/{imagem_sub}/edicoes", json=pedido, headers=integrator.headers | chave)
    assert da_chave.status == 201 and "Idempotent-Replayed" not in da_chave.headers
    ids = {(await r.json())["data"]["id"] for r in (primeira, propria, da_chave)}
    assert len(ids) == 3


# ---------------------------------------------------------------- revocation and the call log


async def test_revocation_answers_401_at_once_and_refused_calls_stay_in_the_log(client, oauth, integrator):
    vinculo = await vincular(oauth, integrator)
    assert (await client.get("/v1/contas", headers=vinculo.headers)).status == 200
    revoked = await client.post("/oauth/revogar", data={"token": vinculo.access_token}, **oauth.basic(vinculo.app))
    assert revoked.status == 200
    response = await client.get("/v1/contas", headers=vinculo.headers)
    assert response.status == 401
    assert_error(await response.json(), "UNAUTHORIZED")
    assert "revogada" in (await response.json())["error"]["description"]
    request_id = response.headers["X-Request-Id"]
    # a token that never existed is not anyone's call
    unknown = await client.get("/v1/contas", headers=auth("oat_test_" + "x" * 40))
    assert unknown.status == 401

    async def logged():
        listed = await client.get(
            f"/v1/integracao/chamadas?clientId={vinculo.app.client_id}", headers=integrator.headers
        )
        rows = (await listed.json())["data"]
        assert [(r["status"], r["credencial"], r["clientId"], r["contaId"]) for r in rows] == [
            (401, "oauth", vinculo.app.client_id, vinculo.conta_id),
            (200, "oauth", vinculo.app.client_id, vinculo.conta_id),
        ]
        assert rows[0]["requestId"] == request_id and rows[0]["chave"] is None
        assert unknown.headers["X-Request-Id"] not in {r["requestId"] for r in rows}

    await eventually(logged)


async def test_calls_made_with_a_token_carry_the_app_and_the_account_in_the_log(client, factory, oauth, integrator):
    vinculo = await vincular(oauth, integrator)
    outro_app = await vincular(oauth, integrator)  # a second app of the integrator
    produto = await client.put(
        f"/v1/contas/{vinculo.conta_id}/produtos/SKU-LOG", json={"nome": "Com token"}, headers=vinculo.headers
    )
    assert produto.status == 200
    await factory.conta(integrator)  # made with the key
    proibida = await client.get("/v1/saldo", headers=vinculo.headers)
    assert proibida.status == 403
    assert (await client.get("/v1/contas", headers=outro_app.headers)).status == 200

    async def rows(query: str) -> list[dict]:
        response = await client.get(f"/v1/integracao/chamadas{query}", headers=integrator.headers)
        assert response.status == 200, await response.text()
        return (await response.json())["data"]

    async def logged():
        feitas = await rows(f"?clientId={vinculo.app.client_id}")
        assert [(r["metodo"], r["endpoint"], r["status"]) for r in feitas] == [
            ("GET", "/saldo", 403),
            ("PUT", "/contas/{contaId}/produtos/{codigo}", 200),
        ]
        assert {(r["credencial"], r["clientId"], r["contaId"], r["chave"]) for r in feitas} == {
            ("oauth", vinculo.app.client_id, vinculo.conta_id, None)
        }
        assert [r["clientId"] for r in await rows(f"?clientId={outro_app.app.client_id}")] == [outro_app.app.client_id]
        chave = await rows("?endpoint=/contas&metodo=POST")
        assert [(r["credencial"], r["clientId"], r["status"]) for r in chave] == [("api_key", None, 201)]
        return feitas

    feitas = await eventually(logged)
    detalhe = await client.get(f"/v1/integracao/chamadas/{feitas[0]['requestId']}", headers=integrator.headers)
    data = (await detalhe.json())["data"]
    assert (data["credencial"], data["clientId"], data["codigoErro"]) == ("oauth", vinculo.app.client_id, "FORBIDDEN")
    assert vinculo.access_token not in await detalhe.text()  # the token is masked in the headers
    # the filter is validated like the others; an unknown app simply has no calls
    bad = await client.get("/v1/integracao/chamadas?clientId=nao-e-app", headers=integrator.headers)
    assert bad.status == 422
    assert [f["campo"] for f in (await bad.json())["error"]["fields"]] == ["clientId"]
    assert await rows(f"?clientId={new_id('app_')}") == []


# ---------------------------------------------------------------- notices and the wallet


async def test_linked_account_notices_carry_conta_id_and_orders_debit_the_integrator(
    client, factory, oauth, integrator, receptor, photo_site
):
    from graphql_api.imagem.models import Imagem

    eventos = ["produto.conferido", "geracao.concluida", "geracao.falhou"]
    response = await client.put(
        "/v1/avisos", json={"url": receptor.url, "eventos": eventos}, headers=integrator.headers
    )
    assert response.status == 201
    receptor.segredos.append((await response.json())["data"]["segredo"])
    vinculo = await vincular(oauth, integrator)

    async def saldo() -> dict:
        return (await (await client.get("/v1/saldo", headers=integrator.headers)).json())["data"]

    async def recebido(tipo: str, de_quem) -> dict:
        """The verified delivery of this event type whose data satisfies `de_quem`."""

        async def chegou():
            for r in receptor.recebidos:
                if r.valido and r.evento["tipo"] == tipo and de_quem(r.evento["data"]):
                    return r.evento
            raise AssertionError(f"no {tipo} yet")

        return await eventually(chegou, timeout=90, interval=0.2)

    # the app sends the ficha: its check's notice names the linked account
    ficha = RICA | {"imagens": fotos(photo_site, 1, 2, 3, 4, 5, 6)}
    sent = await client.put(f"/v1/contas/{vinculo.conta_id}/produtos/SKU-AV", json=ficha, headers=vinculo.headers)
    assert sent.status == 200, await sent.text()
    produto = (await sent.json())["data"]
    conferido = await recebido("produto.conferido", lambda data: data["produto"]["id"] == produto["id"])
    assert conferido["contaId"] == vinculo.conta_id and conferido["data"]["produto"]["contaId"] == vinculo.conta_id
    # the app orders a gallery: the integrator's wallet pays, the notice names the account
    antes = await saldo()
    criada = await factory.pedir(
        vinculo.access_token, "/v1/galerias", {"produtoId": produto["id"], "quantidadeImagens": 3}
    )
    pronta = await factory.terminada(vinculo.access_token, criada["id"])
    assert pronta["situacao"] == "concluida"
    concluida = await recebido("geracao.concluida", lambda data: data["id"] == criada["id"])
    assert concluida["contaId"] == vinculo.conta_id
    depois = await saldo()
    assert depois["creditosDisponiveis"] == antes["creditosDisponiveis"] - pronta["creditosCobrados"]
    assert pronta["creditosCobrados"] == criada["creditosReservados"] > 0 and depois["creditosReservados"] == 0
    # a failed order is announced with the account too, and costs nothing
    for item in (await factory.conferido(integrator, produto, key=vinculo.access_token))["fotos"]["itens"]:
        await factory.runtime.storage.remove((await Imagem.get(id=item["id"])).arquivo)
    falha = await factory.pedir(
        vinculo.access_token, "/v1/galerias", {"produtoId": produto["id"], "quantidadeImagens": 3}
    )
    assert (await factory.terminada(vinculo.access_token, falha["id"]))["situacao"] == "falhou"
    falhou = await recebido("geracao.falhou", lambda data: data["id"] == falha["id"])
    assert falhou["contaId"] == vinculo.conta_id
    assert (await saldo())["creditosDisponiveis"] == depois["creditosDisponiveis"]


# ---------------------------------------------------------------- the OpenAPI document


async def test_the_openapi_document_declares_oauth_and_each_operations_scope(client):
    from graphql_api.oauth.escopos import DESCRICOES

    document = await (await client.get("/v1/openapi.json")).json()
    schemes = document["components"]["securitySchemes"]
    assert schemes["chaveDeApi"] == schemes["chaveDeApi"] | {"type": "http", "scheme": "bearer"}
    flow = schemes["oauth"]["flows"]["authorizationCode"]
    base = document["servers"][0]["url"].removesuffix("/v1")
    assert flow["authorizationUrl"] == f"{base}/oauth/autorizar"
    assert flow["tokenUrl"] == flow["refreshUrl"] == f"{base}/oauth/token"
    assert flow["scopes"] == DESCRICOES and set(flow["scopes"]) == OAUTH_SCOPES
    for module in ROUTE_MODULES:
        for spec in module.specs:
            operation = document["paths"][spec.path][spec.method.lower()]
            if spec.public:
                assert "security" not in operation
            elif spec.integrator_only:
                assert operation["security"] == [{"chaveDeApi": []}], spec.path
                assert "403" in operation["responses"] and "Exclusiva do integrador" in operation["description"]
            else:
                expected = [{"chaveDeApi": []}, {"oauth": [spec.scope] if spec.scope else []}]
                assert operation["security"] == expected, spec.path
                assert "403" in operation["responses"] or spec.scope is None, spec.path
