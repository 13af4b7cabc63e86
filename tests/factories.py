"""Builders for test data, as keyword-only async factories exposed as fixtures."""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graphql_api.chave import service as chaves
from graphql_api.conta.models import Conta
from graphql_api.core import relogio as relogio_do_dominio
from graphql_api.core.ids import new_id
from graphql_api.core.principal import Ambiente
from graphql_api.core.transactions import transaction
from graphql_api.creditos import planos
from graphql_api.creditos import service as creditos_service
from graphql_api.evento import service as eventos
from graphql_api.evento.amostras import amostra
from graphql_api.evento.models import Evento
from graphql_api.evento.payloads import DadosEvento
from graphql_api.geracao.models import Geracao
from graphql_api.integracao import contrato
from graphql_api.integrador import service as integradores
from graphql_api.integrador.models import Integrador
from tests.fichas import RICA, fotos
from tests.photos import PhotoHost
from vitrine.keys import RUNTIME


@dataclass
class Integrator:
    id: str
    key: str  # a test key (sk_test_…)

    @property
    def headers(self) -> dict[str, str]:
        return auth(self.key)


def media_origin() -> str:
    """Where media links point in this run: the service itself (file store), or the run's S3
    server on the PostgreSQL + Redis leg."""
    endpoint = os.environ.get("VITRINE_S3_ENDPOINT_URL", "")
    return endpoint if os.environ.get("VITRINE_STORAGE_URL", "").startswith("s3://") else ""


def assert_signed_link(url: str) -> None:
    """A media link that expires and cannot be changed: the service's HMAC, or S3's presigning."""
    if media_origin():
        assert url.startswith(media_origin()) and "X-Amz-Signature=" in url and "X-Amz-Expires=" in url, url
    else:
        assert "/midia/" in url and "sig=" in url and "exp=" in url, url


async def fetch_media(client, url: str, headers: dict[str, str] | None = None):
    """GET a media link as a browser would: from the service (file store) or from S3."""
    url = url.replace("&amp;", "&")
    if media_origin():
        import aiohttp

        async with aiohttp.ClientSession() as session, session.get(url, headers=headers) as response:
            body = await response.read()
            return response.status, response.content_type, body
    response = await client.get("/midia/" + url.split("/midia/", 1)[1], headers=headers)
    return response.status, response.content_type, await response.read()


def auth(key: str, **extra: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}", **extra}


