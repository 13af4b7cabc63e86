"""Single packages, purchases (recargas) and their payments, from the outside: GET /v1/pacotes,
POST/GET /v1/recargas, the provider's signed confirmation at POST /pagamentos/confirmacao, the
staff's confirmation at /graphql, expiry, and exactly-once crediting under concurrency."""

import asyncio
import base64
import json
import secrets
from datetime import UTC, datetime, timedelta

import pytest
from standardwebhooks import Webhook

from graphql_api.core import relogio
from graphql_api.core.ids import new_id
from graphql_api.core.principal import Ambiente
from graphql_api.creditos.models import Carteira, Lancamento
from graphql_api.equipe import service as equipe
from graphql_api.equipe.models import AcaoEquipe
from graphql_api.recarga import catalogo
from graphql_api.recarga.models import ConfirmacaoPagamento, Recarga
from tasks.maintenance import expirar_recargas
from tests.api.test_auth import assert_error
from tests.api.test_integracao import _logged, status, step
from tests.factories import auth, eventually
from vitrine.settings import Settings

SEGREDO = "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()
CONFIRMACAO = "/pagamentos/confirmacao"


@pytest.fixture
def settings() -> Settings:
    """The service with a payment provider's secret (the `client` fixture builds the app from it)."""
    return Settings(pagamento_segredo=SEGREDO)


def chave(key: str, idem: str | None = None) -> dict[str, str]:
    return auth(key, **{"Idempotency-Key": idem or new_id("idem-")})


async def comprar(client, key: str, pacote: str = "pacote_500", *, idem: str | None = None) -> dict:
    response = await client.post("/v1/recargas", json={"pacote": pacote}, headers=chave(key, idem))
    assert response.status == 201, await response.text()
    return (await response.json())["data"]


async def ler(client, key: str, recarga_id: str) -> dict:
    response = await client.get(f"/v1/recargas/{recarga_id}", headers=auth(key))
    assert response.status == 200, await response.text()
    return (await response.json())["data"]


async def saldo(client, key: str) -> dict:
    return (await (await client.get("/v1/saldo", headers=auth(key))).json())["data"]


def assinado(corpo: dict, *, msg_id: str | None = None, segredo: str = SEGREDO, quando: datetime | None = None) -> dict:
    """What a provider adapter sends: the JSON body and the Standard Webhooks headers, signed with
    the `standardwebhooks` library itself (so the service verifies what any library signs)."""
    texto = json.dumps(corpo)
    msg_id = msg_id or new_id("msg_")
    quando = quando or datetime.now(UTC)
    return {
        "data": texto,
        "headers": {
            "Content-Type": "application/json",
            "webhook-id": msg_id,
            "webhook-timestamp": str(int(quando.timestamp())),
            "webhook-signature": Webhook(segredo).sign(msg_id, quando, texto),
        },
    }


async def confirmar(client, recarga_id: str, resultado: str = "paga", **kwargs):
    return await client.post(
        CONFIRMACAO, **assinado({"recargaId": recarga_id, "resultado": resultado, "referencia": "E2E123"}, **kwargs)
    )


async def ledger_matches_wallet(integrador_id: str, ambiente: str) -> Carteira:
    carteira = await Carteira.get(integrador_id=integrador_id, ambiente=ambiente)
    entries = await Lancamento.filter(carteira_id=carteira.id)
    assert sum(e.disponiveis for e in entries) == carteira.creditos_disponiveis
    assert sum(e.pacote for e in entries) == carteira.creditos_pacote
    assert sum(e.plano for e in entries) == carteira.creditos_plano
    assert carteira.creditos_disponiveis == carteira.creditos_plano + carteira.creditos_pacote
    return carteira


@pytest.fixture
async def live(factory, integrator) -> str:
    """An sk_live_ key of `integrator` (production released): production purchases."""
    return await factory.key(integrator, ambiente=Ambiente.PRODUCAO)


@pytest.fixture
def later(monkeypatch):
    """Move the domain's clock forward (relogio.agora), as if that much time had passed."""

    def move(**delta) -> None:
        real = datetime.now
        monkeypatch.setattr(relogio, "agora", lambda: real(UTC) + timedelta(**delta))

    return move


# -- the catalogue ------------------------------------------------------------------------------


