"""The safe outbound client, against real HTTPS servers on this machine."""

import pytest
from aiohttp import web

from tests.harness import CA_PATH
from vitrine.infra.outbound import OutboundClient, OutboundError


@pytest.fixture
async def site(https_server):
    async def ok(request):
        return web.Response(body=b"x" * int(request.query.get("n", "10")))

    async def chunked(request):
        response = web.StreamResponse()
        await response.prepare(request)
        for _ in range(10):
            await response.write(b"y" * 1000)
        return response

    async def redirect(request):
        hops = int(request.match_info["hops"])
        target = "/ok" if hops == 0 else f"/redir/{hops - 1}"
        raise web.HTTPFound(target)

    async def to_http(request):
        raise web.HTTPFound("http://example.com/")

    app = web.Application()
    app.router.add_get("/ok", ok)
    app.router.add_get("/chunked", chunked)
    app.router.add_get("/redir/{hops}", redirect)
    app.router.add_get("/to-http", to_http)
    return await https_server(app)


@pytest.fixture
async def client():
    c = OutboundClient(allow_private=True, ca_bundle=str(CA_PATH))
    yield c
    await c.close()


async def test_fetches_over_https_with_the_test_ca(site, client):
    response = await client.request("GET", f"{site}/ok?n=5", max_bytes=100)
    assert response.status == 200 and response.body == b"xxxxx"


async def test_size_is_enforced_while_streaming(site, client):
    with pytest.raises(OutboundError) as declared:
        await client.request("GET", f"{site}/ok?n=5000", max_bytes=1000)
    assert declared.value.code == "grande_demais"
    with pytest.raises(OutboundError) as streamed:
        await client.request("GET", f"{site}/chunked", max_bytes=5000)
    assert streamed.value.code == "grande_demais"
    cut = await client.request("GET", f"{site}/chunked", max_bytes=5000, truncate=True)
    assert cut.truncated and len(cut.body) == 5000


async def test_redirects_are_followed_up_to_three(site, client):
    assert (await client.request("GET", f"{site}/redir/2", max_bytes=100)).status == 200  # 3 redirects
    with pytest.raises(OutboundError) as too_many:
        await client.request("GET", f"{site}/redir/3", max_bytes=100)  # 4 redirects
    assert too_many.value.code == "redirecionamentos_demais"
    with pytest.raises(OutboundError) as insecure:
        await client.request("GET", f"{site}/to-http", max_bytes=100)
    assert insecure.value.code == "nao_https"


@pytest.mark.parametrize("url", ["http://example.com/x", "ftp://example.com/x", "example.com/x"])
async def test_only_https(client, url):
    with pytest.raises(OutboundError) as error:
        await client.request("GET", url, max_bytes=10)
    assert error.value.code in ("nao_https", "url_invalida")


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1",
        "10.0.0.1",
        "169.254.169.254",
        "[::1]",
        "192.168.0.10",
        "0.0.0.0",
        "[::ffff:127.0.0.1]",
        # the old spellings of IPv4 that resolvers still read
        "2130706433",
        "017700000001",
        "127.1",
        "0",
        "0x7f.1",
        "0177.0.0.1",
        "0xa9fea9fe",
    ],
)
async def test_private_literal_addresses_are_refused(host):
    strict = OutboundClient(allow_private=False)
    with pytest.raises(OutboundError) as error:
        await strict.request("GET", f"https://{host}/x", max_bytes=10)
    assert error.value.code == "endereco_proibido"
    await strict.close()


async def test_a_public_address_in_an_old_spelling_is_refused_as_invalid():
    client = OutboundClient(allow_private=False)
    with pytest.raises(OutboundError) as error:
        client.check_url("https://134744072/x.jpg")  # 8.8.8.8
    assert error.value.code == "url_invalida" and "8.8.8.8" in error.value.detail


async def test_names_resolving_to_private_addresses_are_refused_after_resolution(site):
    strict = OutboundClient(allow_private=False, ca_bundle=str(CA_PATH))
    with pytest.raises(OutboundError) as error:
        await strict.request("GET", f"{site}/ok", max_bytes=10)  # localhost -> 127.0.0.1
    assert error.value.code == "endereco_proibido"
    await strict.close()


async def test_redirect_to_a_private_address_is_refused(https_server):
    async def bounce(request):
        raise web.HTTPFound("https://169.254.169.254/latest/meta-data")

    app = web.Application()
    app.router.add_get("/", bounce)
    base = await https_server(app)
    client = OutboundClient(allow_private=False, ca_bundle=str(CA_PATH))
    client.check_url(base)  # a name: checked at resolution, which refuses localhost too
    with pytest.raises(OutboundError) as error:
        await client.request("GET", base + "/", max_bytes=10)
    assert error.value.code == "endereco_proibido"
    await client.close()


async def test_unknown_host_and_closed_port(client):
    with pytest.raises(OutboundError) as dns:
        await client.request("GET", "https://nao-existe.invalid/", max_bytes=10, timeout=5)
    assert dns.value.code in ("dns_falhou", "conexao_falhou")
    with pytest.raises(OutboundError) as closed:
        await client.request("GET", "https://127.0.0.1:1/", max_bytes=10, timeout=5)
    assert closed.value.code == "conexao_recusada"


async def test_untrusted_certificate_fails(site):
    no_ca = OutboundClient(allow_private=True)
    with pytest.raises(OutboundError) as error:
        await no_ca.request("GET", f"{site}/ok", max_bytes=10)
    assert error.value.code == "tls_falhou"
    await no_ca.close()
