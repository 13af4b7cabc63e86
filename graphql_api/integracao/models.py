from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tortoise import fields
from tortoise.models import Model

if TYPE_CHECKING:
    from graphql_api.integrador.models import Integrador


class EtapaIntegracao(Model):
    """One of the 8 integration steps of an integrator, as last verified from real test calls."""

    id = fields.IntField(pk=True)
    integrador: fields.ForeignKeyRelation[Integrador] = fields.ForeignKeyField(
        "vitrine.Integrador", related_name="etapas"
    )
    integrador_id: str  # column tortoise adds for the relation above
    codigo = fields.CharField(max_length=40)
    situacao = fields.CharField(max_length=10, default="pendente")  # pendente | ok | falhou
    verificado_em = fields.DatetimeField(null=True)
    evidencia: dict[str, Any] | None = fields.JSONField(null=True)  # requestId, eventId or geracaoId that proved it
    ultima_falha = fields.TextField(null=True)
    falhou_em = fields.DatetimeField(null=True)
    # Facts a step is judged on over time (IDEMPOTENCIA: last call without the key, last replay).
    estado: dict[str, Any] = fields.JSONField(default=dict)
    atualizado_em = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "etapas_integracao"
        unique_together = (("integrador", "codigo"),)


class Espera429(Model):
    """A 429 answered to a test key: the next call with that key must come after `ate`."""

    id = fields.IntField(pk=True)
    integrador_id = fields.CharField(max_length=40)
    chave_id = fields.CharField(max_length=12, unique=True)
    ate = fields.DatetimeField()
    request_id = fields.CharField(max_length=40)

    class Meta:
        table = "esperas_429"


class ContratoVersao(Model):
    """A published version of the integration contract (only the latest is current)."""

    versao = fields.IntField(pk=True)
    titulo = fields.CharField(max_length=200)
    texto = fields.TextField()
    publicado_em = fields.DatetimeField(auto_now_add=True)
    publicado_por = fields.CharField(max_length=40)

    class Meta:
        table = "contrato_versoes"


class AceiteContrato(Model):
    """Who accepted which contract version for an integrator, and when."""

    id = fields.IntField(pk=True)
    integrador: fields.ForeignKeyRelation[Integrador] = fields.ForeignKeyField(
        "vitrine.Integrador", related_name="aceites"
    )
    integrador_id: str  # column tortoise adds for the relation above
    versao = fields.IntField()
    aceito_por = fields.CharField(max_length=100)
    aceito_em = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "aceites_contrato"
        unique_together = (("integrador", "versao"),)


class Alerta(Model):
    """An open (or closed) alert of an integrator: shown in the integration status and e-mailed
    to its contacts at most once per kind every 6 hours."""

    id = fields.CharField(pk=True, max_length=40)  # alr_
    integrador: fields.ForeignKeyRelation[Integrador] = fields.ForeignKeyField(
        "vitrine.Integrador", related_name="alertas"
    )
    integrador_id: str  # column tortoise adds for the relation above
    ambiente = fields.CharField(max_length=10)
    tipo = fields.CharField(max_length=40)  # see graphql_api/integracao/alertas.py
    chave = fields.CharField(max_length=200)  # what it is about, so one cause opens one alert
    mensagem = fields.TextField()
    evidencia: dict[str, Any] | None = fields.JSONField(null=True)
    aberto_em = fields.DatetimeField(auto_now_add=True)
    fechado_em = fields.DatetimeField(null=True)

    class Meta:
        table = "alertas"
        indexes = (("integrador_id", "fechado_em"),)


class EmailAlertaEnviado(Model):
    """When the last e-mail of each alert kind went to an integrator (at most 1 per 6 hours)."""

    id = fields.IntField(pk=True)
    integrador_id = fields.CharField(max_length=40)
    tipo = fields.CharField(max_length=40)
    enviado_em = fields.DatetimeField()

    class Meta:
        table = "emails_alerta"
        unique_together = (("integrador_id", "tipo"),)
