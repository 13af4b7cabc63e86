from __future__ import annotations

from typing import Any

from tortoise import fields
from tortoise.models import Model

# The call log writes through a connection of its own (vitrine/db.py), so its batches never
# queue in front of the requests' reads.
CALL_LOG_CONNECTION = "chamadas"


class Chamada(Model):
    """One call to /v1, as the call log shows it. Written in batches, off the request path."""

    id = fields.CharField(pk=True, max_length=40)  # the req_ request id
    # Plain columns, not foreign keys: the log is append-only and must insert fast.
    integrador_id = fields.CharField(max_length=40)
    ambiente = fields.CharField(max_length=10)
    chave_id = fields.CharField(max_length=12, null=True)
    credencial = fields.CharField(max_length=10)  # api_key | oauth
    client_id = fields.CharField(max_length=30, null=True)  # the OAuth app of an oat_ token
    conta_id = fields.CharField(max_length=40, null=True)
    metodo = fields.CharField(max_length=8)
    endpoint = fields.CharField(max_length=200)  # route template, e.g. /contas/{contaId}
    caminho = fields.CharField(max_length=1000)
    status = fields.SmallIntField()
    duracao_ms = fields.FloatField()
    codigo_erro = fields.CharField(max_length=60, null=True)
    mensagem_erro = fields.TextField(null=True)
    causa_erro = fields.TextField(null=True)  # the error's description in this very call
    replay = fields.BooleanField(default=False)  # answered Idempotent-Replayed: true
    idempotency_key = fields.CharField(max_length=130, null=True)  # partially masked
    cabecalhos: dict[str, Any] | None = fields.JSONField(null=True)  # request headers worth seeing, masked
    corpo_enviado = fields.TextField(null=True)
    corpo_recebido = fields.TextField(null=True)
    corpo_enviado_cortado = fields.BooleanField(default=False)  # cut at 64 KB
    corpo_recebido_cortado = fields.BooleanField(default=False)
    criado_em = fields.DatetimeField()

    class Meta:
        table = "chamadas"
        indexes = (("integrador_id", "ambiente", "id"), ("criado_em",))
