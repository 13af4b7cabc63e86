"""Hostile connections, on a real socket to the test server (built as `vitrine serve` builds its
own, vitrine/http_server.py): a body that stops arriving, a client that hangs up mid-body, more
connections than one address may hold, and bytes the HTTP parser refuses. Each gets a documented
answer of the catalog (where one can still be sent), and none is the service's 500."""

import asyncio
import json
import logging

import pytest

from tests.api.test_auth import assert_error
from tests.factories import eventually
from vitrine.settings import Settings

BODY_READ_TIMEOUT = 0.5
CONNECTIONS_PER_ADDRESS = 3
# A bound on every wait for the server, never an assertion on time: a hung server fails the test.
PATIENCE = 20.0


@pytest.fixture
def settings() -> Settings:
    return Settings(
        call_log_process=False,
        body_read_timeout_seconds=BODY_READ_TIMEOUT,
        max_connections_per_address=CONNECTIONS_PER_ADDRESS,
    )


async def connect(client) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    url = client.make_url("/")
    return await asyncio.open_connection(url.host, url.port)


async def answer(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    """One HTTP response off the socket: status, headers (lower-case names), body."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), PATIENCE)
    lines = head.decode("latin-1").rstrip("\r\n").split("\r\n")
    headers = {name.strip().lower(): value.strip() for name, value in (line.split(":", 1) for line in lines[1:])}
    body = await asyncio.wait_for(reader.readexactly(int(headers.get("content-length", "0"))), PATIENCE)
    return int(lines[0].split()[1]), headers, body


async def closed(reader: asyncio.StreamReader) -> bool:
    return await asyncio.wait_for(reader.read(), PATIENCE) == b""


def head(method: str, path: str, *extra: str, length: int | None = None) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: vitrine.test", *extra]
    if length is not None:
        lines.append(f"Content-Length: {length}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def envelope(body: bytes, tipo: str) -> dict:
    data = json.loads(body)
    assert_error(data, tipo)
    return data


async def call_of(client, integrator, request_id: str) -> dict:
    async def logged() -> dict:
        response = await client.get(f"/v1/integracao/chamadas/{request_id}", headers=integrator.headers)
        assert response.status == 200, await response.text()
        return (await response.json())["data"]

    return await eventually(logged)


# -- a body that stops arriving ---------------------------------------------------------------


@pytest.mark.parametrize(
    "path, extra",
    [
        ("/pagamentos/confirmacao", ["Content-Type: application/json"]),
        # a door that does not answer it itself: the portal's sign-in form
        ("/entrar", ["Content-Type: application/x-www-form-urlencoded", "Cookie: vitrine_pre=visitante"]),
    ],
)
async def test_a_body_that_stops_arriving_is_408_and_the_connection_closes(client, path, extra):
    # given a request whose body promises 100 bytes and sends 10, on doors that need no credential
    reader, writer = await connect(client)
    writer.write(head("POST", path, *extra, length=100) + b'{"recarga')
    # when nothing more comes, then the service answers 408 from the catalog and hangs up
    status, headers, body = await answer(reader)
    assert status == 408, body
    envelope(body, "REQUEST_TIMEOUT")
    assert headers["connection"] == "close"
    assert await closed(reader)
    writer.close()


async def test_the_oauth_token_endpoint_answers_a_stalled_body_408_the_oauth_way(client):
    reader, writer = await connect(client)
    writer.write(
        head("POST", "/oauth/token", "Content-Type: application/x-www-form-urlencoded", length=100) + b"grant_type"
    )
    status, headers, body = await answer(reader)
    assert status == 408
    assert json.loads(body)["error"] == "invalid_request"
    assert await closed(reader)
    writer.close()


async def test_a_stalled_body_on_v1_is_408_in_the_call_log(client, integrator):
    reader, writer = await connect(client)
    writer.write(
        head(
            "POST",
            "/v1/contas",
            f"Authorization: Bearer {integrator.key}",
            "Content-Type: application/json",
            length=100,
        )
        + b'{"nome": "a'
    )
    status, headers, body = await answer(reader)
    assert status == 408
    envelope(body, "REQUEST_TIMEOUT")
    assert await closed(reader)
    writer.close()
    call = await call_of(client, integrator, headers["x-request-id"])
    assert call["status"] == 408 and call["codigoErro"] == "REQUEST_TIMEOUT"


async def test_a_body_that_trickles_in_slower_than_the_limit_is_still_cut(client):
    # a byte at a time keeps an idle timer alive forever: the limit is on the whole body
    reader, writer = await connect(client)
    writer.write(head("POST", "/pagamentos/confirmacao", "Content-Type: application/json", length=1000))

    async def trickle():
        for _ in range(1000):
            writer.write(b" ")
            await asyncio.sleep(BODY_READ_TIMEOUT / 5)

    sending = asyncio.create_task(trickle())
    try:
        status, _, body = await answer(reader)
    except ConnectionResetError:
        # The server answered and hung up while a byte of ours was on its way, and the reset threw
        # the unread answer away: hanging up on a body still arriving is the cut too. (Without the
        # limit neither comes: the answer's wait runs out and the test fails.)
        sending.cancel()
        writer.close()
        return
    finally:
        sending.cancel()
    assert status == 408
    envelope(body, "REQUEST_TIMEOUT")
    writer.close()


# -- a client that hangs up mid-body ----------------------------------------------------------


async def test_a_client_hanging_up_mid_body_is_its_own_499_not_our_500(client, integrator, caplog):
    # given a call with a valid key whose client hangs up after part of the body
    caplog.set_level(logging.INFO)
    reader, writer = await connect(client)
    writer.write(
        head(
            "POST",
            "/v1/contas",
            f"Authorization: Bearer {integrator.key}",
            "Content-Type: application/json",
            "Expect: 100-continue",
            length=200,
        )
    )
    # (the 100 Continue says the service took the request and now waits for its body)
    assert await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), PATIENCE) == b"HTTP/1.1 100 Continue\r\n\r\n"
    writer.write(b'{"codigoExterno": "meio')
    await writer.drain()
    writer.close()

    # then the call log records the client's abort, not an error of the service
    async def recorded() -> dict:
        response = await client.get("/v1/integracao/chamadas?endpoint=/contas&metodo=POST", headers=integrator.headers)
        calls = (await response.json())["data"]
        assert calls, "not logged yet"
        return calls[0]

    listed = await eventually(recorded)
    call = await call_of(client, integrator, listed["requestId"])
    assert call["status"] == 499 and call["codigoErro"] == "CLIENT_CLOSED_REQUEST"
    assert call["causa"] and call["comoCorrigir"]
    errors = await (await client.get("/v1/integracao/erros", headers=integrator.headers)).json()
    assert [e["tipo"] for e in errors["data"]] == ["CLIENT_CLOSED_REQUEST"]
    five_xx = await (await client.get("/v1/integracao/chamadas?status=5xx", headers=integrator.headers)).json()
    assert five_xx["data"] == []
    # and the log has a line about it, no error and no traceback
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not [r for r in caplog.records if r.exc_info]
    assert any("closed the connection" in r.getMessage() for r in caplog.records)


# -- connections per address ------------------------------------------------------------------


async def test_one_address_holds_a_bounded_number_of_connections(client):
    # given connections held open from one address (each asked something, and kept alive)
    held = []
    refused = None
    for _ in range(CONNECTIONS_PER_ADDRESS + 1):
        reader, writer = await connect(client)
        writer.write(head("GET", "/.well-known/oauth-authorization-server"))
        status, headers, body = await answer(reader)
        if status == 429:
            refused = (headers, body, reader, writer)
            break
        assert status == 200
        held.append((reader, writer))
    # then past the limit a connection is refused with the catalog's 429, unread, and closed
    assert refused is not None and len(held) <= CONNECTIONS_PER_ADDRESS
    headers, body, reader, writer = refused
    envelope(body, "TOO_MANY_CONNECTIONS")
    assert headers["retry-after"] == "1"
    assert await closed(reader)
    writer.close()

    # and once one held connection closes, the address may open another
    held.pop()[1].close()

    async def accepted() -> None:
        reader, writer = await connect(client)
        writer.write(head("GET", "/.well-known/oauth-authorization-server"))
        status, _, _ = await answer(reader)
        writer.close()
        assert status == 200

    await eventually(accepted)
    for _, writer in held:
        writer.close()


# -- what the HTTP parser refuses ---------------------------------------------------------------


@pytest.mark.parametrize(
    "raw, status, tipo",
    [
        (head("FOO", "/v1/contas"), 400, "BAD_REQUEST"),
        (head("GET", "/v1/contas?x=" + "a" * 20_000), 414, "URI_TOO_LONG"),
        (head("GET", "/v1/contas", "X-Longo: " + "a" * 20_000), 431, "HEADERS_TOO_LARGE"),
        (head("GET", "/v1/contas", *(f"X-{i}: 1" for i in range(200))), 431, "HEADERS_TOO_LARGE"),
        (head("POST", "/v1/contas", "Content-Length: abc"), 400, "BAD_REQUEST"),
        (head("POST", "/v1/contas", "Content-Length: -1"), 400, "BAD_REQUEST"),
        (head("POST", "/v1/contas", "Content-Length: 1", "Content-Length: 2") + b"ab", 400, "BAD_REQUEST"),
        (head("POST", "/oauth/token", "Content-Length: abc"), 400, "BAD_REQUEST"),
        (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 32 + b"\r\n\r\n", 400, "BAD_REQUEST"),
    ],
    ids=["metodo", "url", "cabecalho", "cabecalhos", "length-texto", "length-negativo", "length-duplo", "oauth", "tls"],
)
async def test_what_the_parser_refuses_gets_the_error_envelope(client, caplog, raw, status, tipo):
    caplog.set_level(logging.INFO)
    reader, writer = await connect(client)
    writer.write(raw)
    got, headers, body = await answer(reader)
    assert got == status, body
    assert headers["content-type"].startswith("application/json")
    data = envelope(body, tipo)
    # in Portuguese, without echoing the bytes or the parser's own words
    assert "aaaa" not in data["error"]["description"] and "encountered" not in data["error"]["description"]
    assert headers["x-request-id"].startswith("req_")
    assert await closed(reader)
    writer.close()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


@pytest.mark.parametrize(
    "raw, status, tipo, metodo",
    [
        (head("FOO", "/v1/contas?x=1", "Authorization: Bearer {key}"), 400, "BAD_REQUEST", "FOO"),
        (head("GET", "/v1/contas?x=" + "a" * 9000, "Authorization: Bearer {key}"), 414, "URI_TOO_LONG", "GET"),
        (head("POST", "/v1/contas", "Authorization: Bearer {key}", "Content-Length: abc"), 400, "BAD_REQUEST", "POST"),
    ],
    ids=["metodo", "url", "length"],
)
async def test_a_refused_request_with_a_valid_key_is_in_the_call_log(client, integrator, raw, status, tipo, metodo):
    reader, writer = await connect(client)
    writer.write(raw.replace(b"{key}", integrator.key.encode()))
    got, headers, _ = await answer(reader)
    writer.close()
    assert got == status
    call = await call_of(client, integrator, headers["x-request-id"])
    assert (call["status"], call["codigoErro"], call["metodo"]) == (status, tipo, metodo)
    assert call["endpoint"] == "/contas" and call["caminho"].startswith("/v1/contas")


async def test_a_refused_request_with_a_wrong_key_is_in_no_call_log(client, integrator):
    reader, writer = await connect(client)
    writer.write(head("FOO", "/v1/contas", f"Authorization: Bearer {integrator.key[:-3]}abc"))
    _, headers, _ = await answer(reader)
    writer.close()
    # a later call is logged, so an earlier one would be by now (the log is written in order)
    later = await client.get("/v1/saldo", headers=integrator.headers)
    await call_of(client, integrator, later.headers["X-Request-Id"])
    response = await client.get(f"/v1/integracao/chamadas/{headers['x-request-id']}", headers=integrator.headers)
    assert response.status == 404
