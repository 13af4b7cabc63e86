"""Hostile input from the integrator's side: every malformed id, filter, number, cursor or text
gets a 4xx with the error body — never a 500 — and the call log keeps working for everyone."""

import asyncio
import json

import pytest

from tests.api.test_auth import assert_error
from tests.factories import eventually, raw_http

LONG = "a" * 300

# Every /v1 route with an id in its path, written with an id that cannot exist.
ID_ROUTES = [
    ("GET", "/v1/contas/{x}"),
    ("GET", "/v1/contas/{x}/produtos"),
    ("GET", "/v1/contas/{conta}/produtos/{x}"),
    ("DELETE", "/v1/contas/{conta}/produtos/{x}"),
    ("GET", "/v1/contas/{x}/produtos/SKU-1"),
    ("PUT", "/v1/contas/{x}/produtos/SKU-1"),
    ("POST", "/v1/produtos/{x}/conferencia"),
    ("GET", "/v1/geracoes/{x}"),
    ("POST", "/v1/imagens/{x}/edicoes"),
    ("GET", "/v1/avisos/{x}"),
    ("DELETE", "/v1/avisos/{x}"),
    ("POST", "/v1/avisos/{x}/segredo/rotacao"),
    ("GET", "/v1/avisos/{x}/entregas"),
    ("POST", "/v1/avisos/{x}/entregas/ent_01jabcdefghjkmnpqrstvwxyz0/reenvio"),
    ("POST", "/v1/avisos/{aviso}/entregas/{x}/reenvio"),
    ("GET", "/v1/testes-de-avisos/{x}"),
    ("GET", "/v1/integracao/chamadas/{x}"),
]

BODIES = {  # a valid body where the route needs one, so only the id can be wrong
    "PUT": {"nome": "Produto"},
    "/edicoes": {"operacoes": [{"tipo": "fundo_branco"}]},
}


@pytest.fixture
async def conta(factory, integrator):
    return await factory.conta(integrator)


@pytest.fixture
async def aviso_id(client, integrator, receptor):
    response = await client.put(
        "/v1/avisos", json={"url": receptor.url, "eventos": ["geracao.concluida"]}, headers=integrator.headers
    )
    assert response.status == 201, await response.text()
    return (await response.json())["data"]["id"]


@pytest.mark.parametrize("method, template", ID_ROUTES)
@pytest.mark.parametrize("bad_id", [LONG, "cta_" + "z" * 27, "x", "prd_%00abc", "%E2%80%8B"])
async def test_an_id_that_cannot_exist_is_404(client, integrator, conta, aviso_id, method, template, bad_id):
    path = template.format(x=bad_id, conta=conta["id"], aviso=aviso_id)
    headers = integrator.headers | {"Idempotency-Key": "idem-hostil-1"}
    body = BODIES.get(method) or BODIES.get(path[path.rfind("/") :])
    response = await client.request(method, path, json=body, headers=headers)
    assert response.status == 404, (path, await response.text())
    assert_error(await response.json(), "NOT_FOUND")


async def test_a_sku_too_long_or_with_control_characters_is_refused_on_put(client, integrator, conta):
    for codigo in ("S" * 300, "SKU%01A", "SKU%7FA"):
        response = await client.put(
            f"/v1/contas/{conta['id']}/produtos/{codigo}", json={"nome": "P"}, headers=integrator.headers
        )
        assert response.status == 422, (codigo, await response.text())
        assert (await response.json())["error"]["fields"][0]["campo"] == "codigo"


