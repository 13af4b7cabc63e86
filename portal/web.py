"""The portal's edge: session cookie, CSRF, security headers and rendering, wrapped around thin
views. Each view receives a `Page`, runs GraphQL operations in-process with the principal of its
session (`page.run`) and renders a template (`page.render`).

Two kinds of people use these pages, each with a cookie, a sign-in page and sessions of their own
(`SessionKind`): the integrator's staff (`STAFF`, PORTAL principals) and sellers (`SELLER`,
VENDEDOR principals, on /vendedor/... and the consent page). The edge rules are one code for both.

Why a decorator and not an aiohttp middleware: middlewares of the root application also run for
the /v1 sub-application, whose hot path must not pay for the portal's cookies."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol, TypeVar
from urllib.parse import quote, urlencode, urlsplit
from zoneinfo import ZoneInfo

from aiohttp import web
from jinja2 import pass_context
from markupsafe import Markup
from multidict import MultiDictProxy

from graphql_api.core.context import Context
from graphql_api.core.errors import ApiError
from graphql_api.core.principal import ROLE_SCOPES, Principal
from graphql_api.core.scalars import parse_timestamp
from graphql_api.core.validation import tem_controle
from graphql_api.executor import Operation, run
from graphql_api.usuario import autenticacao, sessoes
from graphql_api.vendedor import sessoes as sessoes_vendedor
from vitrine.keys import RUNTIME
from vitrine.runtime import Runtime
from vitrine.templating import environment, render_markdown

SESSION_COOKIE = "vitrine_sessao"
SELLER_COOKIE = "vitrine_vendedor"
# Anonymous forms (sign-in, sign-up, password) are bound to this random value instead of a session.
ANON_COOKIE = "vitrine_pre"
CSRF_HEADER = "X-CSRF-Token"
CSRF_FIELD = "csrf"
HOME = "/visao-geral"
SELLER_HOME = "/vendedor/apps"

# Nothing is loaded from outside the service; no inline script runs.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}


def with_media_origin(csp: str, origin: str) -> str:
    """The policy with images and videos also allowed from the media store's own origin."""
    return csp.replace("img-src 'self' data:;", f"img-src 'self' data: {origin}; media-src 'self' {origin};")


# Flash messages: a one-off text for the person that a redirect asks the next page to show, by
# code in the query (?aviso=code; the parameter keeps the name portal links already carry). Fixed
# texts, never user input. Not to be confused with an aviso, a signed notice to an integrator.
FLASH_PARAM = "aviso"
FLASH_MESSAGES = {
    "saiu": "Você saiu. Até logo!",
    "senha_definida": "Senha definida. Entre com o seu e-mail e a nova senha.",
    "link_enviado": "Se o e-mail tiver conta, enviamos um link para redefinir a senha. Ele vale 1 hora.",
    "chave_revogada": "Chave revogada: chamadas com ela passam a receber 401 imediatamente.",
    "reautenticado": "Senha confirmada. Por 5 minutos você pode fazer operações sensíveis.",
    "ambiente": "Ambiente trocado.",
    "convite_enviado": "Convite enviado por e-mail (veja também a página E-mails).",
    "papel_alterado": "Papel alterado.",
    "usuario_removido": "Pessoa removida; as sessões dela foram encerradas.",
    "bem_vindo": "Conta criada. Comece criando uma chave de teste.",
    "aviso_atualizado": "Este endereço já estava registrado: os eventos foram atualizados e o segredo continua o mesmo.",
    "aviso_removido": "Endereço removido, com o histórico de entregas dele.",
    "testes_enviados": "Entregas de teste enviadas. Os resultados aparecem abaixo assim que o seu servidor responder.",
    "reenvio": "Entrega reenviada agora, com o mesmo webhook-id e o mesmo corpo.",
    "amostra_enviada": "Evento de teste enviado. A tentativa aparece abaixo assim que o seu servidor responder.",
    "producao_liberada": "Produção liberada. Para criar chaves de produção, aceite também o contrato vigente.",
    "contrato_aceito": "Contrato aceito. Obrigado!",
    "recarregado": "Créditos de teste recarregados.",
    "conferencia_iniciada": "Conferência iniciada. O veredito aparece aqui em alguns segundos.",
    "pedido_recebido": "Pedido recebido: acompanhe a geração abaixo.",
    "app_atualizado": "App atualizado. As mudanças valem para as próximas autorizações e trocas de código.",
    "app_desativado": "App desativado: ele não autoriza nem troca tokens, e não conta mais no limite de 10 apps ativos.",
    "vendedor_bem_vindo": "Cadastro feito. Quando você autorizar um app, ele aparece aqui.",
    "app_revogado": "Acesso revogado: o app não age mais na sua loja. Para voltar a usá-lo, autorize de novo.",
    "plano_alterado": "Plano alterado. Num plano maior, a diferença de créditos deste ciclo já está no saldo.",
    "plano_agendado": "Mudança agendada: o plano menor começa no próximo ciclo; até lá nada muda.",
    "mudanca_cancelada": "Mudança de plano cancelada: o plano atual continua no próximo ciclo.",
}

