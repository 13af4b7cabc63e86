"""A browser-like client for the portal: real HTTP against the app, cookies kept, the CSRF token
read from the page like a browser submits it."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from graphql_api.core.ids import new_id
from graphql_api.email.models import Email
from graphql_api.usuario.models import TentativaEntrada, Usuario
from portal.web import SELLER_COOKIE, SESSION_COOKIE

_CSRF = re.compile(r'name="csrf" value="([0-9a-f]+)"')
_TOKEN = re.compile(r'value="(sk_test_[A-Za-z0-9]{12}_[A-Za-z0-9]{40})"')
_LINK = re.compile(r"(/senha/definir\?token=[A-Za-z0-9_\-]+)")
SENHA = "uma senha bem longa"


@dataclass
class Pessoa:
    email: str
    senha: str


class Browser:
    def __init__(self, client) -> None:
        self.client = client

    async def get(self, path: str, **kwargs):
        return await self.client.get(path, allow_redirects=False, **kwargs)

    async def page(self, path: str) -> str:
        response = await self.get(path)
        assert response.status == 200, (path, response.status, response.headers.get("Location"))
        return await response.text()

    async def csrf(self, path: str = "/entrar") -> str:
        response = await self.client.get(path)  # following redirects, as the browser would
        text = await response.text()
        match = _CSRF.search(text)
        assert match, f"no CSRF field on {path}"
        # the first field is taken: every form of the page must carry the token, not just that one
        assert 'name="csrf" value=""' not in text, f"a form without its CSRF token on {path}"
        return match.group(1)

    async def submit(self, path: str, data: dict, *, token_from: str | None = None, **kwargs):
        """POST a form the way a browser does: with the token of the page it came from."""
        token = await self.csrf(token_from or path)
        return await self.client.post(path, data={"csrf": token, **data}, allow_redirects=False, **kwargs)

    async def signup(
        self, *, email: str | None = None, senha: str = SENHA, empresa: str = "Integradora Portal"
    ) -> Pessoa:
        email = email or f"{new_id('p')}@integradora.test"
        response = await self.submit(
            "/cadastro",
            {
                "empresa": empresa,
                "emailAlertas": "alertas@integradora.test",
                "nome": "Dona Ana",
                "email": email,
                "senha": senha,
            },
        )
        assert response.status == 303, await response.text()
        return Pessoa(email, senha)

    async def signin(self, pessoa: Pessoa, *, proximo: str = ""):
        return await self.submit("/entrar", {"email": pessoa.email, "senha": pessoa.senha, "proximo": proximo})

    async def signout(self):
        return await self.submit("/sair", {}, token_from="/visao-geral")

    async def switch(self, ambiente: str):
        response = await self.submit(
            "/ambiente", {"ambiente": ambiente, "proximo": "/chaves"}, token_from="/visao-geral"
        )
        assert response.status == 303
        return response

    async def reauthenticate(self, pessoa: Pessoa, *, proximo: str = "/visao-geral"):
        response = await self.submit(
            "/reautenticar", {"senha": pessoa.senha, "proximo": proximo}, token_from="/reautenticar"
        )
        assert response.status == 303
        return response

    # -- sellers (/vendedor/...): the same browser, another cookie

    async def seller_signup(
        self, *, email: str | None = None, senha: str = SENHA, nome: str = "Loja da Maria", proximo: str = ""
    ) -> Pessoa:
        email = email or f"{new_id('v')}@loja.test"
        response = await self.submit(
            "/vendedor/cadastro", {"nome": nome, "email": email, "senha": senha, "proximo": proximo}
        )
        assert response.status == 303, await response.text()
        return Pessoa(email, senha)

    async def seller_signin(self, vendedor: Pessoa, *, proximo: str = ""):
        return await self.submit(
            "/vendedor/entrar", {"email": vendedor.email, "senha": vendedor.senha, "proximo": proximo}
        )

    async def seller_signout(self):
        return await self.submit("/vendedor/sair", {}, token_from="/vendedor/apps")

    def cookie(self, name: str) -> str | None:
        cookie = self.client.session.cookie_jar.filter_cookies(self.client.make_url("/")).get(name)
        return cookie.value if cookie else None

    @property
    def session(self) -> str | None:
        return self.cookie(SESSION_COOKIE)

    @property
    def seller_session(self) -> str | None:
        return self.cookie(SELLER_COOKIE)


async def create_key(portal: Browser, nome: str = "servidor") -> str:
    """A test key created on the keys page; the whole key, read from the only page showing it."""
    response = await portal.submit("/chaves", {"nome": nome})
    assert response.status == 201
    page = await response.text()
    assert "Esta é a única vez que a chave inteira aparece" in page
    assert response.headers["Cache-Control"] == "no-store"
    return _TOKEN.search(page).group(1)


async def integrador_id(pessoa: Pessoa) -> str:
    return (await Usuario.get(email=pessoa.email)).integrador_id


async def link_in_outbox(para: str) -> str:
    email = await Email.filter(para=para).order_by("-id").first()
    assert email is not None, f"no e-mail to {para}"
    return _LINK.search(email.texto).group(1)


async def join(portal: Browser, new_portal, nome: str, papel: str) -> tuple[Browser, Pessoa]:
    """The owner on `portal` invites a person, who accepts on a browser of their own and signs in."""
    pessoa = Pessoa(f"{new_id('p')}@integradora.test", f"senha de {nome} bem longa")
    response = await portal.submit("/equipe", {"nome": nome, "email": pessoa.email, "papel": papel})
    assert response.status == 303
    link = await link_in_outbox(pessoa.email)
    browser = await new_portal()
    response = await browser.submit(
        "/senha/definir", {"token": link.split("=", 1)[1], "senha": pessoa.senha}, token_from=link
    )
    assert response.status == 303
    assert (await browser.signin(pessoa)).status == 303
    return browser, pessoa


@pytest.fixture
async def portal(client) -> Browser:
    return Browser(client)


@pytest.fixture
async def new_portal(aiohttp_client, client):
    """Another browser (its own cookie jar) on the same running service."""

    async def make() -> Browser:
        return Browser(await aiohttp_client(client.server))

    return make


@pytest.fixture
async def owner(portal) -> Pessoa:
    """A signed-up owner, signed in on `portal`."""
    return await portal.signup()


@pytest.fixture(autouse=True)
async def forget_sign_in_failures(client):
    """Every test client signs in from 127.0.0.1: keep one test's wrong passwords from locking
    that address for the next ones."""
    yield
    await TentativaEntrada.filter(ip__in=["127.0.0.1", "::1"]).delete()
