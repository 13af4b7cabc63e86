"""Inputs of the OAuth domain, as pydantic models (graphql_api/core/inputs.py makes the GraphQL
input types)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class PedidoAutorizacao(BaseModel):
    """The query of /oauth/autorizar as the browser sent it. Nothing is refused here: the
    domain answers each problem the OAuth way (an error page, or an error for the app)."""

    model_config = ConfigDict(extra="forbid")

    responseType: str | None = None
    clientId: str | None = None
    redirectUri: str | None = None
    scope: str | None = None
    state: str | None = None
    codeChallenge: str | None = None
    codeChallengeMethod: str | None = None
    parametrosRepetidos: list[str] = []

    def como_pedido(self):
        from graphql_api.oauth.autorizacoes import Pedido

        return Pedido(
            valores={
                "response_type": self.responseType,
                "client_id": self.clientId,
                "redirect_uri": self.redirectUri,
                "scope": self.scope,
                "state": self.state,
                "code_challenge": self.codeChallenge,
                "code_challenge_method": self.codeChallengeMethod,
            },
            repetidos=tuple(self.parametrosRepetidos),
        )
