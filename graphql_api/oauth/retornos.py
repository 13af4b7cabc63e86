"""Registered redirect URIs as addresses: the web origin a page at one of them has (the CORS rule,
graphql_api/oauth/origens.py). Their registration rules are in schemas.py."""

from __future__ import annotations

from urllib.parse import urlsplit

PORTA_PADRAO = {"https": 443, "http": 80}


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
