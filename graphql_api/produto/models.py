from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tortoise import fields
from tortoise.models import Model

if TYPE_CHECKING:
    from graphql_api.conta.models import Conta
    from graphql_api.integrador.models import Integrador

# Product situacao (docs/conferencia.md): conferindo until the check of the latest version ends.
CONFERINDO = "conferindo"
APROVADO = "aprovado"  # the check approved at least one media type
REPROVADO = "reprovado"  # the check approved no media type
CONFERENCIA_FALHOU = "conferencia_falhou"  # the check could not run; POST .../conferencia retries


class Produto(Model):
    """A product record (ficha) of one account, addressed by the SKU of the integrator."""

    id = fields.CharField(pk=True, max_length=40)  # prd_
    conta: fields.ForeignKeyRelation[Conta] = fields.ForeignKeyField("vitrine.Conta", related_name="produtos")
    conta_id: str  # column tortoise adds for the relation above
    integrador: fields.ForeignKeyRelation[Integrador] = fields.ForeignKeyField(
        "vitrine.Integrador", related_name="produtos"
    )
    integrador_id: str  # column tortoise adds for the relation above
    ambiente = fields.CharField(max_length=10)
    codigo = fields.CharField(max_length=100)
    nome = fields.CharField(max_length=200)
    situacao = fields.CharField(max_length=20, default=CONFERINDO)
    versao = fields.IntField(default=1)
    ficha: dict[str, Any] = fields.JSONField()  # the latest version's content, validated and normalised
    hash_ficha = fields.CharField(max_length=64)
    # The screening of the latest version's photos (fotos.itens), once its check is done.
    fotos: list[dict[str, Any]] | None = fields.JSONField(null=True)
    # A deleted product keeps its rows (running generations read its versions) under a code no
    # SKU can take, so the same SKU can be sent again as a new product.
    excluido_em = fields.DatetimeField(null=True)
    codigo_excluido = fields.CharField(max_length=100, null=True)
    criado_em = fields.DatetimeField(auto_now_add=True)
    atualizado_em = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "produtos"
        unique_together = (("conta", "codigo"),)
        indexes = (("conta_id", "id"), ("conta_id", "situacao", "id"))


class ProdutoVersao(Model):
    """Each distinct content of a ficha, kept so a check and its media refer to a fixed version."""

    id = fields.IntField(pk=True)
    produto: fields.ForeignKeyRelation[Produto] = fields.ForeignKeyField("vitrine.Produto", related_name="versoes")
    produto_id: str  # column tortoise adds for the relation above
    versao = fields.IntField()
    ficha: dict[str, Any] = fields.JSONField()
    hash_ficha = fields.CharField(max_length=64)
    criado_em = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "produto_versoes"
        unique_together = (("produto", "versao"),)
