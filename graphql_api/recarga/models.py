from __future__ import annotations

from typing import TYPE_CHECKING

from tortoise import fields
from tortoise.models import Model

if TYPE_CHECKING:
    from graphql_api.integrador.models import Integrador


class Pacote(Model):
    """A single package of credits for sale. Package credits never expire with the cycle."""

    codigo = fields.CharField(pk=True, max_length=40)
    nome = fields.CharField(max_length=100)
    creditos = fields.IntField()
    preco_centavos = fields.IntField()  # BRL cents
    ativo = fields.BooleanField(default=True)
    ordem = fields.IntField(default=0)

    class Meta:
        table = "pacotes"


class Recarga(Model):
    """A purchase of a package: pendente until the payment provider says paga or recusada, or
    until it expires. Its credits enter the wallet once, when it is paid."""

    id = fields.CharField(pk=True, max_length=40)  # rec_
    integrador: fields.ForeignKeyRelation[Integrador] = fields.ForeignKeyField(
        "vitrine.Integrador", related_name="recargas"
    )
    integrador_id: str
    ambiente = fields.CharField(max_length=10)
    pacote: fields.ForeignKeyRelation[Pacote] = fields.ForeignKeyField("vitrine.Pacote", related_name="recargas")
    pacote_id: str
    creditos = fields.IntField()  # as sold: later catalogue changes do not touch it
    preco_centavos = fields.IntField()
    situacao = fields.CharField(max_length=12, default="pendente")  # pendente | paga | recusada | expirada
    provedor = fields.CharField(max_length=20, default="checkout")  # checkout | webhook | equipe
    referencia_provedor = fields.CharField(max_length=200, null=True)
    expira_em = fields.DatetimeField()
    paga_em = fields.DatetimeField(null=True)
    encerrada_em = fields.DatetimeField(null=True)  # recusada or expirada
    criado_em = fields.DatetimeField(auto_now_add=True)
    atualizado_em = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "recargas"
        indexes = (("integrador_id", "ambiente", "id"),)


class ConfirmacaoPagamento(Model):
    """A payment confirmation received (inbound webhook, checkout or staff), kept by its own id so
    the same confirmation arriving again is recognised and applied once."""

    id = fields.CharField(pk=True, max_length=120)  # the provider's message id (webhook-id)
    recarga: fields.ForeignKeyRelation[Recarga] = fields.ForeignKeyField("vitrine.Recarga", related_name="confirmacoes")
    recarga_id: str
    resultado = fields.CharField(max_length=12)  # paga | recusada
    origem = fields.CharField(max_length=20)  # checkout | webhook | equipe
    recebida_em = fields.DatetimeField()

    class Meta:
        table = "confirmacoes_pagamento"