async def test_packages_are_the_catalogue_file(client, integrator):
    response = await client.get("/v1/pacotes", headers=integrator.headers)
    assert response.status == 200
    data = (await response.json())["data"]
    assert data == [
        {"codigo": p.codigo, "nome": p.nome, "creditos": p.creditos, "precoCentavos": p.precoCentavos}
        for p in catalogo.ler()
    ]
    assert len(data) == 3


async def test_loading_the_catalogue_again_changes_nothing_and_switches_off_what_left(client, integrator, tmp_path):
    from tortoise import connections

    before = (await (await client.get("/v1/pacotes", headers=integrator.headers)).json())["data"]
    assert await catalogo.carregar(connections.get("default")) == 3  # idempotent: same rows
    assert (await (await client.get("/v1/pacotes", headers=integrator.headers)).json())["data"] == before
    menor = tmp_path / "pacotes.json"
    menor.write_text(
        json.dumps([{"codigo": "pacote_500", "nome": "Pacote 500", "creditos": 500, "precoCentavos": 4900}])
    )
    try:
        await catalogo.carregar(connections.get("default"), menor)
        codigos = [
            p["codigo"] for p in (await (await client.get("/v1/pacotes", headers=integrator.headers)).json())["data"]
        ]
        assert codigos == ["pacote_500"]
        refused = await client.post("/v1/recargas", json={"pacote": "pacote_2000"}, headers=chave(integrator.key))
        assert refused.status == 422
    finally:
        await catalogo.carregar(connections.get("default"))
    assert (await (await client.get("/v1/pacotes", headers=integrator.headers)).json())["data"] == before


# -- buying -------------------------------------------------------------------------------------


async def test_a_purchase_is_pending_with_its_payment_link_and_deadline(client, integrator, settings):
    antes = datetime.now(UTC)
    recarga = await comprar(client, integrator.key, "pacote_2000")
    assert recarga["id"].startswith("rec_") and len(recarga["id"]) == 30
    assert recarga["situacao"] == "pendente"
    assert (recarga["pacote"], recarga["creditos"], recarga["precoCentavos"]) == ("pacote_2000", 2000, 17900)
    assert recarga["ambiente"] == "teste"
    assert recarga["linkPagamento"] == f"{settings.base_url}/checkout/{recarga['id']}"
    expira = datetime.fromisoformat(recarga["expiraEm"].replace("Z", "+00:00"))
    assert timedelta(minutes=29) < expira - antes < timedelta(minutes=31)
    assert recarga["pagaEm"] is None and recarga["encerradaEm"] is None
    assert await ler(client, integrator.key, recarga["id"]) == recarga
    # nothing is credited before the payment
    assert (await saldo(client, integrator.key))["creditosDisponiveis"] == 1000


async def test_idempotency_key_is_required_and_a_repeat_buys_nothing_again(client, integrator):
    missing = await client.post("/v1/recargas", json={"pacote": "pacote_500"}, headers=integrator.headers)
    assert missing.status == 400
    assert_error(await missing.json(), "IDEMPOTENCY_KEY_REQUIRED")
    first = await client.post(
        "/v1/recargas", json={"pacote": "pacote_500"}, headers=chave(integrator.key, "compra-0001")
    )
    again = await client.post(
        "/v1/recargas", json={"pacote": "pacote_500"}, headers=chave(integrator.key, "compra-0001")
    )
    assert (first.status, again.status) == (201, 201)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert await again.json() == await first.json()
    other = await client.post(
        "/v1/recargas", json={"pacote": "pacote_2000"}, headers=chave(integrator.key, "compra-0001")
    )
    assert other.status == 409
    assert_error(await other.json(), "IDEMPOTENCY_KEY_REUSED")
    listed = (await (await client.get("/v1/recargas", headers=integrator.headers)).json())["data"]
    assert [r["id"] for r in listed] == [(await first.json())["data"]["id"]]


async def test_a_purchase_without_the_key_does_not_fail_the_idempotency_step(client, integrator):
    """The key is required on POST /recargas, but the IDEMPOTENCIA step judges credit-spending calls only."""
    missing = await client.post("/v1/recargas", json={"pacote": "pacote_500"}, headers=integrator.headers)
    assert missing.status == 400
    await eventually(lambda: _logged(client, integrator.key, missing.headers["X-Request-Id"]))
    assert step(await status(client, integrator), "IDEMPOTENCIA")["situacao"] == "pendente"