@pytest.mark.parametrize(
    "path, campo",
    [
        (f"/v1/contas?origem={'o' * 21}", "origem"),
        ("/v1/contas?situacao=feliz", "situacao"),
        (f"/v1/contas?codigoExterno={LONG}", "codigoExterno"),
        ("/v1/integracao/chamadas?metodo=DELETEXXX", "metodo"),
        (f"/v1/integracao/chamadas?codigoErro={LONG}", "codigoErro"),
        (f"/v1/integracao/chamadas?endpoint={LONG}", "endpoint"),
        (f"/v1/integracao/chamadas?contaId={LONG}", "contaId"),
        ("/v1/integracao/chamadas?contaId=cta_1", "contaId"),
        ("/v1/contas?limite=2147483648", "limite"),
        ("/v1/contas?limite=99999999999999999999999", "limite"),
        ("/v1/contas?limite=", "limite"),
        ("/v1/contas?limite=0", "limite"),
        ("/v1/contas?limite=-1", "limite"),
        ("/v1/contas?limite=%EF%BC%91", "limite"),  # a full-width digit: isdigit() but not ASCII
        ("/v1/integracao/chamadas?limite=2147483648", "limite"),
        ("/v1/avisos?limite=2147483648", "limite"),
        ("/v1/extrato?limite=2147483648", "limite"),
        ("/v1/contas?cursor=AAAA%00", "cursor"),
        (f"/v1/contas?cursor={LONG}", "cursor"),
        ("/v1/contas?cursor=prd_01jabcdefghjkmnpqrstvwxyz0", "cursor"),
        ("/v1/integracao/chamadas?cursor=AAAA", "cursor"),
        ("/v1/avisos?cursor=AAAA", "cursor"),
        ("/v1/extrato?cursor=AAAA", "cursor"),
        ("/v1/contas?codigoExterno=a%00b", "codigoExterno"),
    ],
)
async def test_a_filter_out_of_shape_is_422_naming_it(client, integrator, path, campo):
    response = await client.get(path, headers=integrator.headers)
    assert response.status == 422, (path, await response.text())
    body = await response.json()
    assert_error(body, "VALIDATION_FAILED")
    assert [f["campo"] for f in body["error"]["fields"]] == [campo]


async def test_the_product_list_refuses_a_bad_cursor_and_limit(client, integrator, conta):
    base = f"/v1/contas/{conta['id']}/produtos"
    for query, campo in (("cursor=AAAA", "cursor"), ("limite=2147483648", "limite")):
        response = await client.get(f"{base}?{query}", headers=integrator.headers)
        assert response.status == 422, await response.text()
        assert (await response.json())["error"]["fields"][0]["campo"] == campo


async def test_a_valid_cursor_of_the_right_kind_still_pages(client, integrator, factory):
    for _ in range(3):
        await factory.conta(integrator)
    first = await (await client.get("/v1/contas?limite=2", headers=integrator.headers)).json()
    cursor = first["paginacao"]["proximoCursor"]
    assert cursor.startswith("cta_")
    second = await client.get(f"/v1/contas?limite=2&cursor={cursor}", headers=integrator.headers)
    assert second.status == 200 and len((await second.json())["data"]) == 1


@pytest.mark.parametrize(
    "raw, campo",
    [
        ('{"nome": "P", "provaSocial": {"vendidos": 99999999999999999999999}}', "provaSocial.vendidos"),
        ('{"nome": "P", "provaSocial": {"vendidos": -99999999999999999999999}}', "provaSocial.vendidos"),
        ('{"nome": "P", "dimensoes": {"largura": 1e400}}', "dimensoes.largura"),
        (
            '{"nome": "P", "atributos": [{"nome": "a", "valor": "b"}, {"nome": "c", "valor": 1e999}]}',
            "atributos[1].valor",
        ),
    ],
)
async def test_numbers_beyond_64_bits_or_infinite_are_422_naming_the_field(client, integrator, conta, raw, campo):
    response = await client.put(
        f"/v1/contas/{conta['id']}/produtos/SKU-N",
        data=raw.encode(),
        headers=integrator.headers | {"Content-Type": "application/json"},
    )
    assert response.status == 422, await response.text()
    body = await response.json()
    assert_error(body, "VALIDATION_FAILED")
    assert [f["campo"] for f in body["error"]["fields"]] == [campo]


@pytest.mark.parametrize("raw", ['{"nome": NaN}', '{"nome": Infinity}', '{"nome": "\\ud800"}'])
async def test_json_that_is_not_interoperable_is_invalid(client, integrator, raw):
    response = await client.post(
        "/v1/contas", data=raw.encode(), headers=integrator.headers | {"Content-Type": "application/json"}
    )
    assert response.status == 400, await response.text()
    assert_error(await response.json(), "INVALID_JSON")


