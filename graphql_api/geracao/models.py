from tortoise import fields
from tortoise.models import Model


class Geracao(Model):
    """One media order (gallery, video or image edit) and, once rendered, its results."""

    id = fields.CharField(pk=True, max_length=40)  # ger_
    integrador = fields.ForeignKeyField("vitrine.Integrador", related_name="geracoes")
    ambiente = fields.CharField(max_length=10)
    conta_id = fields.CharField(max_length=40, null=True, index=True)
    produto_id = fields.CharField(max_length=40, null=True, index=True)
    tipo = fields.CharField(max_length=30)
    situacao = fields.CharField(max_length=20, default="na_fila")
    creditos_reservados = fields.IntField(default=0)
    creditos_cobrados = fields.IntField(default=0)
    etapa = fields.CharField(max_length=30, default="na_fila")
    percentual = fields.SmallIntField(default=0)
    pedido = fields.JSONField(default=dict)  # the validated request that created it
    # Denormalised results, so reading a generation is one row: {"imagens": [...], "video": …}
    resultados = fields.JSONField(default=dict)
    erro = fields.JSONField(null=True)
    criado_em = fields.DatetimeField(auto_now_add=True)
    atualizado_em = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "geracoes"
