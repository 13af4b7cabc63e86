"""The one outbound HTTP client (photo downloads, notice deliveries), safe against SSRF.

- https only; at most 3 redirects, each hop checked again;
- the host's addresses are checked after DNS resolution, in the resolver the connection uses, so a
  name cannot resolve to a public address for the check and a private one for the connection:
  private, loopback, link-local, reserved, multicast and unspecified addresses are refused;
- timeouts on connect and on the whole exchange; the body size is enforced while streaming.

VITRINE_OUTBOUND_ALLOW_PRIVATE=1 and VITRINE_OUTBOUND_CA_BUNDLE exist for tests and local
development only (a receiver on 127.0.0.1 with a self-signed CA)."""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import ssl
from dataclasses import dataclass
from urllib.parse import urljoin, urlparse

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult
from aiohttp.resolver import DefaultResolver

MAX_REDIRECTS = 3
# How long a registration waits for the DNS of an address it checks (check_destination): a name
# server that never answers must not hold the request (a fetch has its own connect timeout).
RESOLVE_TIMEOUT = 5.0
USER_AGENT = "Vitrine/1.0 (+https://vitrine.local/docs)"


class OutboundError(Exception):
    """Why a fetch failed, as a short code (and a Portuguese detail for people)."""

    def __init__(self, code: str, detail: str, status: int | None = None) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.status = status


# codes of OutboundError, for the catalogs of the domains that use the client
REASONS = {
    "url_invalida": "A URL não pôde ser lida.",
    "nao_https": "Só endereços https:// são aceitos.",
    "endereco_proibido": "O endereço aponta para uma rede privada, local ou reservada.",
    "dns_falhou": "O nome do servidor não foi encontrado.",
    "conexao_recusada": "O servidor recusou a conexão (nada escuta nessa porta).",
    "tls_falhou": "A conexão segura (TLS) falhou: certificado inválido, vencido ou de outro nome.",
    "conexao_falhou": "Não foi possível conectar ao servidor, ou a conexão caiu no meio da troca.",
    "tempo_esgotado": "O servidor demorou demais para responder.",
    "redirecionamentos_demais": f"Mais de {MAX_REDIRECTS} redirecionamentos.",
    "grande_demais": "A resposta passa do tamanho máximo.",
}