_Response = TypeVar("_Response", bound=web.StreamResponse)

# Times: every moment in the person's own zone, named on the page, with the exact UTC instant on
# hover (and in `datetime` for machines). The browser tells its zone in the `fuso` cookie
# (static/portal.js); before it has, the zone is the one of most of our integrators.
DEFAULT_ZONE = "America/Sao_Paulo"
ZONE_COOKIE = "fuso"


@dataclass(frozen=True, slots=True)
class Fuso:
    zona: ZoneInfo

    @classmethod
    def of(cls, name: str | None) -> Fuso:
        try:
            return cls(ZoneInfo(name or DEFAULT_ZONE))
        except (ValueError, KeyError, OSError):  # not an IANA name (or a path trying to be one)
            return cls(ZoneInfo(DEFAULT_ZONE))

    @property
    def nome(self) -> str:
        """How people name it: the city of the IANA name and its offset now (São Paulo, UTC−03:00)."""
        key = self.zona.key
        cidade = {"America/Sao_Paulo": "São Paulo", "UTC": "UTC", "Etc/UTC": "UTC"}.get(
            key, key.rsplit("/", 1)[-1].replace("_", " ")
        )
        offset = datetime.now(self.zona).strftime("%z")
        if offset == "+0000" and cidade == "UTC":
            return "UTC"
        return f"{cidade}, UTC{offset[0].replace('-', '−')}{offset[1:3]}:{offset[3:]}"

    @property
    def rodape(self) -> str:
        """The sentence at the foot of every page that names the zone of its times."""
        if self.nome == "UTC":
            return "Horários em UTC."
        return f"Horários de {self.nome}. Passe o mouse sobre um horário para vê-lo em UTC."


@pass_context
def _format_moment(context: Any, value: str | None) -> Markup | str:
    if not value:
        return "—"
    fuso = context.get("fuso") or Fuso.of(None)
    instant = parse_timestamp(value).astimezone(UTC)
    utc = instant.strftime("%Y-%m-%dT%H:%M:%SZ")
    local = instant.astimezone(fuso.zona).strftime("%d/%m/%Y %H:%M:%S")
    return Markup('<time datetime="{0}" title="{0} (UTC)">{1}</time>').format(utc, local)


def _format_number(value: int | float | None) -> str:
    if value is None:
        return "—"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:,.1f}".replace(",", "X").replace(".", ",").replace("X", ".")
    return f"{int(value):,}".replace(",", ".")


def _format_reais(centavos: int | None) -> str:
    """BRL cents as people read them: R$ 1.299,00."""
    if centavos is None:
        return "—"
    return f"R$ {_format_number(centavos // 100)},{centavos % 100:02d}"


