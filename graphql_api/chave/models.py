from __future__ import annotations

from typing import TYPE_CHECKING

from tortoise import fields
from tortoise.models import Model

if TYPE_CHECKING:
    from graphql_api.integrador.models import Integrador


class ChaveApi(Model):
    """An API key. Only the SHA-256 of its secret is kept, the identifier finds the row."""

    id = fields.CharField(pk=True, max_length=12)  # the 12-character identifier inside the key
    integrador: fields.ForeignKeyRelation[Integrador] = fields.ForeignKeyField(
        "vitrine.Integrador", related_name="chaves"
    )
    integrador_id: str  # column tortoise adds for the relation above
    ambiente = fields.CharField(max_length=10)  # teste | producao
    nome = fields.CharField(max_length=100, default="")
    hash_segredo = fields.CharField(max_length=64)
    criado_em = fields.DatetimeField(auto_now_add=True)
    revogada_em = fields.DatetimeField(null=True)
    # The latest call made with the key, as the call log's batches see it (at most a minute late).
    ultimo_uso_em = fields.DatetimeField(null=True)

    class Meta:
        table = "chaves_api"
