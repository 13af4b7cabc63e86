from tortoise import fields
from tortoise.models import Model


class Imagem(Model):
    """An image an integrator can refer to by id (img_): a delivered image of a generation, or
    an approved product photo (so it can be edited with POST /imagens/{id}/edicoes)."""

    id = fields.CharField(pk=True, max_length=40)  # img_
    integrador_id = fields.CharField(max_length=40)
    ambiente = fields.CharField(max_length=10)
    conta_id = fields.CharField(max_length=40, null=True)
    produto_id = fields.CharField(max_length=40, null=True, index=True)
    geracao_id = fields.CharField(max_length=40, null=True, index=True)
    origem = fields.CharField(max_length=12)  # foto | galeria | edicao
    arquivo = fields.CharField(max_length=300)  # storage key
    largura = fields.IntField()
    altura = fields.IntField()
    criado_em = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "imagens"
        unique_together = (("produto_id", "origem", "arquivo"),)
