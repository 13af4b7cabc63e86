"""The catalogue of plans: shipped as data (catalogo.json), kept in the database, versioned.

`sincronizar()` loads the data file's plans whose codigo the database does not hold yet, as
version 1 (run by every `vitrine migrate` and at `vitrine serve` start; idempotent, and safe when
several processes run it at once). A codigo already in the database is never changed from the
file: staff change plans by publishing a new version (`publicar_versao`), which becomes the one
offered; subscriptions move to it at their next cycle (graphql_api/creditos/ciclo.py)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from tortoise.exceptions import IntegrityError

from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.ids import new_id
from graphql_api.core.relogio import agora
from graphql_api.core.transactions import transaction
from graphql_api.core.validation import validate
from graphql_api.creditos import repository
from graphql_api.creditos.models import Plano
from graphql_api.creditos.schemas import Catalogo, DadosPlano, NovaVersaoPlano

ARQUIVO = Path(__file__).with_name("catalogo.json")


@cache
def catalogo() -> Catalogo:
    """The data file, validated once per process."""
    return validate(Catalogo, json.loads(ARQUIVO.read_text(encoding="utf-8")))


def plano_inicial() -> str:
    """The codigo every new subscription starts on (the free plan)."""
    return catalogo().planoInicial


def _campos(dados: DadosPlano) -> dict[str, Any]:
    return {
        "codigo": dados.codigo,
        "nome": dados.nome,
        "preco_centavos": dados.precoCentavos,
        "creditos_mensais": dados.creditosMensais,
        "limite_por_minuto_chave": dados.limitePorMinutoChave,
        "limite_por_minuto_integrador": dados.limitePorMinutoIntegrador,
    }


async def sincronizar() -> list[str]:
    """Load the plans of the data file that the database lacks; returns their codigos."""
    existentes = await repository.codigos()
    criados = []
    for ordem, dados in enumerate(catalogo().planos):
        if dados.codigo in existentes:
            continue
        try:
            await Plano.create(id=new_id("pln_"), versao=1, ordem=ordem, criado_em=agora(), **_campos(dados))
        except IntegrityError:
            continue  # another process loaded it a moment ago
        criados.append(dados.codigo)
    return criados


async def publicar_versao(dados: dict[str, Any]) -> Plano:
    """A new version of a plan (or a new plan, with every field): offered from now on; the
    previous version stops being offered, and its subscribers move to the new one at their next
    cycle start."""
    pedido = validate(NovaVersaoPlano, dados)
    async with transaction():
        atual = await repository.ultima_versao(pedido.codigo)
        base = _dados_de(atual) if atual else {}
        completo = base | pedido.model_dump(exclude_none=True)
        faltam = [campo for campo in DadosPlano.model_fields if campo not in completo]
        if faltam:
            raise ApiError(
                "VALIDATION_FAILED",
                fields=[
                    FieldError(campo, "obrigatorio", "Um plano novo precisa de todos os campos.") for campo in faltam
                ],
            )
        novo = validate(DadosPlano, completo)
        if atual is not None and atual.vigente and novo.model_dump() == _dados_de(atual):
            return atual  # nothing changed: no new version
        ordem = atual.ordem if atual else len(await repository.codigos())
        plano = await Plano.create(
            id=new_id("pln_"),
            versao=(atual.versao + 1) if atual else 1,
            ordem=ordem,
            criado_em=agora(),
            **_campos(novo),
        )
        await repository.retirar_versoes(plano.codigo, exceto=plano.id)
    return plano


def _dados_de(plano: Plano) -> dict[str, Any]:
    return {
        "codigo": plano.codigo,
        "nome": plano.nome,
        "precoCentavos": plano.preco_centavos,
        "creditosMensais": plano.creditos_mensais,
        "limitePorMinutoChave": plano.limite_por_minuto_chave,
        "limitePorMinutoIntegrador": plano.limite_por_minuto_integrador,
    }