def _status_class(status: int) -> str:
    return "ok" if status < 300 else "warn" if status < 500 else "bad"


def _pretty_json(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, indent=2)


templates = environment()


def _markdown(text: str) -> Markup:
    return Markup(render_markdown(text))  # raw HTML in the text is escaped by the renderer


templates.filters.update(
    momento=_format_moment,
    numero=_format_number,
    reais=_format_reais,
    status_class=_status_class,
    json=_pretty_json,
    markdown=_markdown,
)
templates.globals.update(
    PAPEIS={"dono": "Dono", "desenvolvedor": "Desenvolvimento", "financeiro": "Financeiro"},
    AMBIENTES={"teste": "Teste", "producao": "Produção"},
)


def safe_next(value: str | None, home: str = HOME) -> str:
    """A local path to go back to; anything else (another host, a scheme, a control character
    that would break the Location header) becomes the home."""
    if not value or not value.startswith("/") or value.startswith("//") or "\\" in value or tem_controle(value):
        return home
    return value


def _csrf_for(runtime: Runtime, binding: str) -> str:
    return hmac.new(runtime.settings.signing_key, b"csrf:" + binding.encode(), hashlib.sha256).hexdigest()


class SignedIn(Protocol):
    """A valid session of either kind (sessoes.SessaoAtiva, sessoes_vendedor.SessaoVendedorAtiva)."""

    def principal(self) -> Principal: ...


@dataclass(frozen=True, slots=True)
class SessionKind:
    """Who a group of routes is for: its cookie, its sign-in page, its home, its error page and
    how its sessions are read, opened and closed. Nothing else differs between staff and sellers."""

    cookie: str
    sign_in: str  # where a visitor without a session goes, with ?proximo=<the page>
    home: str  # where an unusable `proximo` falls back to
    templates: str  # folder of its layout and error page
    verify: Callable[..., Awaitable[Any]]  # (email, senha, *, ip) -> the person, or ApiError
    read: Callable[[str], Awaitable[SignedIn | None]]
    open: Callable[..., Awaitable[str]]  # (person id, *, ip, agente, anterior) -> cookie value
    close: Callable[[str], Awaitable[None]]


STAFF = SessionKind(
    SESSION_COOKIE,
    "/entrar",
    HOME,
    "portal",
    autenticacao.verificar_senha,
    sessoes.sessao_ativa,
    sessoes.abrir_sessao,
    sessoes.encerrar_sessao,
)
SELLER = SessionKind(
    SELLER_COOKIE,
    "/vendedor/entrar",
    SELLER_HOME,
    "vendedor",
    sessoes_vendedor.verificar_senha,
    sessoes_vendedor.sessao_ativa,
    sessoes_vendedor.abrir_sessao,
    sessoes_vendedor.encerrar_sessao,
)


