from __future__ import annotations

from typing import TYPE_CHECKING

from tortoise import fields
from tortoise.models import Model

if TYPE_CHECKING:
    from graphql_api.integrador.models import Integrador


class Plano(Model):
    """One version of a plan of the catalogue. A change is a new version (the previous one stops
    being offered); subscriptions keep the version they took until they change plan."""

    id = fields.CharField(pk=True, max_length=40)  # pln_
    codigo = fields.CharField(max_length=40)
    versao = fields.IntField()
    nome = fields.CharField(max_length=100)
    preco_centavos = fields.IntField()  # monthly price, BRL cents
    creditos_mensais = fields.IntField()  # the monthly quota, granted at each cycle start
    limite_por_minuto_chave = fields.IntField()
    limite_por_minuto_integrador = fields.IntField()
    vigente = fields.BooleanField(default=True)  # offered now: the newest version of its codigo
    ordem = fields.IntField(default=0)  # position in the catalogue, cheapest first
    criado_em = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "planos"
        unique_together = (("codigo", "versao"),)


class Assinatura(Model):
    """The plan of an integrator in one environment, and its current monthly cycle."""

    id = fields.IntField(pk=True)
    integrador: fields.ForeignKeyRelation[Integrador] = fields.ForeignKeyField(
        "vitrine.Integrador", related_name="assinaturas"
    )
    integrador_id: str
    ambiente = fields.CharField(max_length=10)
    plano: fields.ForeignKeyRelation[Plano] = fields.ForeignKeyField("vitrine.Plano", related_name="assinaturas")
    plano_id: str
    ciclo_inicio_em = fields.DatetimeField()
    ciclo_fim_em = fields.DatetimeField(index=True)
    # A downgrade waits for the next cycle.
    plano_agendado: fields.ForeignKeyNullableRelation[Plano] = fields.ForeignKeyField(
        "vitrine.Plano", related_name="agendamentos", null=True
    )
    plano_agendado_id: str | None
    cota_ciclo = fields.IntField(default=0)  # plan credits granted in this cycle (the quota)
    alertas_cota: list[int] = fields.JSONField(default=list)  # thresholds (70, 90, 100) passed this cycle
    criado_em = fields.DatetimeField(auto_now_add=True)
    atualizado_em = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "assinaturas"
        unique_together = (("integrador", "ambiente"),)
