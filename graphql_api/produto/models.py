from tortoise import fields
from tortoise.models import Model


class Produto(Model):
    """A product record (ficha) of one account, addressed by the SKU of the integrator."""

    id = fields.CharField(pk=True, max_length=40)  # prd_
    conta = fields.ForeignKeyField("vitrine.Conta", related_name="produtos")
    integrador = fields.ForeignKeyField("vitrine.Integrador", related_name="produtos")
    ambiente = fields.CharField(max_length=10)
    codigo = fields.CharField(max_length=100)
    nome = fields.CharField(max_length=200)
    situacao = fields.CharField(max_length=20, default="conferindo")
    versao = fields.IntField(default=1)
    ficha = fields.JSONField()  # the latest version's content, validated and normalised
    hash_ficha = fields.CharField(max_length=64)
    criado_em = fields.DatetimeField(auto_now_add=True)
    atualizado_em = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "produtos"
        unique_together = (("conta", "codigo"),)


class ProdutoVersao(Model):
    """Each distinct content of a ficha, kept so a check and its media refer to a fixed version."""

    id = fields.IntField(pk=True)
    produto = fields.ForeignKeyField("vitrine.Produto", related_name="versoes")
    versao = fields.IntField()
    ficha = fields.JSONField()
    hash_ficha = fields.CharField(max_length=64)
    criado_em = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "produto_versoes"
        unique_together = (("produto", "versao"),)