def _is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def _ip_literal(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address a host names literally, including the old IPv4 spellings that resolvers still
    accept (2130706433, 0177.0.0.1, 0x7f.1, 127.1, 0), which must not slip past the address rules."""
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    if host and host[0].isdigit() and all(ch in "0123456789abcdefx." for ch in host.lower()):
        try:
            return ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            return None
    return None


class _PublicOnlyResolver(AbstractResolver):
    def __init__(self, allow_private: bool) -> None:
        self._inner = DefaultResolver()
        self._allow_private = allow_private

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        try:
            results = await self._inner.resolve(host, port, family)
        except OSError as exc:
            raise OutboundError("dns_falhou", f"DNS: {host}: {exc}") from None
        if self._allow_private:
            return results
        public = [r for r in results if _is_public(r["host"])]
        if not public:
            raise OutboundError("endereco_proibido", f"{host} resolve para um endereço não público.")
        return public

    async def close(self) -> None:
        await self._inner.close()


@dataclass(frozen=True, slots=True)
class OutboundResponse:
    status: int
    headers: dict[str, str]
    body: bytes
    url: str
    truncated: bool = False


class OutboundClient:
    def __init__(self, *, allow_private: bool = False, ca_bundle: str | None = None) -> None:
        self.allow_private = allow_private
        self.ca_bundle = ca_bundle
        self._session: aiohttp.ClientSession | None = None

    def _ssl_context(self) -> ssl.SSLContext:
        context = ssl.create_default_context()
        if self.ca_bundle:
            context.load_verify_locations(self.ca_bundle)
        return context

    @property
    def session(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(
                resolver=_PublicOnlyResolver(self.allow_private),
                ssl=self._ssl_context(),
                limit=100,
                ttl_dns_cache=None,
                use_dns_cache=False,
            )
            self._session = aiohttp.ClientSession(
                connector=connector, headers={"User-Agent": USER_AGENT}, auto_decompress=False
            )
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    def check_url(self, url: str) -> str:
        """The URL if it may be fetched (scheme and literal addresses), else OutboundError."""
        try:
            parsed = urlparse(url)
        except ValueError:
            raise OutboundError("url_invalida", "URL inválida.") from None
        if parsed.scheme != "https":
            raise OutboundError("nao_https", f"Esquema {parsed.scheme or 'ausente'} recusado: use https://.")
        if not parsed.hostname:
            raise OutboundError("url_invalida", "URL sem servidor.")
        literal = _ip_literal(parsed.hostname)
        if literal is not None and not self.allow_private and not _is_public(str(literal)):
            raise OutboundError("endereco_proibido", f"{parsed.hostname} é um endereço não público.")
        if literal is not None and literal.version == 4 and str(literal) != parsed.hostname:
            raise OutboundError("url_invalida", f"Escreva o endereço IPv4 na forma habitual: {literal}.")
        return url

    async def check_destination(self, url: str) -> str:
        """check_url, then the addresses the host resolves to now: for registrations, to refuse at
        once what every fetch would refuse. A name that does not resolve (yet), or not within
        RESOLVE_TIMEOUT, passes: every fetch resolves it again, under the same rules."""
        self.check_url(url)
        resolver = _PublicOnlyResolver(self.allow_private)
        try:
            async with asyncio.timeout(RESOLVE_TIMEOUT):
                await resolver.resolve(urlparse(url).hostname or "", 443)
        except TimeoutError:
            pass
        except OutboundError as exc:
            if exc.code != "dns_falhou":
                raise
        finally:
            await resolver.close()
        return url

    async def request(
        self,
        method: str,
        url: str,
        *,
        max_bytes: int,
        timeout: float = 15.0,
        data: bytes | None = None,
        headers: dict[str, str] | None = None,
        follow_redirects: bool = True,
        truncate: bool = False,
    ) -> OutboundResponse:
        """One exchange. Over `max_bytes`, the body is cut (truncate=True) or the fetch fails."""
        client_timeout = aiohttp.ClientTimeout(total=timeout, connect=min(5.0, timeout))
        for _hop in range(MAX_REDIRECTS + 1):
            self.check_url(url)
            try:
                async with self.session.request(
                    method, url, data=data, headers=headers, allow_redirects=False, timeout=client_timeout
                ) as response:
                    location = response.headers.get("Location")
                    if follow_redirects and response.status in (301, 302, 303, 307, 308) and location:
                        url = urljoin(url, location)
                        if response.status == 303:
                            method, data = "GET", None
                        continue
                    declared = response.content_length
                    if declared is not None and declared > max_bytes and not truncate:
                        raise OutboundError(
                            "grande_demais", f"{declared} bytes declarados; o máximo é {max_bytes}.", response.status
                        )
                    body = bytearray()
                    cut = False
                    async for chunk in response.content.iter_chunked(65536):
                        body += chunk
                        if len(body) > max_bytes:
                            if not truncate:
                                raise OutboundError("grande_demais", f"Mais de {max_bytes} bytes.", response.status)
                            body = body[:max_bytes]
                            cut = True
                            break
                    # plain str keys (aiohttp's are istr, which JSON encoders refuse as keys)
                    headers = {str(name): value for name, value in response.headers.items()}
                    return OutboundResponse(response.status, headers, bytes(body), str(response.url), cut)
            except OutboundError:
                raise
            except TimeoutError:
                raise OutboundError("tempo_esgotado", f"Sem resposta em {timeout:.0f} s.") from None
            except aiohttp.ClientSSLError as exc:
                raise OutboundError("tls_falhou", f"TLS: {exc.os_error}") from None
            except aiohttp.ClientConnectorError as exc:
                cause = exc.__cause__ or exc.os_error
                if isinstance(cause, OutboundError):
                    raise cause from None
                if isinstance(exc.os_error, ConnectionRefusedError):
                    raise OutboundError("conexao_recusada", f"Conexão recusada: {exc.os_error}") from None
                raise OutboundError("conexao_falhou", f"Conexão falhou: {exc.os_error}") from None
            except aiohttp.ClientError as exc:
                raise OutboundError("conexao_falhou", f"Falha na troca HTTP: {exc}") from None
        raise OutboundError("redirecionamentos_demais", REASONS["redirecionamentos_demais"])