async def test_the_document_declares_the_key_required_on_purchases(client, integrator):
    document = await (await client.get("/v1/openapi.json")).json()
    operation = document["paths"]["/recargas"]["post"]
    header = next(p for p in operation["parameters"] if p["name"] == "Idempotency-Key")
    assert header["required"] is True
    assert "IDEMPOTENCY_KEY_REQUIRED" in json.dumps(operation["responses"])


@pytest.mark.parametrize(
    ("body", "campo", "codigo"),
    [
        ({"pacote": "pacote_inexistente"}, "pacote", "valor_invalido"),
        ({}, "pacote", "obrigatorio"),
        ({"pacote": ""}, "pacote", "muito_curto"),
        ({"pacote": 500}, "pacote", "tipo_invalido"),
        ({"pacote": "pacote_500\u0000"}, "pacote", "caractere_invalido"),
        ({"pacote": "pacote_500", "quantidade": 2}, "quantidade", "desconhecido"),
    ],
)
async def test_a_bad_purchase_is_422_on_its_field(client, integrator, body, campo, codigo):
    response = await client.post("/v1/recargas", json=body, headers=chave(integrator.key))
    assert response.status == 422
    error = (await response.json())["error"]
    assert_error({"error": error}, "VALIDATION_FAILED")
    assert [(f["campo"], f["codigo"]) for f in error["fields"]] == [(campo, codigo)]
    if codigo == "valor_invalido":
        assert "pacote_500" in error["fields"][0]["mensagem"]  # says what is on sale


async def test_an_oauth_token_cannot_buy_nor_read_purchases(client, integrator, oauth):
    app = await oauth.app(integrator)
    token = (await oauth.tokens(app, await oauth.consentir(app)))["access_token"]
    for method, path, body in (
        ("POST", "/v1/recargas", {"pacote": "pacote_500"}),
        ("POST", "/v1/recargas", {"pacote": 5, "extra": True}),  # 403 before the body is read
        ("GET", "/v1/recargas?situacao=qualquer", None),
        ("GET", "/v1/pacotes", None),
        ("GET", f"/v1/recargas/{new_id('rec_')}", None),
    ):
        for headers in (chave(token), auth(token)):  # with and without Idempotency-Key
            response = await client.request(method, path, json=body, headers=headers)
            assert response.status == 403, (path, await response.text())
            assert_error(await response.json(), "FORBIDDEN")
    assert await Recarga.filter(integrador_id=integrator.id).count() == 0


# -- reading ------------------------------------------------------------------------------------


async def test_purchases_are_listed_newest_first_paginated_and_filtered(client, integrator):
    ids = [(await comprar(client, integrator.key))["id"] for _ in range(3)]
    page1 = await (await client.get("/v1/recargas?limite=2", headers=integrator.headers)).json()
    assert [r["id"] for r in page1["data"]] == ids[:0:-1]
    assert page1["paginacao"]["limite"] == 2 and page1["paginacao"]["proximoCursor"] == ids[1]
    page2 = await (await client.get(f"/v1/recargas?limite=2&cursor={ids[1]}", headers=integrator.headers)).json()
    assert [r["id"] for r in page2["data"]] == [ids[0]] and page2["paginacao"]["proximoCursor"] is None
    pagas = await (await client.get("/v1/recargas?situacao=paga", headers=integrator.headers)).json()
    assert pagas["data"] == []
    pendentes = await (await client.get("/v1/recargas?situacao=pendente", headers=integrator.headers)).json()
    assert len(pendentes["data"]) == 3


@pytest.mark.parametrize(
    ("query", "campo"),
    [("situacao=cancelada", "situacao"), ("limite=0", "limite"), ("cursor=ger_x", "cursor"), ("ordem=asc", "ordem")],
)
async def test_bad_list_parameters_are_422(client, integrator, query, campo):
    response = await client.get(f"/v1/recargas?{query}", headers=integrator.headers)
    assert response.status == 422
    assert [f["campo"] for f in (await response.json())["error"]["fields"]] == [campo]


async def test_a_purchase_of_another_integrator_or_environment_is_404(client, factory, integrator, live):
    mine = await comprar(client, integrator.key)
    other = await factory.integrator()
    for key, recarga_id in (
        (other.key, mine["id"]),
        (live, mine["id"]),
        (integrator.key, new_id("rec_")),
        (integrator.key, "rec_x"),
    ):
        response = await client.get(f"/v1/recargas/{recarga_id}", headers=auth(key))
        assert response.status == 404, recarga_id
        assert_error(await response.json(), "NOT_FOUND")
    assert (await (await client.get("/v1/recargas", headers=auth(other.key))).json())["data"] == []