@dataclass
class Page:
    """One portal request as a view sees it."""

    request: web.Request
    runtime: Runtime
    kind: SessionKind
    session: SignedIn | None  # of `kind`: the other kind's cookie is never read
    token: str | None  # the session cookie value when signed in
    anon: str | None  # the anonymous binding, when not signed in
    started: float
    cookies: list[tuple[str, str | None]] = field(default_factory=list)  # (name, value or None = delete)
    _form: MultiDictProxy | None = None

    @property
    def sessao(self) -> sessoes.SessaoAtiva | None:
        """The staff session, on the integrator's pages."""
        return self.session if isinstance(self.session, sessoes.SessaoAtiva) else None

    @property
    def vendedor(self) -> sessoes_vendedor.SessaoVendedorAtiva | None:
        """The seller session, on the sellers' pages."""
        return self.session if isinstance(self.session, sessoes_vendedor.SessaoVendedorAtiva) else None

    @property
    def sessao_ativa(self) -> sessoes.SessaoAtiva:
        """The session of a signed-in staff route: the edge sends anyone without one to /entrar."""
        assert self.sessao is not None, "only signed-in staff routes read the session"
        return self.sessao

    def safe_next(self, value: str | None) -> str:
        """`value` if it is a local path, else the home of this kind of person."""
        return safe_next(value, self.kind.home)

    @property
    def csrf(self) -> str:
        return _csrf_for(self.runtime, self.token or self.anon or "")

    @property
    def ip(self) -> str:
        return self.request.remote or ""

    @property
    def is_htmx(self) -> bool:
        return self.request.headers.get("HX-Request") == "true"

    def can(self, scope: str) -> bool:
        return self.sessao is not None and scope in ROLE_SCOPES[self.sessao.papel]

    async def form(self) -> MultiDictProxy:
        if self._form is None:
            self._form = await self.request.post()
        return self._form

    async def field(self, name: str) -> str:
        value = (await self.form()).get(name, "")
        return value if isinstance(value, str) else ""

    def query(self, name: str) -> str:
        return self.request.query.get(name, "")

    # -- the internal API -------------------------------------------------------------------

    async def run(
        self, operation: Operation, *, idempotency_key: str | None = None, **variables: Any
    ) -> dict[str, Any]:
        principal = self.session.principal() if self.session else None
        context = Context(runtime=self.runtime, principal=principal, idempotency_key=idempotency_key)
        return await run(operation, context, variables)

    # -- responses --------------------------------------------------------------------------

    def render(self, template: str, *, status: int = 200, **context: Any) -> web.Response:
        flash = FLASH_MESSAGES.get(self.query(FLASH_PARAM))
        html = templates.get_template(template).render(
            sessao=self.sessao,
            vendedor=self.vendedor,
            csrf=self.csrf,
            path=self.request.path_qs,
            current=self.request.path,
            can=self.can,
            flash=flash,
            fuso=Fuso.of(self.request.cookies.get(ZONE_COOKIE)),
            docs_url=self.runtime.settings.docs_url,
            api_url=self.runtime.settings.api_url,
            **context,
        )
        return self._finish(web.Response(text=html, status=status, content_type="text/html"))

    def redirect(self, location: str, *, flash: str | None = None) -> web.Response:
        """See `location` next, showing the flash message of code `flash` there (FLASH_MESSAGES)."""
        if flash:
            location += ("&" if "?" in location else "?") + urlencode({FLASH_PARAM: flash})
        if self.is_htmx:  # htmx follows a 3xx inside the swap; a full navigation is meant here
            response = web.Response(status=204, headers={"HX-Redirect": location})
        else:
            response = web.Response(status=303, headers={"Location": location})
        return self._finish(response)

    def set_session(self, token: str | None) -> None:
        self.cookies.append((self.kind.cookie, token))

    async def sign_in(self, person_id: str) -> None:
        """Open a session for a person who just proved who they are, replacing this browser's
        previous one of the same kind (session fixation: a planted value never becomes signed in)."""
        token = await self.kind.open(
            person_id,
            ip=self.ip,
            agente=self.request.headers.get("User-Agent", ""),
            anterior=_cookie(self.request, self.kind.cookie),
        )
        self.set_session(token)

    async def sign_out(self) -> None:
        """End the session on the server: a copy of the cookie opens nothing afterwards."""
        assert self.token is not None  # a signed-in route carries its session cookie
        await self.kind.close(self.token)
        self.set_session(None)

    def _finish(self, response: _Response) -> _Response:
        secure = self.runtime.settings.base_url.startswith("https://")
        for name, value in self.cookies:
            if value is None:
                response.del_cookie(name, path="/")
            else:
                max_age = int(sessoes.SESSION_MAX.total_seconds()) if name == self.kind.cookie else None
                response.set_cookie(
                    name, value, path="/", httponly=True, secure=secure, samesite="Lax", max_age=max_age
                )
        response.headers.update(SECURITY_HEADERS)
        if origin := self.runtime.storage.media_origin:  # media links that go straight to S3
            response.headers["Content-Security-Policy"] = with_media_origin(
                SECURITY_HEADERS["Content-Security-Policy"], origin
            )
        response.headers["Server-Timing"] = f"app;dur={(time.perf_counter() - self.started) * 1000:.1f}"
        return response


