"""Ending authorisations: every way in (the seller's page, /oauth/revogar, a replayed code, a
wrong code_verifier, a reused refresh token, the app disabled) ends whole authorisations here,
pauses the linked accounts left without an active one, tells the integrator so (the event
conta.desvinculada, in the same transaction) and tells every process to forget what it cached."""

from __future__ import annotations

from datetime import datetime

from graphql_api.core.relogio import agora
from graphql_api.core.transactions import transaction
from graphql_api.evento import service as eventos
from graphql_api.evento.payloads import DadosContaDesvinculada, MotivoDesvinculacao
from graphql_api.oauth import repository
from graphql_api.oauth.cache import CACHE_TOPIC
from graphql_api.oauth.repository import Desvinculo

# Why an authorisation ended (Autorizacao.motivo_revogacao) -> the reason conta.desvinculada
# tells the integrator. A wrong code_verifier ends an authorisation before its code is exchanged,
# so it never unlinks an account; it is mapped all the same, as the credential misuse it is.
MOTIVO_DO_DESVINCULO = {
    "vendedor": MotivoDesvinculacao.VENDEDOR_REVOGOU,
    "revogacao": MotivoDesvinculacao.INTEGRADOR_REVOGOU,
    "app_desativado": MotivoDesvinculacao.APP_DESATIVADO,
    "codigo_reutilizado": MotivoDesvinculacao.CREDENCIAL_REUTILIZADA,
    "renovacao_reutilizada": MotivoDesvinculacao.CREDENCIAL_REUTILIZADA,
    "verificador_incorreto": MotivoDesvinculacao.CREDENCIAL_REUTILIZADA,
}


def dados_do_evento(desvinculo: Desvinculo, motivo: str, quando: datetime) -> DadosContaDesvinculada:
    """The `data` of conta.desvinculada."""
    return DadosContaDesvinculada(
        contaId=desvinculo.conta_id,
        clientId=desvinculo.app_id,
        motivo=MOTIVO_DO_DESVINCULO[motivo],
        desvinculadaEm=quando,
    )


async def revogar_autorizacoes(ids: list[str], *, motivo: str, bus) -> int:
    """Revoke these authorisations (those not ended yet); returns how many ended now. A linked
    account pauses when no active authorisation of any app is left on it, and its integrator
    gets conta.desvinculada."""
    if not ids:
        return 0
    quando = agora()
    async with transaction():
        terminadas = await repository.revogar(ids, quando, motivo)
        if terminadas:
            for desvinculo in await repository.pausar_contas_sem_autorizacao(ids, quando):
                await eventos.registrar(
                    "conta.desvinculada",
                    integrador_id=desvinculo.integrador_id,
                    ambiente=desvinculo.ambiente,
                    conta_id=desvinculo.conta_id,
                    dados=dados_do_evento(desvinculo, motivo, quando),
                )
    if terminadas and bus is not None:
        await bus.publish(CACHE_TOPIC)
    return terminadas
