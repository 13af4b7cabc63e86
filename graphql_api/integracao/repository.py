"""Queries of the integration domain: steps, 429 waits, alerts, contract versions and the
release of production (a conditional update: only a blocked integrator is released)."""

from __future__ import annotations

from datetime import datetime

from graphql_api.integracao.models import Alerta, ContratoVersao, Espera429, EtapaIntegracao
from graphql_api.integrador.models import Integrador


async def travar_etapa(integrador_id: str, codigo: str) -> EtapaIntegracao | None:
    """The step's row, locked until the transaction ends: two batches never judge it at once."""
    return await EtapaIntegracao.select_for_update().filter(integrador_id=integrador_id, codigo=codigo).first()


async def etapas_of(integrador_id: str) -> list[EtapaIntegracao]:
    return await EtapaIntegracao.filter(integrador_id=integrador_id)


async def esperas_of(chave_ids: set[str]) -> list[Espera429]:
    return await Espera429.filter(chave_id__in=chave_ids)


async def drop_esperas_of(chave_id: str) -> None:
    await Espera429.filter(chave_id=chave_id).delete()


async def release_production(integrador_id: str, when: datetime) -> int:
    return await Integrador.filter(id=integrador_id, producao_situacao="bloqueada").update(
        producao_situacao="liberada", producao_liberacao="automatica", producao_liberada_em=when, producao_motivo=None
    )


async def open_alerta(integrador_id: str, ambiente: str, tipo: str, chave: str) -> Alerta | None:
    return await Alerta.filter(
        integrador_id=integrador_id, ambiente=ambiente, tipo=tipo, chave=chave, fechado_em__isnull=True
    ).first()


async def close_alertas(integrador_id: str, ambiente: str, tipos: tuple[str, ...], chave: str, when: datetime) -> int:
    return await Alerta.filter(
        integrador_id=integrador_id, ambiente=ambiente, tipo__in=tipos, chave=chave, fechado_em__isnull=True
    ).update(fechado_em=when)


async def open_alertas(integrador_id: str, ambiente: str) -> list[Alerta]:
    return await Alerta.filter(integrador_id=integrador_id, ambiente=ambiente, fechado_em__isnull=True).order_by(
        "aberto_em"
    )


async def latest_contrato() -> ContratoVersao | None:
    return await ContratoVersao.all().order_by("-versao").first()


async def apagar_fatos_das_etapas(integrador_id: str) -> None:
    """Steps are judged in teste only: their facts go with the test data they were judged from."""
    await Espera429.filter(integrador_id=integrador_id).delete()
    await EtapaIntegracao.filter(integrador_id=integrador_id).delete()
