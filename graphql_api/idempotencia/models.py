from __future__ import annotations

from typing import Any

from tortoise import fields
from tortoise.models import Model


class RegistroIdempotencia(Model):
    """The first request made with an Idempotency-Key, and once finished, its response."""

    id = fields.IntField(pk=True)
    integrador_id = fields.CharField(max_length=40)
    ambiente = fields.CharField(max_length=10)
    chave = fields.CharField(max_length=120)
    hash_pedido = fields.CharField(max_length=64)  # method, route and body of the first request
    situacao = fields.CharField(max_length=12, default="em_andamento")  # em_andamento | concluida
    status = fields.SmallIntField(null=True)
    cabecalhos: dict[str, Any] | None = fields.JSONField(null=True)
    corpo = fields.TextField(null=True)
    criado_em = fields.DatetimeField()
    # An in-progress reservation whose process died is taken over after this moment.
    bloqueado_ate = fields.DatetimeField()

    class Meta:
        table = "idempotencia"
        unique_together = (("integrador_id", "ambiente", "chave"),)
