"""CORS headers (the Fetch standard's CORS protocol) for a door that decided which origin, if any,
may read its answers. No wildcard and no credentials mode: an allowed origin is named in
Access-Control-Allow-Origin, every other origin gets no such header, and every answer says
`Vary: Origin` so that a cache never hands one origin's answer to another."""

from __future__ import annotations

from dataclasses import dataclass

from aiohttp import web

ALLOW_ORIGIN = "Access-Control-Allow-Origin"


def is_preflight(request: web.Request) -> bool:
    """A browser asking before the real request: OPTIONS with Origin and the method it wants."""
    return (
        request.method == "OPTIONS"
        and "Origin" in request.headers
        and "Access-Control-Request-Method" in request.headers
    )


def add_vary(response: web.StreamResponse, name: str) -> None:
    values = [v.strip() for v in response.headers.get("Vary", "").split(",") if v.strip()]
    if name.lower() not in (v.lower() for v in values) and "*" not in values:
        response.headers["Vary"] = ", ".join([*values, name])


@dataclass(frozen=True)
class CorsPolicy:
    methods: tuple[str, ...]  # what a preflight may ask for
    request_headers: tuple[str, ...]  # the non-safelisted headers a page may send
    exposed_headers: tuple[str, ...]  # the non-safelisted headers a page may read
    max_age: int = 600  # seconds a browser may keep a preflight's answer

    def preflight_headers(self, origin: str) -> dict[str, str]:
        """What a preflight from an allowed origin is answered with."""
        return {
            ALLOW_ORIGIN: origin,
            "Access-Control-Allow-Methods": ", ".join(self.methods),
            "Access-Control-Allow-Headers": ", ".join(self.request_headers),
            "Access-Control-Max-Age": str(self.max_age),
        }

    def apply(self, response: web.StreamResponse, origin: str | None) -> None:
        """Headers of an answer: readable by `origin` when it is allowed (None otherwise)."""
        add_vary(response, "Origin")
        if origin is not None:
            response.headers.setdefault(ALLOW_ORIGIN, origin)
            if self.exposed_headers:
                response.headers["Access-Control-Expose-Headers"] = ", ".join(self.exposed_headers)
