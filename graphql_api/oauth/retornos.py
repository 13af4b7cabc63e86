"""Registered redirect URIs as addresses (their registration rules are in schemas.py): which
registered address a request's redirect_uri is, the web origin of a page at one of them (the CORS
rule, graphql_api/oauth/origens.py), and what the seller reads on the consent screen about where
the code goes.

Every address is compared as the exact string that was registered, with one exception, RFC 8252
§7.3: a native app listening on the loopback interface gets a port from the system at each run,
so `http://127.0.0.1` and `http://[::1]` match on any port (scheme, host, path and query still
exact). `localhost` is compared exactly, port included: the name may not even resolve to the
loopback interface (RFC 8252 §8.3), so a native app uses the IP literals."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from urllib.parse import urlsplit

import strawberry

PORTA_PADRAO = {"https": 443, "http": 80}
# RFC 8252 §7.3: the loopback IP literals, whose port is the app's choice at each authorisation.
LOOPBACK = re.compile(r"http://(127\.0\.0\.1|\[::1\])(?::([0-9]{1,5}))?(?=[/?]|$)")
HOSTS_DO_COMPUTADOR = ("localhost", "127.0.0.1", "::1")
# RFC 8252 §7.1: a native app's private-use scheme, a domain of its own in reverse order.
ESQUEMA_PROPRIO = re.compile(r"[a-z][a-z0-9-]*(\.[a-z0-9-]+)+")


def _sem_porta(uri: str) -> tuple[str, str] | None:
    """A loopback IP address without its port: (host, the rest); None for any other address."""
    encontrado = LOOPBACK.match(uri)
    if encontrado is None:
        return None
    porta = encontrado.group(2)
    if porta is not None and not 1 <= int(porta) <= 65535:
        return None
    return encontrado.group(1), uri[encontrado.end() :]


def cadastrado(redirect_uri: str, cadastrados: list[str]) -> bool:
    """Whether an authorisation request's redirect_uri is one of the app's registered addresses."""
    if redirect_uri in cadastrados:
        return True
    sem_porta = _sem_porta(redirect_uri)
    return sem_porta is not None and any(_sem_porta(uri) == sem_porta for uri in cadastrados)


def esquema_proprio(uri: str) -> str | None:
    """The scheme of an address that is a native app's own (com.exemplo.app:/volta); None for the
    web's (http, https) and for anything else."""
    esquema, dois_pontos, _ = uri.partition(":")
    if not dois_pontos or esquema in PORTA_PADRAO or not ESQUEMA_PROPRIO.fullmatch(esquema):
        return None
    return esquema


def origem(uri: str) -> str | None:
    """The origin (RFC 6454) a browser sends in `Origin` from a page at this address:
    scheme://host[:port], the default port left out; None for what no web page has."""
    try:
        partes = urlsplit(uri)
        porta = partes.port
    except ValueError:
        return None
    host = partes.hostname
    if partes.scheme not in PORTA_PADRAO or not host:
        return None
    if ":" in host:  # an IPv6 literal keeps its brackets
        host = f"[{host}]"
    if porta is None or porta == PORTA_PADRAO[partes.scheme]:
        return f"{partes.scheme}://{host}"
    return f"{partes.scheme}://{host}:{porta}"


@strawberry.enum(
    description="site: a web address; computador: a program on the seller's computer (loopback); "
    "aplicativo: an app installed on the seller's device (its own scheme)."
)
class TipoDestino(str, Enum):
    site = "site"  # a web address
    computador = "computador"  # a program on the seller's own computer (loopback)
    aplicativo = "aplicativo"  # an app installed on the seller's device (its own scheme)


@dataclass(frozen=True, slots=True)
class Destino:
    """Where the browser takes the code, as the consent screen shows it (GitHub and Google show
    the redirect's host): the host with its port, or a native app's scheme."""

    endereco: str
    tipo: TipoDestino


def destino(redirect_uri: str) -> Destino:
    esquema = esquema_proprio(redirect_uri)
    if esquema is not None:
        return Destino(esquema, TipoDestino.aplicativo)
    endereco = origem(redirect_uri) or redirect_uri
    host = urlsplit(redirect_uri).hostname or ""
    tipo = TipoDestino.computador if host in HOSTS_DO_COMPUTADOR else TipoDestino.site
    return Destino(endereco.split("://", 1)[-1], tipo)
