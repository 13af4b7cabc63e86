"""The integrator's standing as authentication sees it, whatever the credential (API key or OAuth
token): read with the credential in one query, cached with it, and judged here once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from graphql_api.core.errors import ApiError
from graphql_api.core.principal import Ambiente
from graphql_api.creditos import limites

# The integrator's columns a credential's query reads, after the relation's prefix.
COLUNAS = ("situacao", "producao_situacao", "limite_por_minuto_chave", "limite_por_minuto_integrador")


@dataclass(frozen=True, slots=True)
class RateLimits:
    per_credential: int
    per_integrator: int

    @classmethod
    def of(
        cls, chave: int | None, integrador: int | None, plano: tuple[int, int] | None, padrao: RateLimits
    ) -> RateLimits:
        """The limits that apply: a staff override of the integrator first, else its plan's; the
        installation's settings are a floor under every plan (docs/limites.md)."""
        plano_chave, plano_integrador = plano or (0, 0)
        return cls(
            per_credential=chave or max(plano_chave, padrao.per_credential),
            per_integrator=integrador or max(plano_integrador, padrao.per_integrator),
        )


@dataclass(frozen=True, slots=True)
class SituacaoIntegrador:
    pausado: bool
    producao_suspensa: bool
    limite_credencial: int | None  # staff override, per key / per OAuth account
    limite_integrador: int | None  # staff override
    limites_plano: tuple[int, int] | None

    @classmethod
    async def ler(cls, row: dict[str, Any], prefixo: str, integrador_id: str, ambiente: str) -> SituacaoIntegrador:
        """From a credential's row, whose integrator columns are `prefixo` + COLUNAS."""
        return cls(
            pausado=row[prefixo + "situacao"] == "pausado",
            producao_suspensa=row[prefixo + "producao_situacao"] == "suspensa",
            limite_credencial=row[prefixo + "limite_por_minuto_chave"],
            limite_integrador=row[prefixo + "limite_por_minuto_integrador"],
            limites_plano=await limites.do_plano(integrador_id, ambiente),
        )

    def admitir(self, ambiente: Ambiente, padrao: RateLimits) -> RateLimits:
        """403 INTEGRATOR_PAUSED, 403 FORBIDDEN for a suspended production, else the limits."""
        if self.pausado:
            raise ApiError("INTEGRATOR_PAUSED")
        if ambiente is Ambiente.PRODUCAO and self.producao_suspensa:
            raise ApiError("FORBIDDEN", description="O acesso de produção deste integrador foi suspenso pelo serviço.")
        return RateLimits.of(self.limite_credencial, self.limite_integrador, self.limites_plano, padrao)
