from tortoise import fields
from tortoise.models import Model


class Carteira(Model):
    """The credit wallet of the integrator, one per environment (teste holds free play credits)."""

    id = fields.IntField(pk=True)
    integrador = fields.ForeignKeyField("vitrine.Integrador", related_name="carteiras")
    ambiente = fields.CharField(max_length=10)
    modelo_cobranca = fields.CharField(max_length=20, default="pre_pago")
    creditos_disponiveis = fields.IntField(default=0)
    creditos_reservados = fields.IntField(default=0)
    atualizado_em = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "carteiras"
        unique_together = (("integrador", "ambiente"),)