@pytest.mark.parametrize(
    "dados, campo",
    [
        ({"codigoExterno": "a\x00b", "nome": "N"}, "codigoExterno"),
        ({"codigoExterno": "a\tb", "nome": "N"}, "codigoExterno"),
        ({"codigoExterno": "a\nb", "nome": "N"}, "codigoExterno"),
        ({"codigoExterno": "ab", "nome": "N\x00"}, "nome"),
        ({"codigoExterno": "ab", "nome": "N\x1b[31m"}, "nome"),
        ({"codigoExterno": "ab", "nome": "N\x85N"}, "nome"),
    ],
)
async def test_control_characters_are_refused_in_account_fields(client, integrator, dados, campo):
    response = await client.post("/v1/contas", json=dados, headers=integrator.headers)
    assert response.status == 422, await response.text()
    body = await response.json()
    assert [(f["campo"], f["codigo"]) for f in body["error"]["fields"]] == [(campo, "caractere_invalido")]


async def test_free_text_keeps_newlines_and_tabs_but_refuses_other_control_characters(client, integrator, conta):
    path = f"/v1/contas/{conta['id']}/produtos/SKU-T"
    ok = await client.put(
        path, json={"nome": "Produto", "descricao": "Linha 1\nLinha 2\r\n\tfim"}, headers=integrator.headers
    )
    assert ok.status == 200, await ok.text()
    bad = await client.put(path, json={"nome": "Produto", "descricao": "sino\x07"}, headers=integrator.headers)
    assert bad.status == 422
    assert [(f["campo"], f["codigo"]) for f in (await bad.json())["error"]["fields"]] == [
        ("descricao", "caractere_invalido")
    ]
    name = await client.put(path, json={"nome": "Pro\nduto"}, headers=integrator.headers)
    assert name.status == 422  # a name is one line


@pytest.mark.parametrize("depth", [65, 1000, 100_000])
async def test_json_nested_beyond_the_limit_is_400_naming_it(client, integrator, depth):
    raw = '{"codigoExterno": "d", "nome": "n", "x": ' + "[" * depth + "]" * depth + "}"
    response = await client.post(
        "/v1/contas", data=raw.encode(), headers=integrator.headers | {"Content-Type": "application/json"}
    )
    assert response.status == 400, await response.text()
    body = await response.json()
    assert_error(body, "INVALID_JSON")
    assert "64" in body["error"]["description"]


async def test_json_nested_to_the_limit_is_read(client, integrator):
    nested = {"codigoExterno": "d", "nome": "n", "x": json.loads("[" * 63 + "]" * 63)}  # 64 levels with the body
    response = await client.post("/v1/contas", json=nested, headers=integrator.headers)
    assert response.status == 422  # read, then refused by the account's own rules (unknown field)
    assert [f["campo"] for f in (await response.json())["error"]["fields"]] == ["x"]


async def test_a_poison_request_does_not_stop_the_call_log_of_anyone(client, factory, integrator):
    # given a hostile request that reaches the call log with a body nested 1000 levels deep
    raw = '{"codigoExterno": "d", "nome": "n", "x": ' + "[" * 1000 + "]" * 1000 + "}"
    poison = await client.post(
        "/v1/contas", data=raw.encode(), headers=integrator.headers | {"Content-Type": "application/json"}
    )
    assert poison.status == 400
    # when another integrator calls right after, then both calls are logged
    data = await _both_logged_after_another_call(client, factory, integrator, poison.headers["X-Request-Id"])
    # the poison request with its metadata intact
    assert data["status"] == 400 and data["codigoErro"] == "INVALID_JSON"


