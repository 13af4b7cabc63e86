"""The client's address behind trusted reverse proxies (VITRINE_TRUSTED_PROXIES).

Every per-address rule (refused credentials, the OAuth endpoints' failure counts, payment
confirmations) reads `request.remote`. Behind a proxy that is the proxy's address, so every
client would share one budget; this middleware puts the real client's address there instead.

Hand-written rather than aiohttp-remotes: its `XForwardedFiltered` believes X-Forwarded-For
whoever sent it (a client connecting directly could name any address), and `XForwardedStrict`
refuses every request that did not pass through the whole configured chain."""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable
from functools import lru_cache

from aiohttp import hdrs, web

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(text: str) -> tuple[Network, ...]:
    """ "10.0.0.0/8, 127.0.0.1" -> networks (a bare address is a network of one). Raises
    ValueError naming the entry that is neither."""
    networks = []
    for entry in (part.strip() for part in text.split(",")):
        if not entry:
            continue
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ValueError(f"VITRINE_TRUSTED_PROXIES: {entry!r} is not an IP address or network") from None
    return tuple(networks)


def client_address(peer: str | None, forwarded_for: list[str], trusted: tuple[Network, ...]) -> str | None:
    """The connection's own address unless it is a trusted proxy; then, walking X-Forwarded-For
    from the right (each proxy appends the address it received from), the first address that is
    not a trusted proxy. A malformed entry stops the walk at the last address known to be good:
    whatever lies left of it was written by someone no proxy vouches for."""
    current = peer
    if not _trusted(current, trusted):
        return current
    hops = [hop.strip() for header in forwarded_for for hop in header.split(",")]
    for hop in reversed(hops):
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            return current
        current = hop
        if not _trusted(current, trusted):
            return current
    return current


@lru_cache(maxsize=4096)
def _parsed(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(address)
    except ValueError:
        return None


def _trusted(address: str | None, trusted: tuple[Network, ...]) -> bool:
    parsed = _parsed(address) if address else None
    return parsed is not None and any(parsed in network for network in trusted)


def middleware(trusted: tuple[Network, ...]):
    """A root middleware: the request every handler sees carries the client's address."""

    @web.middleware
    async def real_client_address(
        request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        address = client_address(request.remote, request.headers.getall(hdrs.X_FORWARDED_FOR, []), trusted)
        if address is not None and address != request.remote:
            request = request.clone(remote=address)
        return await handler(request)

    return real_client_address