class Factory:
    def __init__(self, client) -> None:
        self.client = client

    @property
    def runtime(self):
        return self.client.app[RUNTIME]

    async def integrator(
        self, *, nome: str = "Integradora Teste", limite_chave: int | None = None, limite_integrador: int | None = None
    ) -> Integrator:
        created = await integradores.criar_integrador(nome=nome, email="dev@integradora.test")
        if limite_chave or limite_integrador:
            await integradores.definir_limites(
                created.integrador.id, por_chave=limite_chave, por_integrador=limite_integrador, bus=self.runtime.bus
            )
        return Integrator(created.integrador.id, created.chave_teste)

    async def key(self, integrator: Integrator, *, ambiente: Ambiente = Ambiente.TESTE) -> str:
        if ambiente is Ambiente.PRODUCAO:
            await self.released(integrator)
        _, token = await chaves.criar_chave(integrator.id, ambiente, nome="outra")
        return token

    async def released(self, integrator: Integrator) -> None:
        """Production already released and the contract accepted: a test-data shortcut for tests
        of other features (tests/api/test_integracao.py walks the real path)."""
        await Integrador.filter(id=integrator.id).update(
            producao_situacao="liberada", producao_liberacao="automatica", producao_liberada_em=datetime.now(UTC)
        )
        versao = await contrato.vigente()
        await contrato.aceitar(integrator.id, versao.versao, por="Fábrica de testes")

    async def conta(
        self, integrator: Integrator, *, codigo_externo: str | None = None, nome: str = "Loja Teste"
    ) -> dict:
        response = await self.client.post(
            "/v1/contas",
            json={"codigoExterno": codigo_externo or new_id("ext_"), "nome": nome},
            headers=integrator.headers,
        )
        assert response.status == 201, await response.text()
        return (await response.json())["data"]

    async def conta_vinculada(
        self, integrator: Integrator, *, nome: str = "Loja Vinculada", ambiente: str = "teste"
    ) -> Conta:
        """A seller's own account linked to the integrator (as OAuth consent leaves it)."""
        return await Conta.create(
            id=new_id("cta_"),
            integrador_id=integrator.id,
            ambiente=ambiente,
            codigo_externo=new_id("vinc_"),
            nome=nome,
            origem="vinculada",
        )

    async def evento(
        self,
        integrator: Integrator,
        tipo: str = "geracao.concluida",
        *,
        conta_id: str | None = None,
        ambiente: str = "teste",
        dados: DadosEvento | None = None,
    ) -> Evento:
        """An event as a domain registers it, inside the transaction of its change; its data is the
        type's sample (graphql_api/evento/amostras.py) unless given."""
        return await eventos.registrar(
            tipo,
            integrador_id=integrator.id,
            ambiente=ambiente,
            conta_id=conta_id,
            dados=dados if dados is not None else amostra(tipo).dados,
        )

    async def pedir(self, key: str, path: str, body: dict, *, idempotency_key: str | None = None) -> dict:
        """A credit-spending POST (galerias, videos, edicoes) answered 201; its Geracao data."""
        headers = auth(key, **{"Idempotency-Key": idempotency_key or new_id("idem-")})
        response = await self.client.post(path, json=body, headers=headers)
        assert response.status == 201, await response.text()
        return (await response.json())["data"]

    async def terminada(self, key: str, geracao_id: str, *, timeout: float = 90.0) -> dict:
        """Poll GET /geracoes/{id}, as an integrator would, until it is no longer being made."""

        async def finished() -> dict:
            response = await self.client.get(f"/v1/geracoes/{geracao_id}", headers=auth(key))
            assert response.status == 200, await response.text()
            data = (await response.json())["data"]
            assert data["situacao"] in ("concluida", "parcial", "falhou"), data["progresso"]
            return data

        return await eventually(finished, timeout=timeout, interval=0.2)

    async def creditar(self, integrator: Integrator, ambiente: str, creditos: int) -> None:
        """Credits in a wallet (production has no purchase flow yet: a test-data shortcut)."""
        async with transaction():
            await creditos_service.creditar(integrator.id, ambiente, creditos, "Créditos da suíte de testes.")

    async def plano(self, integrator: Integrator, codigo: str, *, ambiente: str = "teste"):
        """Change the environment's plan, as staff or the portal would (an upgrade at once, a
        downgrade scheduled); the process's caches of limits are cleared."""
        return await planos.mudar_plano(integrator.id, ambiente, codigo, bus=self.runtime.bus)

    async def ajustar(
        self, integrator: Integrator, creditos: int, *, ambiente: str = "teste", bolso: str = "pacote"
    ) -> None:
        """A staff adjustment of the wallet (e.g. leave the play wallet with just a few credits)."""
        async with transaction():
            await creditos_service.ajustar(integrator.id, ambiente, creditos, "Ajuste da suíte de testes.", bolso=bolso)

    async def geracao(
        self, integrator: Integrator, *, ambiente: str = "teste", conta_id: str | None = None, **fields: Any
    ) -> Geracao:
        values = {
            "tipo": "galeria",
            "situacao": "concluida",
            "etapa": "entregue",
            "percentual": 100,
            "resultados": {
                "imagens": [
                    {"id": new_id("img_"), "posicao": i, "arquivo": f"testes/{i}.jpg", "largura": 600, "altura": 600}
                    for i in (1, 2)
                ]
            },
        } | fields
        return await Geracao.create(
            id=new_id("ger_"), integrador_id=integrator.id, ambiente=ambiente, conta_id=conta_id, **values
        )

    async def produto(
        self, integrator: Integrator, conta: dict, *, codigo: str | None = None, key: str | None = None, **ficha: Any
    ) -> dict:
        """PUT a ficha (at least `nome`, given or defaulted) and return the product summary. A
        linked account's products are sent with its OAuth token (`key`), as only it may."""
        codigo = codigo or new_id("sku_")
        response = await self.client.put(
            f"/v1/contas/{conta['id']}/produtos/{codigo}",
            json={"nome": "Produto Teste"} | ficha,
            headers=auth(key) if key else integrator.headers,
        )
        assert response.status == 200, await response.text()
        return (await response.json())["data"]

    async def conferido(
        self, integrator: Integrator, produto: dict, *, timeout: float = 90.0, key: str | None = None
    ) -> dict:
        """Wait for the check of the product's current version to end; returns the product."""
        path = f"/v1/contas/{produto['contaId']}/produtos/{produto['codigo']}"

        async def done() -> dict:
            response = await self.client.get(path, headers=auth(key) if key else integrator.headers)
            assert response.status == 200, await response.text()
            data = (await response.json())["data"]
            assert data["situacao"] != "conferindo", data
            return data

        return await eventually(done, timeout=timeout, interval=0.1)


