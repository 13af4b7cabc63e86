"""Topics of the invalidation bus (vitrine/infra/bus.py) that more than one domain publishes: a
change publishes the topic of the caches it makes stale, without importing the domain that keeps
them. The composition root (vitrine/runtime.py) subscribes each cache to its topics."""

# API keys' authentication entries, with their integrator's standing and limits.
CHAVES = "chaves"
# OAuth tokens' entries and the browser origins of public apps.
OAUTH = "oauth"
