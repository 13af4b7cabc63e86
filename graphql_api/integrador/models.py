from tortoise import fields
from tortoise.models import Model


class Integrador(Model):
    """A software company that integrates Vitrine for its sellers: the tenant of every resource."""

    id = fields.CharField(pk=True, max_length=40)  # itg_
    nome = fields.CharField(max_length=200)
    email = fields.CharField(max_length=254)
    situacao = fields.CharField(max_length=20, default="ativo")  # ativo | pausado
    # Per-minute limits; null = the documented default (settings) until plans exist.
    limite_por_minuto_chave = fields.IntField(null=True)
    limite_por_minuto_integrador = fields.IntField(null=True)
    # Production access (graphql_api/integracao): bloqueada until the 8 steps are ok, then liberada
    # (automatica); suspensa when the service suspends it.
    producao_situacao = fields.CharField(max_length=12, default="bloqueada")
    producao_liberacao = fields.CharField(max_length=12, null=True)
    producao_liberada_em = fields.DatetimeField(null=True)
    producao_motivo: str | None = fields.TextField(null=True)
    criado_em = fields.DatetimeField(auto_now_add=True)
    atualizado_em = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "integradores"