async def _both_logged_after_another_call(client, factory, integrator, poison_id: str) -> dict:
    """Another integrator calls right after a hostile call; both calls reach the call log. The
    hostile call's detail, as the integrator reads it."""
    other = await factory.integrator(nome="Outra")
    fresh = await client.get("/v1/saldo", headers=other.headers)
    fresh_id = fresh.headers["X-Request-Id"]

    async def logged():
        response = await client.get(f"/v1/integracao/chamadas/{fresh_id}", headers=other.headers)
        assert response.status == 200
        poison = await client.get(f"/v1/integracao/chamadas/{poison_id}", headers=integrator.headers)
        assert poison.status == 200
        return (await poison.json())["data"]

    return await eventually(logged, timeout=10)


async def test_a_whole_number_written_with_a_fraction_is_an_integer(client, integrator, conta):
    # JSON has one number type: 3.0 is the integer 3, as JSON Schema says
    raw = b'{"nome": "P", "provaSocial": {"vendidos": 3.0, "notaMedia": 4.5}}'
    response = await client.put(
        f"/v1/contas/{conta['id']}/produtos/SKU-F",
        data=raw,
        headers=integrator.headers | {"Content-Type": "application/json"},
    )
    assert response.status == 200, await response.text()
    ficha = await client.get(f"/v1/contas/{conta['id']}/produtos/SKU-F", headers=integrator.headers)
    assert ficha.status == 200
    bad = await client.put(
        f"/v1/contas/{conta['id']}/produtos/SKU-F",
        data=b'{"nome": "P", "provaSocial": {"vendidos": 3.5}}',
        headers=integrator.headers | {"Content-Type": "application/json"},
    )
    assert bad.status == 422
    assert [f["campo"] for f in (await bad.json())["error"]["fields"]] == ["provaSocial.vendidos"]


@pytest.mark.parametrize("method, path, status", [("GET", "/v1/saldo", 200), ("POST", "/v1/contas", 400)])
async def test_a_header_that_is_not_utf8_does_not_stop_the_call_log_of_anyone(
    client, factory, integrator, method, path, status
):
    """Header bytes that are not UTF-8 reach the service as text no database stores (lone
    surrogates): the call gets its answer (a POST's key is refused as invalid), and the call log
    keeps taking every call, this one included, the bad bytes shown as U+FFFD."""
    # given a call whose Content-Type and Idempotency-Key carry bytes that are not UTF-8
    answered, headers = await raw_http(
        client,
        f"{method} {path} HTTP/1.1\r\nHost: vitrine\r\nConnection: close\r\nContent-Length: 0\r\n".encode()
        + f"Authorization: Bearer {integrator.key}\r\n".encode()
        + b"Content-Type: text/plain; charset=\xff\r\nIdempotency-Key: chave-hostil-\xff\xfe\r\n\r\n",
    )
    assert answered == status
    # when another integrator calls right after, then both calls are logged
    data = await _both_logged_after_another_call(client, factory, integrator, headers["x-request-id"])
    # the hostile one with its headers
    assert data["caminho"] == path and data["status"] == status
    assert data["cabecalhosEnviados"]["Content-Type"] == "text/plain; charset=\ufffd"
    assert data["cabecalhosEnviados"]["Idempotency-Key"].endswith("\ufffd\ufffd")


@pytest.mark.parametrize(
    "raw, chave",
    [
        ('{"codigoExterno": "dup", "nome": "A", "nome": "B"}', "nome"),
        ('{"codigoExterno": "dup", "nome": "A", "x": {"y": 1, "y": 1}}', "y"),
    ],
)
async def test_a_key_repeated_in_one_object_is_400_naming_it(client, integrator, raw, chave):
    # a parser keeping the first value reads another request than one keeping the last: refused,
    # as the OAuth token endpoint and the payment confirmation refuse it
    response = await client.post(
        "/v1/contas", data=raw.encode(), headers=integrator.headers | {"Content-Type": "application/json"}
    )
    assert response.status == 400, await response.text()
    body = await response.json()
    assert_error(body, "INVALID_JSON")
    assert f'"{chave}"' in body["error"]["description"]


async def test_a_cursor_of_another_tenant_is_422(client, factory, integrator):
    # given another integrator's account: a cursor of the right kind, of someone else's list
    other = await factory.integrator()
    alheia = await factory.conta(other)
    await factory.conta(integrator)
    response = await client.get(f"/v1/contas?cursor={alheia['id']}", headers=integrator.headers)
    assert response.status == 422, await response.text()
    body = await response.json()
    assert_error(body, "VALIDATION_FAILED")
    assert [f["campo"] for f in body["error"]["fields"]] == ["cursor"]