async def test_a_production_purchase_pays_through_the_checkout_page_by_default(client, integrator, live, settings):
    recarga = await comprar(client, live, "pacote_10000")
    assert recarga["ambiente"] == "producao" and recarga["precoCentavos"] == 79000
    assert recarga["linkPagamento"] == f"{settings.base_url}/checkout/{recarga['id']}"


async def test_with_an_external_provider_production_links_go_to_its_page(aiohttp_client, factory_for):
    settings = Settings(
        pagamento_segredo=SEGREDO,
        pagamento_provedor="webhook",
        pagamento_link="https://pagar.exemplo.com/v/{recargaId}",
    )
    client, factory = await factory_for(settings)
    integrator = await factory.integrator()
    live = await factory.key(integrator, ambiente=Ambiente.PRODUCAO)
    producao = await comprar(client, live)
    assert producao["linkPagamento"] == f"https://pagar.exemplo.com/v/{producao['id']}"
    teste = await comprar(client, integrator.key)  # play money: always the checkout page
    assert teste["linkPagamento"] == f"{settings.base_url}/checkout/{teste['id']}"


@pytest.fixture
def factory_for(aiohttp_client):
    """A client and factory of the whole application built from other settings."""
    from tests.factories import Factory
    from vitrine.app import create_app

    async def make(settings: Settings):
        client = await aiohttp_client(create_app(settings))
        return client, Factory(client)

    return make


# -- expiry -------------------------------------------------------------------------------------


async def test_an_unpaid_purchase_expires_when_read_after_its_deadline(client, integrator, later):
    recarga = await comprar(client, integrator.key)
    later(minutes=31)
    expirada = await ler(client, integrator.key, recarga["id"])
    assert expirada["situacao"] == "expirada" and expirada["encerradaEm"] is not None
    listed = (await (await client.get("/v1/recargas?situacao=expirada", headers=integrator.headers)).json())["data"]
    assert [r["id"] for r in listed] == [recarga["id"]]


async def test_the_periodic_sweep_expires_purchases_nobody_reads(client, integrator, later):
    recarga = await comprar(client, integrator.key)
    fresh = await comprar(client, integrator.key)
    later(minutes=31)
    assert (await expirar_recargas())["recargasExpiradas"] >= 2
    assert (await Recarga.get(id=recarga["id"])).situacao == "expirada"
    assert (await Recarga.get(id=fresh["id"])).situacao == "expirada"
    novo = await comprar(client, integrator.key)  # bought "later": its deadline is 30 minutes after that
    await expirar_recargas()
    assert (await Recarga.get(id=novo["id"])).situacao == "pendente"


# -- the provider's webhook -----------------------------------------------------------------------


async def test_a_signed_confirmation_credits_the_package_once(client, integrator, live):
    recarga = await comprar(client, live, "pacote_2000")
    response = await confirmar(client, recarga["id"], msg_id="msg_pix_0001")
    assert response.status == 200, await response.text()
    assert response.headers["X-Request-Id"].startswith("req_")
    assert (await response.json())["data"] == {
        "recargaId": recarga["id"],
        "situacao": "paga",
        "aplicada": True,
        "repetida": False,
    }
    paga = await ler(client, live, recarga["id"])
    assert paga["situacao"] == "paga" and paga["pagaEm"] is not None
    assert (await saldo(client, live))["creditosDisponiveis"] == 2000
    entry = await Lancamento.get(recarga_id=recarga["id"])
    assert (entry.tipo, entry.disponiveis, entry.pacote, entry.plano, entry.disponiveis_apos) == (
        "compra_pacote",
        2000,
        2000,
        0,
        2000,
    )
    assert (await Recarga.get(id=recarga["id"])).referencia_provedor == "E2E123"
    # the same confirmation again (a provider retrying): 200, nothing more
    again = await confirmar(client, recarga["id"], msg_id="msg_pix_0001")
    assert again.status == 200
    assert (await again.json())["data"] == {
        "recargaId": recarga["id"],
        "situacao": "paga",
        "aplicada": False,
        "repetida": True,
    }
    # another message saying the same: agrees, applies nothing
    other = await confirmar(client, recarga["id"], msg_id="msg_pix_0002")
    assert other.status == 200 and (await other.json())["data"]["aplicada"] is False
    assert await Lancamento.filter(recarga_id=recarga["id"]).count() == 1
    carteira = await ledger_matches_wallet(integrator.id, "producao")
    assert (carteira.creditos_disponiveis, carteira.creditos_pacote) == (2000, 2000)


