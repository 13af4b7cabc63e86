"""The request-scoped GraphQL context, built once per request by whichever door was used."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from graphql_api.core.errors import ApiError
from graphql_api.core.principal import Principal

if TYPE_CHECKING:
    from graphql_api.core.recursos import Configuracao, Recursos


@dataclass
class Context:
    runtime: Recursos
    principal: Principal | None = None
    request_id: str | None = None
    # The Idempotency-Key of the current request, so a creation can be tied to it.
    idempotency_key: str | None = None

    @property
    def settings(self) -> Configuracao:
        return self.runtime.settings

    def require_principal(self) -> Principal:
        if self.principal is None:
            raise ApiError("UNAUTHORIZED")
        return self.principal
