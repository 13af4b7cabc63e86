"""Typed keys the composition root puts on the aiohttp applications it builds, read by every door
mounted on them (the /v1 facade, the portal, the docs, the media and staff routes)."""

from aiohttp import web

from vitrine.runtime import Runtime

RUNTIME = web.AppKey("runtime", Runtime)