async def test_a_refusal_closes_the_purchase_without_credits(client, integrator, live):
    recarga = await comprar(client, live)
    response = await confirmar(client, recarga["id"], "recusada")
    assert response.status == 200 and (await response.json())["data"]["situacao"] == "recusada"
    late_payment = await confirmar(client, recarga["id"], "paga")
    assert late_payment.status == 409
    body = await late_payment.json()
    assert_error(body, "PURCHASE_CLOSED")
    assert "recusada" in body["error"]["description"]
    assert (await ler(client, live, recarga["id"]))["situacao"] == "recusada"
    assert await Lancamento.filter(recarga_id=recarga["id"]).count() == 0
    assert (await saldo(client, live))["creditosDisponiveis"] == 0


async def test_a_paid_purchase_never_becomes_refused(client, integrator, live):
    recarga = await comprar(client, live)
    assert (await confirmar(client, recarga["id"], "paga")).status == 200
    refused = await confirmar(client, recarga["id"], "recusada")
    assert refused.status == 409
    assert_error(await refused.json(), "PURCHASE_CLOSED")
    assert (await ler(client, live, recarga["id"]))["situacao"] == "paga"
    assert (await saldo(client, live))["creditosDisponiveis"] == 500


async def test_a_confirmation_after_the_deadline_is_not_credited(client, integrator, live, later):
    recarga = await comprar(client, live)
    later(minutes=31)
    response = await confirmar(client, recarga["id"], quando=relogio.agora())
    assert response.status == 409
    assert_error(await response.json(), "PURCHASE_CLOSED")
    assert (await ler(client, live, recarga["id"]))["situacao"] == "expirada"
    assert await Lancamento.filter(recarga_id=recarga["id"]).count() == 0
    # kept, for the finance team to refund: the confirmation arrived, nothing was applied
    kept = await ConfirmacaoPagamento.get(recarga_id=recarga["id"])
    assert (kept.resultado, kept.origem) == ("paga", "webhook")
    # a refusal of an expired purchase agrees with it
    assert (await confirmar(client, recarga["id"], "recusada", quando=relogio.agora())).status == 200


async def test_the_same_webhook_id_with_other_content_is_409(client, integrator, live):
    first, second = await comprar(client, live), await comprar(client, live)
    assert (await confirmar(client, first["id"], msg_id="msg_reuso_1")).status == 200
    reused = await confirmar(client, second["id"], msg_id="msg_reuso_1")
    assert reused.status == 409
    assert_error(await reused.json(), "PAYMENT_CONFIRMATION_REUSED")
    changed = await confirmar(client, first["id"], "recusada", msg_id="msg_reuso_1")
    assert changed.status == 409
    assert (await ler(client, live, second["id"]))["situacao"] == "pendente"


async def test_wrong_signatures_are_401(client, integrator, live):
    recarga = await comprar(client, live)
    outro = "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()
    wrong_secret = await confirmar(client, recarga["id"], segredo=outro)
    assert wrong_secret.status == 401
    assert_error(await wrong_secret.json(), "PAYMENT_SIGNATURE_INVALID")
    # a body changed after signing
    sent = assinado({"recargaId": recarga["id"], "resultado": "paga"})
    sent["data"] = sent["data"].replace("paga", "paga ")
    assert (await client.post(CONFIRMACAO, **sent)).status == 401
    # headers missing, or a signature of another scheme version
    for header, value in (("webhook-signature", None), ("webhook-id", None), ("webhook-signature", "v2,abc")):
        sent = assinado({"recargaId": recarga["id"], "resultado": "paga"})
        if value is None:
            del sent["headers"][header]
        else:
            sent["headers"][header] = value
        response = await client.post(CONFIRMACAO, **sent)
        assert response.status == 401, header
        assert_error(await response.json(), "PAYMENT_SIGNATURE_INVALID")
    assert (await ler(client, live, recarga["id"]))["situacao"] == "pendente"