@pytest.fixture
async def factory(client) -> Factory:
    return Factory(client)


@pytest.fixture
async def integrator(factory) -> Integrator:
    return await factory.integrator()


@pytest.fixture
async def aprovado(factory, integrator, photo_site):
    """A rich product of the integrator, approved by a real check of photos served over HTTPS."""
    conta = await factory.conta(integrator)
    produto = await factory.produto(integrator, conta, **RICA, imagens=fotos(photo_site, 1, 2, 3, 4, 5, 6))
    return await factory.conferido(integrator, produto)


class Relogio:
    """The domain's clock as a test moves it (graphql_api/core/relogio.py)."""

    def avancar(self, **quanto: float) -> None:
        relogio_do_dominio.avancar(timedelta(**quanto))

    def ate(self, momento: datetime) -> None:
        """Forward to `momento` (a cycle's end, say); never backward."""
        falta = momento - relogio_do_dominio.agora()
        if falta > timedelta(0):
            relogio_do_dominio.avancar(falta)

    def agora(self) -> datetime:
        return relogio_do_dominio.agora()

    def no_comeco_de_um_minuto(self) -> None:
        """Forward to just after a minute turns: the per-minute windows of the rate limits that a
        test fills cannot turn while it runs."""
        segundos = relogio_do_dominio.agora().timestamp() % 60
        relogio_do_dominio.avancar(timedelta(seconds=60 - segundos + 0.5))


@pytest.fixture
def relogio():
    """Move the service's clock forward in a test (a month passes at once); undone afterwards. The
    clock of this process only: work done by a separate worker process keeps the real time."""
    with relogio_do_dominio.deslocado(timedelta(0)):
        yield Relogio()


@dataclass
class PhotoSite:
    url: str  # https://localhost:<port>
    host: PhotoHost

    def __call__(self, path: str) -> str:
        return f"{self.url}{path}"


@pytest.fixture
async def photo_site(https_server) -> PhotoSite:
    """A real HTTPS photo host (tests/photos.py), trusted through the test CA."""
    host = PhotoHost()
    return PhotoSite(await https_server(host.app), host)


async def raw_http(client, request: bytes) -> tuple[int, dict[str, str]]:
    """(status, headers) of a request sent to the test server as raw bytes: no HTTP client sends
    bytes that are not UTF-8 in a header or cookie."""
    url = client.make_url("/")
    reader, writer = await asyncio.open_connection(url.host, url.port)
    writer.write(request)
    answer = await reader.read()
    writer.close()
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    headers = dict(line.split(":", 1) for line in head[1:])
    return int(head[0].split()[1]), {name.strip().lower(): value.strip() for name, value in headers.items()}


