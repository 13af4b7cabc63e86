from __future__ import annotations

from typing import TYPE_CHECKING

from tortoise import fields
from tortoise.models import Model

if TYPE_CHECKING:
    from graphql_api.conta.models import Conta
    from graphql_api.integrador.models import Integrador
    from graphql_api.vendedor.models import Vendedor


class AppOAuth(Model):
    """An OAuth app (client) of an integrator. A confidential app keeps only the SHA-256 of its secret."""

    id = fields.CharField(pk=True, max_length=30)  # app_ + 26: the client_id
    integrador: fields.ForeignKeyRelation[Integrador] = fields.ForeignKeyField(
        "vitrine.Integrador", related_name="apps_oauth"
    )
    integrador_id: str  # column tortoise adds for the relation above
    ambiente = fields.CharField(max_length=10)  # teste | producao
    nome = fields.CharField(max_length=100)
    tipo = fields.CharField(max_length=12)  # confidencial | publico
    hash_segredo = fields.CharField(max_length=64, null=True)
    final_segredo = fields.CharField(max_length=4, null=True)  # last characters, to recognise it
    redirect_uris: list[str] = fields.JSONField(default=list)
    escopos: list[str] = fields.JSONField(default=list)  # the most the app may request
    situacao = fields.CharField(max_length=12, default="ativo")  # ativo | desativado
    segredo_rotacionado_em = fields.DatetimeField(null=True)
    # After a rotation with an overlap window, the previous secret still authenticates until
    # segredo_anterior_expira_em (graphql_api/oauth/apps.py, segredo_confere).
    hash_segredo_anterior = fields.CharField(max_length=64, null=True)
    final_segredo_anterior = fields.CharField(max_length=4, null=True)
    segredo_anterior_expira_em = fields.DatetimeField(null=True)
    desativado_em = fields.DatetimeField(null=True)
    criado_em = fields.DatetimeField(auto_now_add=True)
    atualizado_em = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "apps_oauth"


class FalhaClienteOAuth(Model):
    """A failed client authentication of an app from one source address.

    Counted per app and address: failures from one address never block the app for the others."""

    id = fields.IntField(pk=True)
    app_id = fields.CharField(max_length=30)
    origem = fields.CharField(max_length=45, default="")  # the caller's IP address
    criado_em = fields.DatetimeField(index=True)

    class Meta:
        table = "falhas_cliente_oauth"
        indexes = (("app_id", "origem", "criado_em"),)


class BloqueioClienteOAuth(Model):
    """An app blocked for one source address (20 authentication failures from it in 10 minutes)."""

    id = fields.IntField(pk=True)
    app_id = fields.CharField(max_length=30)
    origem = fields.CharField(max_length=45)
    ate = fields.DatetimeField(index=True)

    class Meta:
        table = "bloqueios_cliente_oauth"
        unique_together = (("app_id", "origem"),)


class Autorizacao(Model):
    """One consent of a seller to an app: the code it gave and every token issued from that code
    (one family). Every revocation ends the whole authorisation."""

    id = fields.CharField(pk=True, max_length=40)  # aut_
    app: fields.ForeignKeyRelation[AppOAuth] = fields.ForeignKeyField("vitrine.AppOAuth", related_name="autorizacoes")
    app_id: str
    vendedor: fields.ForeignKeyRelation[Vendedor] = fields.ForeignKeyField(
        "vitrine.Vendedor", related_name="autorizacoes"
    )
    vendedor_id: str
    conta: fields.ForeignKeyRelation[Conta] = fields.ForeignKeyField("vitrine.Conta", related_name="autorizacoes")
    conta_id: str
    integrador_id = fields.CharField(max_length=40, index=True)
    ambiente = fields.CharField(max_length=10)
    escopos: list[str] = fields.JSONField(default=list)  # what the seller authorised
    criado_em = fields.DatetimeField(index=True)
    # When its code was exchanged: an authorisation exists (lists, keeps its account active) only
    # from then on; one whose code was never exchanged ends with the code.
    concedida_em = fields.DatetimeField(null=True)
    revogada_em = fields.DatetimeField(null=True)
    # vendedor | revogacao | app_desativado | codigo_reutilizado | verificador_incorreto |
    # renovacao_reutilizada
    motivo_revogacao = fields.CharField(max_length=30, null=True)

    class Meta:
        table = "autorizacoes_oauth"
        indexes = (("vendedor_id", "app_id", "criado_em"),)


class CodigoAutorizacao(Model):
    """An authorisation code (oac_): 60 seconds, single use. Only its SHA-256 is kept."""

    id = fields.CharField(pk=True, max_length=64)
    autorizacao: fields.ForeignKeyRelation[Autorizacao] = fields.ForeignKeyField(
        "vitrine.Autorizacao", related_name="codigos"
    )
    autorizacao_id: str
    redirect_uri = fields.CharField(max_length=2000)
    code_challenge = fields.CharField(max_length=64)
    escopos: list[str] = fields.JSONField(default=list)
    expira_em = fields.DatetimeField()
    usado_em = fields.DatetimeField(null=True)

    class Meta:
        table = "codigos_oauth"


class TokenOAuth(Model):
    """An access (oat_) or refresh (ort_) token. Only its SHA-256 is kept."""

    id = fields.CharField(pk=True, max_length=64)
    autorizacao: fields.ForeignKeyRelation[Autorizacao] = fields.ForeignKeyField(
        "vitrine.Autorizacao", related_name="tokens"
    )
    autorizacao_id: str
    tipo = fields.CharField(max_length=10)  # acesso | renovacao
    escopos: list[str] = fields.JSONField(default=list)
    criado_em = fields.DatetimeField()
    expira_em = fields.DatetimeField(index=True)
    usado_em = fields.DatetimeField(null=True)  # a refresh token, when it was rotated

    class Meta:
        table = "tokens_oauth"
