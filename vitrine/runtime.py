"""Process-wide resources, created once by the app factory or the worker and passed to the
GraphQL context: settings, the invalidation bus, caches, the limiter, storage, the call log, the
outbound HTTP client and the worker processes for CPU-bound work."""

from __future__ import annotations

from dataclasses import dataclass

from redis.asyncio import Redis

from graphql_api.aviso import escutas
from graphql_api.chamada.writer import CallLogWriter
from graphql_api.chave.service import CACHE_TOPIC, KeyCache, UltimoUso
from graphql_api.chave.situacao import RateLimits
from graphql_api.core import shortcuts
from graphql_api.core.relogio import agora
from graphql_api.integracao import service as integracao
from graphql_api.oauth import cache as oauth_cache
from graphql_api.oauth import origens
from graphql_api.oauth.tokens import TokenCache
from vitrine import ligacoes
from vitrine.call_log_process import call_log_for
from vitrine.infra.bus import InvalidationBus
from vitrine.infra.cpu import ProcessPool, render_workers
from vitrine.infra.outbound import OutboundClient
from vitrine.infra.ratelimit import RateLimiter
from vitrine.infra.storage import Storage, media_storage
from vitrine.settings import Settings

# Imported once by the forkserver, so that a new worker process starts ready to work.
_CPU_MODULES = ("graphql_api.geracao.render", "graphql_api.conferencia.analise")


@dataclass
class Runtime:
    settings: Settings
    redis: Redis | None
    bus: InvalidationBus
    keys: KeyCache
    oauth_tokens: TokenCache
    oauth_origens: origens.OrigensCache  # the browser origins CORS allows
    limiter: RateLimiter
    storage: Storage
    call_log: CallLogWriter
    outbound: OutboundClient
    render_pool: ProcessPool  # galleries, videos, image edits
    photo_pool: ProcessPool  # photo measures and thumbnails: never queued behind a render

    @property
    def default_limits(self) -> RateLimits:
        return RateLimits(self.settings.rate_limit_per_key, self.settings.rate_limit_per_integrator)

    @classmethod
    def build(cls, settings: Settings) -> Runtime:
        ligacoes.ligar()
        shortcuts.configure(settings.graphql_shortcuts)
        redis = Redis.from_url(settings.redis_url) if settings.redis_url else None
        bus = InvalidationBus(redis, channel=settings.redis_key("invalidar"))
        keys = KeyCache()
        bus.subscribe(lambda topic: keys.clear() if topic == CACHE_TOPIC else None)
        # Listening streams wake when an event for their session is registered in any process.
        bus.subscribe(escutas.acordar)
        escutas.ligar(bus.publish)
        oauth_tokens = TokenCache()
        # A token's entry also carries its integrator's state, which the keys' topic announces.
        bus.subscribe(lambda topic: oauth_tokens.clear() if topic in (oauth_cache.CACHE_TOPIC, CACHE_TOPIC) else None)
        oauth_origens = origens.nova_cache()
        bus.subscribe(lambda topic: oauth_origens.clear() if topic == oauth_cache.CACHE_TOPIC else None)
        call_log = call_log_for(settings)
        # Integration steps are judged from each batch of logged calls, off the request path.
        call_log.listeners.append(lambda batch: integracao.registrar_chamadas(batch, smtp_url=settings.smtp_url))
        bus.subscribe(integracao.on_bus)
        call_log.listeners.append(UltimoUso().registrar)
        return cls(
            settings=settings,
            redis=redis,
            bus=bus,
            keys=keys,
            oauth_tokens=oauth_tokens,
            oauth_origens=oauth_origens,
            limiter=RateLimiter(redis, key_prefix=settings.redis_key("rl"), clock=lambda: agora().timestamp()),
            storage=media_storage(settings),
            call_log=call_log,
            outbound=OutboundClient(
                allow_private=settings.outbound_allow_private, ca_bundle=settings.outbound_ca_bundle
            ),
            render_pool=ProcessPool(
                "render", render_workers(), preload=_CPU_MODULES, niceness=settings.background_niceness
            ),
            # One process: one full-size decode in memory at a time.
            photo_pool=ProcessPool("photo", 1, preload=_CPU_MODULES, niceness=settings.background_niceness),
        )

    async def start(self) -> None:
        await self.bus.start()
        await self.call_log.start()

    async def stop(self) -> None:
        await self.render_pool.stop()
        await self.photo_pool.stop()
        await self.limiter.close()
        await self.call_log.stop()
        await self.outbound.close()
        await self.storage.close()
        await self.bus.stop()
        if self.redis is not None:
            await self.redis.aclose()