async def test_a_cursor_of_another_list_is_422(client, factory, integrator):
    # given two accounts, each with products: a product cursor of one used on the other's list
    a, b = await factory.conta(integrator), await factory.conta(integrator)
    produto_de_a = await factory.produto(integrator, a)
    await factory.produto(integrator, b)
    response = await client.get(
        f"/v1/contas/{b['id']}/produtos?cursor={produto_de_a['id']}", headers=integrator.headers
    )
    assert response.status == 422, await response.text()
    assert [f["campo"] for f in (await response.json())["error"]["fields"]] == ["cursor"]
    # but a list paged while its items are deleted still pages, the cursor's own item gone
    conta = await factory.conta(integrator)
    for codigo in ("A", "B", "C"):
        await factory.produto(integrator, conta, codigo=codigo)
    base = f"/v1/contas/{conta['id']}/produtos"
    first = await (await client.get(f"{base}?limite=2", headers=integrator.headers)).json()
    cursor = first["paginacao"]["proximoCursor"]
    deleted = await client.delete(f"{base}/{first['data'][-1]['codigo']}", headers=integrator.headers)
    assert deleted.status in (200, 204), await deleted.text()
    # then the next page still comes, from where the list was
    second = await client.get(f"{base}?limite=2&cursor={cursor}", headers=integrator.headers)
    assert second.status == 200, await second.text()
    assert [p["codigo"] for p in (await second.json())["data"]] == ["A"]


@pytest.mark.parametrize(
    "method, path",
    [
        ("GET", "/v1/contas?limite=0"),
        ("GET", "/v1/contas?situacao=feliz"),
        ("GET", "/v1/integracao/chamadas?naoExiste=1"),
        ("POST", "/v1/produtos/prd_01jabcdefghjkmnpqrstvwxyz0/conferencia?refazer=talvez"),
    ],
)
async def test_a_query_error_says_it_is_about_the_query_string(client, integrator, method, path):
    response = await client.request(method, path, headers=integrator.headers)
    assert response.status == 422, await response.text()
    description = (await response.json())["error"]["description"]
    assert "corpo" not in description and "parâmetros de consulta" in description
    # and the call log says the same

    async def logged():
        call = await client.get(
            f"/v1/integracao/chamadas/{response.headers['X-Request-Id']}", headers=integrator.headers
        )
        assert call.status == 200
        return (await call.json())["data"]

    assert (await eventually(logged))["causa"] == description
    # while a 422 about the body still speaks of the body
    response = await client.post("/v1/contas", json={"nome": ""}, headers=integrator.headers)
    assert response.status == 422
    assert "corpo" in (await response.json())["error"]["description"]


async def test_registering_an_address_whose_dns_never_answers_does_not_hang(client, integrator, monkeypatch):
    # given a name server that never answers for one name (getaddrinfo's resolver cannot be
    # pointed at a silent server from a test, so the lookup itself is made to wait forever)
    from aiohttp.resolver import DefaultResolver

    from vitrine.infra import outbound

    real = DefaultResolver.resolve

    async def silent_for_one_name(self, host, *args, **kwargs):
        if host == "dns-mudo.exemplo.test":
            await asyncio.Event().wait()
        return await real(self, host, *args, **kwargs)

    monkeypatch.setattr(DefaultResolver, "resolve", silent_for_one_name)
    monkeypatch.setattr(outbound, "RESOLVE_TIMEOUT", 0.2, raising=False)
    # when the address is registered, then the answer comes: a name that does not resolve (in
    # time) is checked again by every delivery, like one that does not resolve at all
    response = await asyncio.wait_for(
        client.put(
            "/v1/avisos",
            json={"url": "https://dns-mudo.exemplo.test/avisos", "eventos": ["geracao.concluida"]},
            headers=integrator.headers,
        ),
        timeout=20,
    )
    assert response.status == 201, await response.text()
