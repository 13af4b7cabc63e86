"""Steps shared by the end-to-end journeys: what a person does in the portal, and the integrator's
server calling the API."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import secrets
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from playwright.sync_api import Page, expect

from tests.harness import BACKEND

SENHA = "uma senha longa de teste"
DOCS_SCREENSHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"


def refresh_docs_screenshot(name: str, png: bytes) -> None:
    """The guides' picture `name`.png, taken anew. Only the embedded leg writes them: the test
    command runs both legs at once, and two writers of one file could leave it torn."""
    if BACKEND != "sqlite":
        return
    DOCS_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (DOCS_SCREENSHOTS / f"{name}.png").write_bytes(png)


@dataclass
class Resposta:
    status: int
    request_id: str
    data: dict


def api(base: str, method: str, path: str, key: str, body: dict | None = None) -> Resposta:
    request = urllib.request.Request(
        f"{base}/v1{path}",
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return Resposta(response.status, response.headers["X-Request-Id"], json.loads(response.read()))
    except urllib.error.HTTPError as error:
        return Resposta(error.code, error.headers["X-Request-Id"], json.loads(error.read()))


def sign_up(page: Page, service: str, *, empresa: str, nome: str) -> str:
    """A new integrator and its first person, signed in on the overview; returns the e-mail."""
    page.goto(f"{service}/cadastro")
    email = f"e2e-{secrets.token_hex(4)}@integradora.test"
    page.get_by_label("Nome da empresa").fill(empresa)
    page.get_by_label("E-mail para alertas").fill("alertas@integradora.test")
    page.get_by_label("Seu nome").fill(nome)
    page.get_by_label("Seu e-mail").fill(email)
    page.get_by_label("Senha").fill(SENHA)
    page.get_by_role("button", name="Criar conta").click()
    expect(page).to_have_url(re.compile(r"/visao-geral"))
    return email


def create_test_key(page: Page, nome: str = "servidor e2e") -> str:
    """A test key created on the keys page; the whole key, read from the one page showing it."""
    page.get_by_role("navigation", name="Seções do portal").get_by_role("link", name="Chaves de API").click()
    page.get_by_label("Nome para reconhecer a chave").fill(nome)
    page.get_by_role("button", name="Criar chave").click()
    key = page.get_by_label("Chave de API").input_value()
    assert re.fullmatch(r"sk_test_[A-Za-z0-9]{12}_[A-Za-z0-9]{40}", key)
    return key


def register_notice_address(page: Page, service: str, url: str, receptor) -> str:
    """A test notice address for geracao.concluida registered on the notices page; the receiver
    learns its signing secret (shown once). Returns the address's page (/avisos/avs_…)."""
    page.goto(f"{service}/avisos")
    page.get_by_label("URL do seu servidor").fill(url)
    page.get_by_label("geracao.concluida").check()
    page.get_by_role("button", name="Registrar endereço").click()
    receptor.segredos.append(page.get_by_label("Segredo de assinatura").input_value())
    page.goto(f"{service}/avisos")
    return page.locator("a[href^='/avisos/avs_']").first.get_attribute("href")


class Navegador:
    """What the browser did: every URL it requested and every console error, to assert at the
    end that nothing came from outside the service and nothing broke in the page."""

    def __init__(self, page: Page, service: str) -> None:
        self.origin = urlsplit(service)[:2]
        self.requested: list[str] = []
        self.console_errors: list[str] = []
        page.on("request", lambda request: self.requested.append(request.url))
        page.on(
            "console", lambda message: self.console_errors.append(message.text) if message.type == "error" else None
        )

    def foreign(self) -> list[str]:
        return [url for url in self.requested if urlsplit(url)[:2] != self.origin]


def pkce() -> tuple[str, str]:
    """A new code_verifier and its S256 code_challenge (RFC 7636), as docs/oauth.md step 2 says."""
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, challenge


def exchange_code(service: str, client_id: str, secret: str, code: str, redirect_uri: str, verifier: str) -> dict:
    """The app's server at the token endpoint: HTTP Basic, a form body."""
    basic = base64.b64encode(f"{client_id}:{secret}".encode()).decode()
    request = urllib.request.Request(
        f"{service}/oauth/token",
        method="POST",
        data=urlencode(
            {"grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri, "code_verifier": verifier}
        ).encode(),
        headers={"Authorization": f"Basic {basic}", "Content-Type": "application/x-www-form-urlencoded"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.headers["Cache-Control"] == "no-store"
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        raise AssertionError(f"{error.code} {error.read().decode()}") from error
