"""Queries of the integration domain: steps, 429 waits, alerts, contract versions and the
release of production (a conditional update: only a blocked integrator is released)."""

from __future__ import annotations

from datetime import datetime

from tortoise.expressions import Subquery

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


async def apagar_dados_de_teste(integrador_id: str) -> dict[str, int]:
    """Delete the test environment's data of one integrator, children before parents: the call
    log, notice deliveries and their attempts, events, images, generations, checks, photos,
    product versions, products, sub-accounts, idempotency records and the steps' facts. Kept:
    keys, notice addresses and their test runs, OAuth apps, linked accounts (a seller's consent),
    the wallet and its ledger. Rows of production are never matched (every query names teste)."""
    from graphql_api.aviso.models import Aviso, Entrega, Tentativa
    from graphql_api.chamada.models import Chamada
    from graphql_api.conferencia.models import Conferencia, Foto
    from graphql_api.conta.models import Conta
    from graphql_api.evento.models import Evento
    from graphql_api.geracao.models import Geracao
    from graphql_api.idempotencia.models import RegistroIdempotencia
    from graphql_api.imagem.models import Imagem
    from graphql_api.produto.models import Produto, ProdutoVersao

    teste = {"integrador_id": integrador_id, "ambiente": "teste"}
    avisos = Aviso.filter(**teste).values("id")
    entregas = Entrega.filter(aviso_id__in=Subquery(avisos)).values("id")
    produtos = Produto.filter(**teste).values("id")
    apagados = {
        "tentativas": await Tentativa.filter(entrega_id__in=Subquery(entregas)).delete(),
        "entregas": await Entrega.filter(aviso_id__in=Subquery(avisos)).delete(),
        "eventos": await Evento.filter(**teste).delete(),
        "imagens": await Imagem.filter(**teste).delete(),
        "geracoes": await Geracao.filter(**teste).delete(),
        "conferencias": await Conferencia.filter(**teste).delete(),
        "fotos": await Foto.filter(produto_id__in=Subquery(produtos)).delete(),
        "versoes": await ProdutoVersao.filter(produto_id__in=Subquery(produtos)).delete(),
        "produtos": await Produto.filter(**teste).delete(),
        "contas": await Conta.filter(**teste, origem="subconta").delete(),
        "idempotencia": await RegistroIdempotencia.filter(**teste).delete(),
        "chamadas": await Chamada.filter(**teste).delete(),
    }
    # Steps are judged in teste only: their facts go with the data they were judged from.
    await Espera429.filter(integrador_id=integrador_id).delete()
    await EtapaIntegracao.filter(integrador_id=integrador_id).delete()
    return apagados


async def geracoes_em_curso_de_teste(integrador_id: str) -> list[dict]:
    """Test generations whose credits are still reserved (not settled yet)."""
    from graphql_api.geracao.models import Geracao

    return await Geracao.filter(
        integrador_id=integrador_id, ambiente="teste", situacao__in=("na_fila", "processando")
    ).values("id", "creditos_reservados")