View = Callable[[Page], Awaitable[web.StreamResponse]]


def error_page(page: Page, error: ApiError) -> web.StreamResponse:
    """An error no form handles: sign-in again, password prompt, or a page saying what happened."""
    back = page.request.path_qs if page.request.method == "GET" else _referer_path(page.request, page.kind.home)
    if error.type == "UNAUTHORIZED":
        page.set_session(None)
        return page.redirect(f"{page.kind.sign_in}?proximo={quote(page.safe_next(back))}")
    if error.type == "REAUTHENTICATION_REQUIRED":
        return page.redirect(f"/reautenticar?proximo={quote(page.safe_next(back))}")
    return render_error(
        page,
        status=error.status,
        titulo=error.message or error.kind.message,
        descricao=error.description or error.kind.causa,
        correcao=error.kind.correcao,
        tipo=error.type,
    )


def render_error(page: Page, *, status: int, titulo: str, descricao: str, correcao: str, tipo: str) -> web.Response:
    """The error page of the request's kind of person (their own layout)."""
    return page.render(
        f"{page.kind.templates}/erro.html",
        status=status,
        titulo=titulo,
        descricao=descricao,
        correcao=correcao,
        tipo=tipo,
        inicio=page.kind.home if page.session else page.kind.sign_in,
    )


async def _not_found(page: Page) -> web.StreamResponse:
    return render_error(
        page,
        status=404,
        titulo="Página não encontrada",
        descricao=f"Nada no portal responde pelo endereço {page.request.path}.",
        correcao="Confira o endereço, ou siga pelo menu ou pelo botão abaixo.",
        tipo="",
    )


@web.middleware
async def not_found_page(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]):
    """A GET of an address no route of the service's own application knows: a page in the layout
    of whoever asks (staff, seller or visitor), with its title, language and heading, instead of a
    bare "404: Not Found". Only aiohttp's own miss is taken: a 405 stays a 405, /v1 answers its own
    errors (its subapplication matched the prefix), and a handler's deliberate 404 stays as it is."""
    match_info = request.match_info
    if (
        request.method in ("GET", "HEAD")
        and isinstance(getattr(match_info, "http_exception", None), web.HTTPNotFound)
        and len(match_info.apps) == 1
    ):
        kind = SELLER if request.path.startswith("/vendedor/") else STAFF
        return await _edge(_not_found, kind, signed_in=False)(request)
    return await handler(request)


def _referer_path(request: web.Request, home: str) -> str:
    """The page a form was sent from (browsers send an absolute Referer), when it is ours."""
    referer = urlsplit(request.headers.get("Referer", ""))
    if referer.netloc and referer.netloc != request.host:
        return home
    return (referer.path or home) + (f"?{referer.query}" if referer.query else "")


class PortalRoutes:
    """A group of routes for one kind of person (staff by default; `PortalRoutes(SELLER)` for
    sellers) and the edge rules every one of them follows."""

    def __init__(self, kind: SessionKind = STAFF) -> None:
        self.kind = kind
        self.routes: list[tuple[str, str, Callable]] = []

    def route(self, method: str, path: str, *, signed_in: bool = True) -> Callable[[View], View]:
        def register(view: View) -> View:
            self.routes.append((method, path, _edge(view, self.kind, signed_in=signed_in)))
            return view

        return register

    def get(self, path: str, **options: Any) -> Callable[[View], View]:
        return self.route("GET", path, **options)

    def post(self, path: str, **options: Any) -> Callable[[View], View]:
        return self.route("POST", path, **options)