async def test_one_valid_signature_among_several_is_enough(client, integrator, live):
    """A provider rotating its secret sends one signature per secret, space-separated."""
    recarga = await comprar(client, live)
    sent = assinado({"recargaId": recarga["id"], "resultado": "paga"})
    sent["headers"]["webhook-signature"] = "v1,bm90IHRoaXMgb25l " + sent["headers"]["webhook-signature"]
    assert (await client.post(CONFIRMACAO, **sent)).status == 200


@pytest.mark.parametrize("offset", [timedelta(minutes=-10), timedelta(minutes=6)])
async def test_old_or_future_timestamps_are_400(client, integrator, live, offset):
    recarga = await comprar(client, live)
    response = await confirmar(client, recarga["id"], quando=datetime.now(UTC) + offset)
    assert response.status == 400
    assert_error(await response.json(), "PAYMENT_TIMESTAMP_INVALID")
    sent = assinado({"recargaId": recarga["id"], "resultado": "paga"})
    sent["headers"]["webhook-timestamp"] = "ontem"
    assert (await client.post(CONFIRMACAO, **sent)).status == 400
    assert (await ler(client, live, recarga["id"]))["situacao"] == "pendente"


async def test_an_unknown_purchase_is_404(client):
    for recarga_id in (new_id("rec_"), "rec_nao-existe", "x" * 40):
        response = await confirmar(client, recarga_id)
        assert response.status == 404, recarga_id
        assert_error(await response.json(), "NOT_FOUND")


async def test_a_test_purchase_is_never_confirmed_by_a_provider(client, integrator):
    recarga = await comprar(client, integrator.key)
    response = await confirmar(client, recarga["id"])
    assert response.status == 403
    assert_error(await response.json(), "PAYMENT_NOT_ALLOWED")
    assert (await ler(client, integrator.key, recarga["id"]))["situacao"] == "pendente"


@pytest.mark.parametrize(
    ("corpo", "status", "tipo"),
    [
        ("não é json", 400, "INVALID_JSON"),
        ("[]", 400, "INVALID_JSON"),
        (json.dumps({"recargaId": "rec_x"}), 422, "VALIDATION_FAILED"),
        (json.dumps({"recargaId": "rec_x", "resultado": "estornada"}), 422, "VALIDATION_FAILED"),
        (json.dumps({"recargaId": "rec_x", "resultado": "paga", "valor": 1}), 422, "VALIDATION_FAILED"),
    ],
)
async def test_a_signed_but_malformed_body_is_refused(client, corpo, status, tipo):
    msg_id, quando = new_id("msg_"), datetime.now(UTC)
    headers = {
        "webhook-id": msg_id,
        "webhook-timestamp": str(int(quando.timestamp())),
        "webhook-signature": Webhook(SEGREDO).sign(msg_id, quando, corpo),
    }
    response = await client.post(CONFIRMACAO, data=corpo.encode(), headers=headers)
    assert response.status == status
    assert_error(await response.json(), tipo)


def assinado_cru(corpo: bytes, **headers: str) -> dict:
    """Raw bytes signed as a provider signs them, with `headers` replacing the signed ones."""
    msg_id, quando = new_id("msg_"), datetime.now(UTC)
    signed = {
        "Content-Type": "application/json",
        "webhook-id": msg_id,
        "webhook-timestamp": str(int(quando.timestamp())),
        "webhook-signature": Webhook(SEGREDO).sign(msg_id, quando, corpo.decode()),
    }
    return {"data": corpo, "headers": signed | headers}


async def test_a_timestamp_centuries_away_is_400_not_500(client):
    for timestamp in ("999999999999", "0", "1"):  # the far future, and the start of Unix time
        response = await client.post(
            CONFIRMACAO,
            **assinado_cru(b'{"recargaId": "rec_x", "resultado": "paga"}', **{"webhook-timestamp": timestamp}),
        )
        assert response.status == 400, await response.text()
        body = await response.json()
        assert_error(body, "PAYMENT_TIMESTAMP_INVALID")
        assert "o máximo é 300" in body["error"]["description"]


@pytest.mark.parametrize("depth", [65, 100_000])
async def test_a_signed_body_nested_too_deep_is_400_not_500(client, depth):
    corpo = ('{"recargaId": "rec_x", "resultado": "paga", "x": ' + "[" * depth + "]" * depth + "}").encode()
    response = await client.post(CONFIRMACAO, **assinado_cru(corpo))
    assert response.status == 400, await response.text()
    body = await response.json()
    assert_error(body, "INVALID_JSON")
    assert "64" in body["error"]["description"]


