from __future__ import annotations

from typing import TYPE_CHECKING

from tortoise import fields
from tortoise.models import Model

if TYPE_CHECKING:
    from graphql_api.integrador.models import Integrador
    from graphql_api.vendedor.models import Vendedor


class Conta(Model):
    """The account of a seller: a sub-account the integrator created, or one linked through OAuth."""

    id = fields.CharField(pk=True, max_length=40)  # cta_
    integrador: fields.ForeignKeyRelation[Integrador] = fields.ForeignKeyField(
        "vitrine.Integrador", related_name="contas"
    )
    integrador_id: str  # column tortoise adds for the relation above
    ambiente = fields.CharField(max_length=10)
    # A linked account's is the service's own: an opaque vdr_ id per integrator for the seller
    # (never the seller's global id, which would let two integrators match their sellers).
    codigo_externo = fields.CharField(max_length=100)
    nome = fields.CharField(max_length=200)
    origem = fields.CharField(max_length=20, default="subconta")  # subconta | vinculada
    situacao = fields.CharField(max_length=20, default="ativa")  # ativa | pausada
    # A linked account's seller: one account per seller, integrator and environment.
    vendedor: fields.ForeignKeyNullableRelation[Vendedor] = fields.ForeignKeyField(
        "vitrine.Vendedor", related_name="contas", null=True
    )
    vendedor_id: str | None
    criado_em = fields.DatetimeField(auto_now_add=True)
    atualizado_em = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "contas"
        # The second: a concurrent first consent of one seller cannot make two linked accounts.
        unique_together = (("integrador", "ambiente", "codigo_externo"), ("integrador", "ambiente", "vendedor"))
        # GET /contas, alone and by each filter, newest first off the index (see Chamada).
        indexes = (
            ("integrador_id", "ambiente", "id"),
            ("integrador_id", "ambiente", "origem", "id"),
            ("integrador_id", "ambiente", "situacao", "id"),
        )
