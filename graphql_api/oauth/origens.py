"""Which browser origins may call /v1 and the OAuth endpoints (CORS): the origins of the redirect
URIs of active public apps. A public app is the one made to run where no secret can be kept, a
page in the browser among them (docs/oauth.md); its page lives at one of its redirect URIs. A
confidential app runs on a server, which needs no CORS.

The set is loaded in one query and kept in each process (OrigensCache, in the runtime); every app
change that could alter it (creation, edit, disabling) publishes CACHE_TOPIC, which clears it in
every process at once. A process that missed a message reloads it within the cache's lifetime."""

from __future__ import annotations

from graphql_api.oauth import repository, retornos
from vitrine.infra.cache import SnapshotCache

OrigensCache = SnapshotCache[frozenset[str]]


async def _carregar() -> frozenset[str]:
    uris = await repository.redirect_uris_de_apps_publicos_ativos()
    return frozenset(o for uri in uris if (o := retornos.origem(uri)) is not None)


def nova_cache() -> OrigensCache:
    return SnapshotCache(_carregar)


async def permitida(origem: str | None, cache: OrigensCache) -> bool:
    """Whether a page at `origem` (the request's Origin header) may read the answers. A page
    that hides its origin sends "null", which no app has."""
    if not origem or origem == "null":
        return False
    return origem in await cache.get()
