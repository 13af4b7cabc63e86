from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tortoise import fields
from tortoise.models import Model

if TYPE_CHECKING:
    from graphql_api.integrador.models import Integrador


class Evento(Model):
    """Something that happened and that notices (avisos) deliver. Written in the same
    transaction as the change that caused it (the outbox)."""

    id = fields.CharField(pk=True, max_length=40)  # evt_
    integrador: fields.ForeignKeyRelation[Integrador] = fields.ForeignKeyField(
        "vitrine.Integrador", related_name="eventos"
    )
    integrador_id: str  # column tortoise adds for the relation above
    ambiente = fields.CharField(max_length=10)
    tipo = fields.CharField(max_length=60)  # e.g. produto.conferido, see graphql_api/evento/catalog.py
    conta_id = fields.CharField(max_length=40, null=True)
    dados: dict[str, Any] = fields.JSONField()
    # Emitted by POST /avisos/disparos with a sample payload: delivered like any event, but no
    # integration step takes it as proof of anything.
    amostra = fields.BooleanField(default=False, db_default=False)
    criado_em = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "eventos"
        indexes = (("integrador_id", "ambiente", "id"),)