async def test_a_signed_body_repeating_a_key_is_400_naming_it(client, integrator, live):
    recarga = await comprar(client, live)
    corpo = f'{{"recargaId": "{recarga["id"]}", "resultado": "recusada", "resultado": "paga"}}'.encode()
    response = await client.post(CONFIRMACAO, **assinado_cru(corpo))
    assert response.status == 400, await response.text()
    body = await response.json()
    assert_error(body, "INVALID_JSON")
    assert '"resultado"' in body["error"]["description"]
    assert (await ler(client, live, recarga["id"]))["situacao"] == "pendente"


MALFORMADAS_POR_ENDERECO = 3


async def test_junk_confirmations_from_one_address_soon_meet_a_429(factory_for):
    # given the service with a low limit of refusals per address
    client, _ = await factory_for(
        Settings(pagamento_segredo=SEGREDO, rate_limit_unauthenticated_per_ip=MALFORMADAS_POR_ENDERECO)
    )
    junk = [
        assinado_cru(b"{}", **{"webhook-timestamp": "999999999999"}),
        assinado_cru(b"{}", **{"webhook-timestamp": "ontem"}),
        assinado_cru(b"[" * 100_000 + b"]" * 100_000),
        assinado_cru(b'{"recargaId": "rec_x", "resultado": "paga", "resultado": "paga"}'),
        assinado_cru(b'{"recargaId": "rec_x"}'),
        assinado_cru(b"nada", **{"webhook-id": "id com espaços"}),
    ]
    # when one address sends malformed confirmations of every kind, over and over
    statuses = []
    for sent in junk + junk:
        response = await client.post(CONFIRMACAO, **sent)
        body = await response.json()
        statuses.append(response.status)
        # then each is a documented 4xx of the catalog, never a 500
        assert 400 <= response.status < 500 and body["error"]["documentation"].endswith(body["error"]["type"])
    # and past the limit (other tests' refusals from 127.0.0.1 may share the window) they are 429
    assert 429 in statuses and statuses.index(429) <= MALFORMADAS_POR_ENDERECO
    assert statuses[-1] == 429


async def test_without_a_configured_secret_no_confirmation_is_accepted(factory_for):
    client, factory = await factory_for(Settings())
    integrator = await factory.integrator()
    live = await factory.key(integrator, ambiente=Ambiente.PRODUCAO)
    recarga = await comprar(client, live)
    response = await confirmar(client, recarga["id"])
    assert response.status == 401
    body = await response.json()
    assert_error(body, "PAYMENT_SIGNATURE_INVALID")
    assert "VITRINE_PAGAMENTO_SEGREDO" in body["error"]["description"]


async def test_the_webhook_takes_only_post(client):
    response = await client.get(CONFIRMACAO)
    assert response.status == 405


# -- exactly once, under concurrency --------------------------------------------------------------


async def test_the_same_confirmation_sent_ten_times_at_once_credits_once(client, integrator, live):
    recarga = await comprar(client, live, "pacote_2000")
    sent = assinado({"recargaId": recarga["id"], "resultado": "paga"})  # one message, ten deliveries
    responses = await asyncio.gather(*(client.post(CONFIRMACAO, **sent) for _ in range(10)))
    assert [r.status for r in responses] == [200] * 10
    bodies = [(await r.json())["data"] for r in responses]
    assert sum(b["aplicada"] for b in bodies) == 1 and sum(b["repetida"] for b in bodies) == 9
    assert await Lancamento.filter(recarga_id=recarga["id"]).count() == 1
    assert await ConfirmacaoPagamento.filter(recarga_id=recarga["id"]).count() == 1
    carteira = await ledger_matches_wallet(integrator.id, "producao")
    assert carteira.creditos_disponiveis == 2000


async def test_ten_different_confirmations_of_one_payment_credit_once(client, integrator, live):
    recarga = await comprar(client, live)
    responses = await asyncio.gather(*(confirmar(client, recarga["id"]) for _ in range(10)))
    assert [r.status for r in responses] == [200] * 10
    assert sum([(await r.json())["data"]["aplicada"] for r in responses]) == 1
    assert await Lancamento.filter(recarga_id=recarga["id"]).count() == 1
    assert (await ledger_matches_wallet(integrator.id, "producao")).creditos_disponiveis == 500


