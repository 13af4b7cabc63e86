"""Clearing the test environment ("Limpar dados de teste", like a payment platform's delete
test data): the integrator starts the integration over without a new registration. Production
is never touched. After the password typed again a moment ago, the test environment's accounts,
products, generations, call log and notice deliveries are deleted, and the integration steps are
judged again from what remains: the latest notice test run still proves AVISOS_ASSINATURA; every
step judged from calls or events starts pending (a stray POST without Idempotency-Key no longer
holds IDEMPOTENCIA failed for 7 days)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphql_api.aviso import testes as avisos_testes
from graphql_api.core import dados_de_teste
from graphql_api.core.permissions import exigir_reautenticacao
from graphql_api.core.principal import Principal
from graphql_api.core.transactions import transaction
from graphql_api.integracao import repository, service

if TYPE_CHECKING:
    from graphql_api.core.recursos import Recursos


async def limpar_dados_de_teste(principal: Principal, runtime: Recursos) -> dict[str, int]:
    """What was deleted, by kind. Both environments' sessions may ask: it is always teste."""
    exigir_reautenticacao(principal)
    integrador_id = principal.integrador_exigido
    # Calls this process took a moment ago go in first, so they are deleted with the rest.
    await runtime.call_log.flush()
    async with transaction():
        # Each domain deletes its own part, in the order the composition root gave (notice
        # deliveries and attempts, events, images, generations with their reservations settled,
        # checks, photos, product versions, products, sub-accounts, idempotency records, the call
        # log). Kept: keys, notice addresses and their test runs, OAuth apps, linked accounts (a
        # seller's consent), the wallet and its ledger.
        apagados = await dados_de_teste.apagar(integrador_id)
        await repository.apagar_fatos_das_etapas(integrador_id)
    await service.esquecer_etapas(integrador_id, runtime.bus)
    situacao = await avisos_testes.situacao_assinatura(integrador_id, "teste")
    if situacao.situacao != "pendente":
        await service.registrar_teste_de_avisos(
            integrador_id,
            aprovado=situacao.situacao == "ok",
            teste_ids=[t.id for t in situacao.testes],
            motivo=situacao.ultima_falha,
        )
    return apagados