async def eventually(check, *, timeout: float = 30.0, interval: float = 0.05):
    """Retry an async check until it stops raising AssertionError (for work done in background).
    The pause between tries grows to a second: a long wait on a busy machine polls an endpoint a
    few dozen times, never enough to meet its rate limit."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        try:
            return await check()
        except AssertionError:
            if asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(interval)
            interval = min(1.0, interval * 1.5)


# -- OAuth ------------------------------------------------------------------------------------


@dataclass
class OAuthApp:
    client_id: str
    client_secret: str | None
    redirect_uri: str
    integrator: Integrator


@dataclass
class Consentimento:
    """A seller's consent as the app's callback receives it, and the verifier the app kept."""

    code: str
    state: str
    verifier: str
    callback: str  # the whole redirect, as the browser was sent to it


def pkce_pair() -> tuple[str, str]:
    """(code_verifier, code_challenge) as a client makes them (RFC 7636, S256)."""
    from authlib.common.security import generate_token
    from authlib.oauth2.rfc7636 import create_s256_code_challenge

    verifier = generate_token(64)
    return verifier, create_s256_code_challenge(verifier)


class OAuthFactory:
    """Apps, sellers and consents, made through the domain as the portal pages would."""

    def __init__(self, factory: Factory) -> None:
        self.factory = factory

    async def app(
        self,
        integrator: Integrator,
        *,
        tipo: str = "confidencial",
        ambiente: str = "teste",
        redirect_uri: str = "https://app.integradora.test/callback",
        escopos: list[str] | None = None,
        nome: str = "App da Integradora",
    ) -> OAuthApp:
        from graphql_api.core.principal import OAUTH_SCOPES
        from graphql_api.oauth import apps

        if ambiente == "producao":
            await self.factory.released(integrator)
        criado = await apps.criar(
            integrator.id,
            Ambiente(ambiente),
            {
                "nome": nome,
                "tipo": tipo,
                "redirectUris": [redirect_uri],
                "escopos": sorted(escopos if escopos is not None else OAUTH_SCOPES),
            },
            bus=self.factory.runtime.bus,
        )
        return OAuthApp(criado.app.id, criado.segredo, redirect_uri, integrator)

    async def vendedor(self, *, nome: str = "Loja do Vendedor", email: str | None = None) -> str:
        from graphql_api.vendedor.models import Vendedor

        vendedor_id = new_id("vnd_")
        await Vendedor.create(id=vendedor_id, nome=nome, email=email or f"{vendedor_id}@loja.test", hash_senha="-")
        return vendedor_id

    def pedido(
        self, app: OAuthApp, *, challenge: str, state: str, scope: str | None = None, **extra: str | None
    ) -> dict:
        valores = {
            "response_type": "code",
            "client_id": app.client_id,
            "redirect_uri": app.redirect_uri,
            "scope": scope,
            "state": state,
            "code_challenge": challenge,
            "code_challenge_method": "S256",
        } | extra
        return valores

    async def consentir(
        self, app: OAuthApp, vendedor_id: str | None = None, *, scope: str | None = None
    ) -> Consentimento:
        """The seller presses "Autorizar" on the consent screen for this app."""
        from urllib.parse import parse_qs, urlsplit

        from graphql_api.core.principal import CredentialKind, Principal
        from graphql_api.oauth import autorizacoes

        vendedor_id = vendedor_id or await self.vendedor()
        verifier, challenge = pkce_pair()
        state = new_id("st_")
        principal = Principal(
            kind=CredentialKind.VENDEDOR, ambiente=Ambiente.TESTE, scopes=frozenset(), ator_id=vendedor_id
        )
        pedido = autorizacoes.Pedido(self.pedido(app, challenge=challenge, state=state, scope=scope))
        destino = await autorizacoes.autorizar(principal, pedido, issuer=self.factory.runtime.settings.base_url)
        query = parse_qs(urlsplit(destino).query)
        assert "code" in query, destino
        return Consentimento(query["code"][0], query["state"][0], verifier, destino)

    async def tokens(self, app: OAuthApp, consentimento: Consentimento) -> dict:
        """Exchange the code at /oauth/token (HTTP Basic for confidential apps)."""
        response = await self.factory.client.post(
            "/oauth/token", data=self.troca(app, consentimento), **self.basic(app)
        )
        assert response.status == 200, await response.text()
        return await response.json()

    def troca(self, app: OAuthApp, consentimento: Consentimento) -> dict:
        return {
            "grant_type": "authorization_code",
            "code": consentimento.code,
            "redirect_uri": app.redirect_uri,
            "code_verifier": consentimento.verifier,
        } | ({} if app.client_secret else {"client_id": app.client_id})

    @staticmethod
    def basic(app: OAuthApp) -> dict:
        import aiohttp

        if not app.client_secret:
            return {}
        return {"headers": {"Authorization": aiohttp.encode_basic_auth(app.client_id, app.client_secret)}}


@pytest.fixture
async def oauth(factory) -> OAuthFactory:
    return OAuthFactory(factory)