def _cookie(request: web.Request, name: str) -> str | None:
    """A cookie of ours, or None: our values are URL-safe ASCII, and one with other bytes (which
    no hash or HMAC takes as text) was not set by this service."""
    value = request.cookies.get(name)
    return value if value and value.isascii() and value.isprintable() else None


def _edge(view: View, kind: SessionKind, *, signed_in: bool) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    async def handler(request: web.Request) -> web.StreamResponse:
        runtime = request.app[RUNTIME]
        token = _cookie(request, kind.cookie)
        session = await kind.read(token) if token else None
        anon = None if session else _cookie(request, ANON_COOKIE)
        page = Page(request, runtime, kind, session, token if session else None, anon, time.perf_counter())
        if kind.cookie in request.cookies and session is None:
            page.set_session(None)  # stale cookie: drop it
        if session is None and anon is None:
            page.anon = secrets.token_urlsafe(24)
            page.cookies.append((ANON_COOKIE, page.anon))
        if request.method not in ("GET", "HEAD") and not await _csrf_ok(page):
            return render_error(
                page,
                status=403,
                titulo="Formulário expirado ou inválido.",
                descricao="O token de segurança (CSRF) do formulário está ausente ou não confere com a sua sessão.",
                correcao="Volte, recarregue a página e envie de novo.",
                tipo="CSRF",
            )
        if signed_in and session is None:
            back = request.path_qs if request.method == "GET" else kind.home
            return page.redirect(f"{kind.sign_in}?proximo={quote(back)}")
        try:
            return await view(page)
        except ApiError as error:
            return error_page(page, error)

    return handler


async def _csrf_ok(page: Page) -> bool:
    """Synchronizer token: an HMAC of the session (or the anonymous cookie) with the service's
    secret, sent in a form field or, by htmx, in the X-CSRF-Token header."""
    if page.token is None and not _cookie(page.request, ANON_COOKIE):
        return False  # a POST from a browser that never loaded one of our pages
    sent = page.request.headers.get(CSRF_HEADER)
    if sent is None and page.request.content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
        sent = await page.field(CSRF_FIELD)
    if not sent or not sent.isascii():  # ours is hex; compare_digest refuses other text with an error
        return False
    return hmac.compare_digest(sent, page.csrf)


def form_errors(error: ApiError, fields: set[str]) -> tuple[dict[str, str], str | None]:
    """The errors of a form: each FieldError beside its field, the rest in one message on top."""
    beside = {f.campo: f.mensagem for f in error.fields if f.campo in fields}
    rest = [f.mensagem for f in error.fields if f.campo not in fields]
    if not error.fields:
        rest.append(error.description or error.message or error.kind.message)
    return beside, " ".join(rest) or None


async def sign_in_page(page: Page) -> web.StreamResponse:
    """GET of the sign-in page of the route's kind of person (`<templates>/entrar.html`); someone
    already signed in goes straight on to `proximo`."""
    proximo = page.query("proximo")
    if page.session:
        return page.redirect(page.safe_next(proximo))
    return page.render(f"{page.kind.templates}/entrar.html", email="", proximo=proximo, erro=None)


async def sign_in(page: Page) -> web.StreamResponse:
    """POST of a sign-in form (email, senha, proximo): a new session and on to `proximo` (a local
    path only), or the form again saying why not (wrong password 401, too many failures 429 with
    Retry-After)."""
    email, proximo = await page.field("email"), await page.field("proximo")
    try:
        person = await page.kind.verify(email, await page.field("senha"), ip=page.ip)
    except ApiError as error:
        response = page.render(
            f"{page.kind.templates}/entrar.html",
            status=error.status,
            email=email,
            proximo=proximo,
            erro=error.description,
        )
        response.headers.update(error.headers)
        return response
    await page.sign_in(person.id)
    return page.redirect(page.safe_next(proximo))