async def test_paid_and_refused_racing_exactly_one_wins(client, integrator, live):
    for _ in range(3):
        recarga = await comprar(client, live)
        pay, refuse = await asyncio.gather(
            confirmar(client, recarga["id"], "paga"), confirmar(client, recarga["id"], "recusada")
        )
        statuses = sorted([pay.status, refuse.status])
        assert statuses == [200, 409], statuses
        final = (await ler(client, live, recarga["id"]))["situacao"]
        winner = "paga" if pay.status == 200 else "recusada"
        assert final == winner
        assert await Lancamento.filter(recarga_id=recarga["id"]).count() == (1 if winner == "paga" else 0)
    await ledger_matches_wallet(integrator.id, "producao")


async def test_a_payment_racing_the_expiry_sweep_is_credited_or_not_never_half(client, integrator, live, later):
    recarga = await comprar(client, live)
    later(minutes=31)
    response, _ = await asyncio.gather(confirmar(client, recarga["id"], quando=relogio.agora()), expirar_recargas())
    assert response.status == 409  # past its deadline: never credited, whoever came first
    assert (await Recarga.get(id=recarga["id"])).situacao == "expirada"
    assert await Lancamento.filter(recarga_id=recarga["id"]).count() == 0


# -- staff ----------------------------------------------------------------------------------------


async def staff_graphql(client, token: str, query: str, **variables) -> dict:
    response = await client.post("/graphql", json={"query": query, "variables": variables}, headers=auth(token))
    assert response.status == 200, await response.text()
    return await response.json()


CONFIRMAR = (
    "mutation($id: ID!, $recusar: Boolean!, $referencia: String) "
    "{ confirmarRecarga(id: $id, recusar: $recusar, referencia: $referencia) { id situacao creditos } }"
)


async def test_staff_confirm_an_offline_payment_once_and_it_is_recorded(client, integrator, live):
    membro, token = await equipe.criar_membro("Financeiro Vitrine")
    recarga = await comprar(client, live, "pacote_2000")
    result = await staff_graphql(client, token, CONFIRMAR, id=recarga["id"], recusar=False, referencia="boleto 123")
    assert result["data"]["confirmarRecarga"] == {"id": recarga["id"], "situacao": "paga", "creditos": 2000}
    assert (await saldo(client, live))["creditosDisponiveis"] == 2000
    acao = await AcaoEquipe.get(alvo=recarga["id"])
    assert (acao.membro_id, acao.acao, acao.motivo) == (membro.id, "recarga_paga", "boleto 123")
    # again: agrees, applies nothing, records nothing more
    again = await staff_graphql(client, token, CONFIRMAR, id=recarga["id"], recusar=False)
    assert again["data"]["confirmarRecarga"]["situacao"] == "paga"
    assert await Lancamento.filter(recarga_id=recarga["id"]).count() == 1
    assert await AcaoEquipe.filter(alvo=recarga["id"]).count() == 1
    # refusing a paid purchase is refused
    refused = await staff_graphql(client, token, CONFIRMAR, id=recarga["id"], recusar=True)
    assert refused["errors"][0]["extensions"]["type"] == "PURCHASE_CLOSED"


async def test_staff_refuse_and_unknown_ids(client, integrator, live):
    _, token = await equipe.criar_membro("Suporte")
    recarga = await comprar(client, live)
    result = await staff_graphql(client, token, CONFIRMAR, id=recarga["id"], recusar=True)
    assert result["data"]["confirmarRecarga"]["situacao"] == "recusada"
    missing = await staff_graphql(client, token, CONFIRMAR, id=new_id("rec_"), recusar=False)
    assert missing["errors"][0]["extensions"]["type"] == "NOT_FOUND"
    bad = await staff_graphql(client, token, CONFIRMAR, id=recarga["id"], recusar=False, referencia="a\u0000b")
    assert bad["errors"][0]["extensions"]["type"] == "VALIDATION_FAILED"


async def test_only_staff_confirm_through_graphql(client, integrator, live):
    recarga = await comprar(client, live)
    response = await client.post(
        "/graphql",
        json={"query": CONFIRMAR, "variables": {"id": recarga["id"], "recusar": False}},
        headers=auth(live),
    )
    assert response.status == 403
    assert (await ler(client, live, recarga["id"]))["situacao"] == "pendente"
