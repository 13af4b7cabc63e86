from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tortoise import fields
from tortoise.models import Model

if TYPE_CHECKING:
    from graphql_api.produto.models import Produto


class Conferencia(Model):
    """One quality check of one version of a ficha. The row is the queued work itself: a lost
    task message or a crashed worker is recovered from it by the sweep."""

    id = fields.CharField(pk=True, max_length=40)  # cnf_
    produto: fields.ForeignKeyRelation[Produto] = fields.ForeignKeyField("vitrine.Produto", related_name="conferencias")
    produto_id: str  # column tortoise adds for the relation above
    integrador_id = fields.CharField(max_length=40)
    ambiente = fields.CharField(max_length=10)
    conta_id = fields.CharField(max_length=40)
    versao_produto = fields.IntField()
    origem = fields.CharField(max_length=12)  # automatica | manual
    # agendada | em_andamento | concluida | falhou | cancelada (docs/conferencia.md)
    situacao = fields.CharField(max_length=20)
    tentativas = fields.SmallIntField(default=0)
    admitida_em = fields.DatetimeField(null=True)  # entered the daily count of the product
    executar_em = fields.DatetimeField(null=True)  # agendada: when a slot of the daily count frees
    reservada_ate = fields.DatetimeField(null=True)  # lease of the worker running it
    resultados: list[dict[str, Any]] | None = fields.JSONField(
        null=True
    )  # one entry per media type, as the API shows it
    fotos: list[dict[str, Any]] | None = fields.JSONField(
        null=True
    )  # the screening of each photo, as fotos.itens shows it
    erro = fields.TextField(null=True)
    criado_em = fields.DatetimeField(auto_now_add=True)
    concluida_em = fields.DatetimeField(null=True)
    atualizado_em = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "conferencias"
        indexes = (("produto_id", "admitida_em"), ("situacao", "executar_em"))


class Foto(Model):
    """An original photo of a product as downloaded, kept in media storage with its measures,
    and re-used by later versions while its URL and content stay the same."""

    id = fields.IntField(pk=True)
    produto: fields.ForeignKeyRelation[Produto] = fields.ForeignKeyField(
        "vitrine.Produto", related_name="fotos_originais"
    )
    produto_id: str  # column tortoise adds for the relation above
    url = fields.TextField()
    url_hash = fields.CharField(max_length=64)  # sha256 of the URL, for the look-up
    sha256 = fields.CharField(max_length=64)  # of the content
    arquivo = fields.CharField(max_length=200)  # storage key
    bytes = fields.IntField()
    medidas: dict[str, Any] = fields.JSONField()  # format, size, sharpness, perceptual hash, border lightness
    etag = fields.CharField(max_length=200, null=True)
    ultima_modificacao = fields.CharField(max_length=100, null=True)  # Last-Modified as received
    criado_em = fields.DatetimeField(auto_now_add=True)
    verificada_em = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "fotos"
        unique_together = (("produto", "url_hash", "sha256"),)
        indexes = (("produto_id", "url_hash"),)
