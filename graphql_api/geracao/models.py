from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tortoise import fields
from tortoise.models import Model

if TYPE_CHECKING:
    from graphql_api.integrador.models import Integrador


class Geracao(Model):
    """One media order (gallery, video or image edit) and, once rendered, its results."""

    id = fields.CharField(pk=True, max_length=40)  # ger_
    integrador: fields.ForeignKeyRelation[Integrador] = fields.ForeignKeyField(
        "vitrine.Integrador", related_name="geracoes"
    )
    integrador_id: str  # column tortoise adds for the relation above
    ambiente = fields.CharField(max_length=10)
    conta_id = fields.CharField(max_length=40, null=True, index=True)
    produto_id = fields.CharField(max_length=40, null=True, index=True)
    tipo = fields.CharField(max_length=30)
    situacao = fields.CharField(max_length=20, default="na_fila")
    creditos_reservados = fields.IntField(default=0)
    creditos_cobrados = fields.IntField(default=0)
    etapa = fields.CharField(max_length=30, default="na_fila")
    percentual = fields.SmallIntField(default=0)
    pedido: dict[str, Any] = fields.JSONField(default=dict)  # the validated request that created it
    # Denormalised results, so reading a generation is one row: {"imagens": [...], "video": …}
    resultados: dict[str, Any] = fields.JSONField(default=dict)
    erro: dict[str, Any] | None = fields.JSONField(null=True)
    # The Idempotency-Key that created it: a retry after a timeout finds it instead of a twin.
    chave_idempotencia = fields.CharField(max_length=120, null=True)
    tentativas = fields.SmallIntField(default=0)
    reservada_ate = fields.DatetimeField(null=True)  # lease of the worker rendering it
    enfileirada_em = fields.DatetimeField(null=True)  # last time its task was queued
    iniciada_em = fields.DatetimeField(null=True)
    concluida_em = fields.DatetimeField(null=True)
    criado_em = fields.DatetimeField(auto_now_add=True)
    atualizado_em = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "geracoes"
        unique_together = (("integrador", "ambiente", "chave_idempotencia"),)
        indexes = (
            ("situacao", "reservada_ate"),
            ("integrador_id", "ambiente", "id"),
            ("integrador_id", "ambiente", "produto_id", "id"),
        )
