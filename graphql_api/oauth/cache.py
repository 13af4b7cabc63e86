"""What OAuth authentication caches in each process, and the bus topic that clears it
everywhere at once: a revocation, a disabled app or a rotated secret is published here."""

from graphql_api.core import topicos

CACHE_TOPIC = topicos.OAUTH
