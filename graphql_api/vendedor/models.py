from tortoise import fields
from tortoise.models import Model


class Vendedor(Model):
    """A seller: signs in with e-mail and password and authorises apps on the store.
    The e-mail is never shown to integrators."""

    id = fields.CharField(pk=True, max_length=40)  # vnd_
    nome = fields.CharField(max_length=200)  # the store name: the linked accounts take it
    email = fields.CharField(max_length=254, unique=True)  # stored lower-case: the sign-in name
    hash_senha = fields.CharField(max_length=200)  # argon2id
    criado_em = fields.DatetimeField(auto_now_add=True)
    ultimo_acesso_em = fields.DatetimeField(null=True)

    class Meta:
        table = "vendedores"


class SessaoVendedor(Model):
    """A signed-in browser of a seller. Only the SHA-256 of the cookie value is kept."""

    id = fields.CharField(pk=True, max_length=64)
    vendedor: fields.ForeignKeyRelation[Vendedor] = fields.ForeignKeyField("vitrine.Vendedor", related_name="sessoes")
    vendedor_id: str  # column tortoise adds for the relation above
    criado_em = fields.DatetimeField(auto_now_add=True)
    ultimo_uso_em = fields.DatetimeField()
    expira_em = fields.DatetimeField(index=True)
    ip = fields.CharField(max_length=64, default="")
    agente = fields.CharField(max_length=200, default="")

    class Meta:
        table = "sessoes_vendedor"
