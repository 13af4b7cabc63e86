from __future__ import annotations

from typing import Any

from tortoise import fields
from tortoise.models import Model

from graphql_api.core.indices import IndiceDosPreenchidos

# The call log writes through a connection of its own (vitrine/db.py), so its batches never
# queue in front of the requests' reads.
CALL_LOG_CONNECTION = "chamadas"


COLUNAS_FILTRADAS = (
    "classe_status",
    "status",
    "metodo",
    "endpoint",
    "codigo_erro",
    "conta_id",
    "chave_id",
    "client_id",
)
# Filled on a minority of calls (errors; calls for an account; a key's or an app's calls): their
# indexes hold only the filled rows.
COLUNAS_ESPARSAS = ("codigo_erro", "conta_id", "chave_id", "client_id")


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
    # status // 100: the filters 2xx, 4xx, 5xx are one equality on an index ordered by id, not a
    # range of codes whose rows must be gathered and sorted.
    classe_status = fields.SmallIntField(db_default=0)
    duracao_ms = fields.FloatField()
    codigo_erro = fields.CharField(max_length=60, null=True)
    mensagem_erro = fields.TextField(null=True)
    causa_erro = fields.TextField(null=True)  # the error's description in this very call
    replay = fields.BooleanField(default=False)  # answered Idempotent-Replayed: true
    idempotency_key = fields.CharField(max_length=130, null=True)  # partially masked
    cabecalhos: dict[str, Any] | None = fields.JSONField(null=True)  # request headers worth seeing, masked
    # Response headers an integrator debugs with: rate limit, Retry-After, Idempotent-Replayed.
    cabecalhos_resposta: dict[str, Any] | None = fields.JSONField(null=True)
    corpo_enviado = fields.TextField(null=True)
    corpo_recebido = fields.TextField(null=True)
    corpo_enviado_cortado = fields.BooleanField(default=False)  # cut at 64 KB
    corpo_recebido_cortado = fields.BooleanField(default=False)
    criado_em = fields.DatetimeField()

    class Meta:
        table = "chamadas"
        # One index per filter of the call log, each the tenant, the filtered column and the id: a
        # page of any filter is read in id order straight off its index and stops after `limite`
        # rows, whatever the tenant's history. Pairs use the more selective one (the planner's
        # statistics: ANALYZE on PostgreSQL, `PRAGMA optimize` on SQLite); method and endpoint,
        # each common alone and rare together, have an index of their own, and so do an account
        # with an app (a linked account's calls: many for the account, most from one app, none
        # from the others, which made both back ends walk the account's calls). PostgreSQL also
        # keeps extended statistics on the tenant with the account, key and app columns
        # (migration 0011): each belongs to one tenant, which independent estimates ignore.
        indexes = (
            ("integrador_id", "ambiente", "id"),
            *(
                ("integrador_id", "ambiente", coluna, "id")
                for coluna in COLUNAS_FILTRADAS
                if coluna not in COLUNAS_ESPARSAS
            ),
            *(
                IndiceDosPreenchidos(fields=("integrador_id", "ambiente", coluna, "id"), coluna=coluna)
                for coluna in COLUNAS_ESPARSAS
            ),
            ("integrador_id", "ambiente", "endpoint", "metodo", "id"),
            IndiceDosPreenchidos(
                fields=("integrador_id", "ambiente", "conta_id", "client_id", "id"), coluna="client_id"
            ),
            ("criado_em",),
        )
