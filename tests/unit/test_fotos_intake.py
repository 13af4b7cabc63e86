"""Photo downloads through the outbound client, with the address rules of production (the
service's own client allows private addresses in tests, so these build a strict one)."""

import pytest

from graphql_api.conferencia.fotos import FotoRecusada, baixar
from tests.harness import CA_PATH
from tests.photos import PhotoHost
from vitrine.infra import outbound
from vitrine.infra.outbound import OutboundClient


@pytest.fixture
async def strict():
    client = OutboundClient(allow_private=False, ca_bundle=str(CA_PATH))
    yield client
    await client.close()


@pytest.fixture
async def lenient():
    client = OutboundClient(allow_private=True, ca_bundle=str(CA_PATH))
    yield client
    await client.close()


@pytest.fixture
async def site(https_server):
    return await https_server(PhotoHost().app)


async def reason(client, url: str) -> FotoRecusada:
    with pytest.raises(FotoRecusada) as error:
        await baixar(client, url, timeout=30)  # each refusal comes long before; a busy machine is slow
    return error.value


@pytest.mark.parametrize(
    "url",
    [
        "https://10.0.0.1/foto.jpg",
        "https://127.0.0.1/foto.jpg",
        "https://[::1]/foto.jpg",
        "https://169.254.169.254/latest",
    ],
)
async def test_private_loopback_and_link_local_addresses_are_refused(strict, url):
    assert (await reason(strict, url)).codigo == "FOTO_ENDERECO_PROIBIDO"


async def test_a_name_resolving_to_loopback_is_refused(strict, site):
    assert (await reason(strict, f"{site}/foto/1.jpg")).codigo == "FOTO_ENDERECO_PROIBIDO"  # localhost


async def test_a_redirect_to_a_private_address_is_refused(strict, site, monkeypatch):
    # The production rules, except that the test host itself (loopback) counts as public.
    is_public = outbound._is_public
    monkeypatch.setattr(outbound, "_is_public", lambda address: address.startswith("127.") or is_public(address))
    assert (await baixar(strict, f"{site}/foto/1.jpg", timeout=30)).status == 200
    assert (await reason(strict, f"{site}/para-privado")).codigo == "FOTO_ENDERECO_PROIBIDO"


async def test_http_and_redirects_to_http_are_refused(lenient, site):
    assert (await reason(lenient, "http://fotos.exemplo.com/1.jpg")).codigo == "FOTO_URL_INVALIDA"
    assert (await reason(lenient, f"{site}/para-http")).codigo == "FOTO_URL_INVALIDA"


async def test_transient_and_permanent_failures_are_told_apart(lenient, site):
    not_found, broken = await reason(lenient, f"{site}/status/404"), await reason(lenient, f"{site}/status/502")
    assert (not_found.codigo, not_found.transitoria) == ("FOTO_HTTP_ERRO", False)
    assert (broken.codigo, broken.transitoria, broken.detalhe) == ("FOTO_HTTP_ERRO", True, "HTTP 502")
    closed = await reason(lenient, "https://127.0.0.1:1/foto.jpg")
    assert (closed.codigo, closed.transitoria) == ("FOTO_INACESSIVEL", True)
    assert (await reason(lenient, f"{site}/grande.jpg")).codigo == "FOTO_GRANDE_DEMAIS"


async def test_a_good_photo_is_downloaded(lenient, site):
    response = await baixar(lenient, f"{site}/foto/1.jpg", timeout=30)
    assert response.status == 200 and response.body[:3] == b"\xff\xd8\xff"
