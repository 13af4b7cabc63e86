from __future__ import annotations

from typing import TYPE_CHECKING

from tortoise import fields
from tortoise.models import Model

if TYPE_CHECKING:
    from graphql_api.integrador.models import Integrador


class Usuario(Model):
    """A person of an integrator who signs in to the portal, with one role."""

    id = fields.CharField(pk=True, max_length=40)  # usr_
    integrador: fields.ForeignKeyRelation[Integrador] = fields.ForeignKeyField(
        "vitrine.Integrador", related_name="usuarios"
    )
    integrador_id: str  # column tortoise adds for the relation above
    nome = fields.CharField(max_length=200)
    email = fields.CharField(max_length=254, unique=True)  # stored lower-case: the sign-in name
    papel = fields.CharField(max_length=20)  # dono | desenvolvedor | financeiro
    hash_senha = fields.CharField(max_length=200, null=True)  # argon2id; null until an invite is accepted
    criado_em = fields.DatetimeField(auto_now_add=True)
    ultimo_acesso_em = fields.DatetimeField(null=True)

    class Meta:
        table = "usuarios"


class Sessao(Model):
    """A signed-in browser. Only the SHA-256 of the cookie value is kept."""

    id = fields.CharField(pk=True, max_length=64)
    usuario: fields.ForeignKeyRelation[Usuario] = fields.ForeignKeyField("vitrine.Usuario", related_name="sessoes")
    ambiente = fields.CharField(max_length=10, default="teste")  # the environment switch
    reautenticado_em = fields.DatetimeField(null=True)
    criado_em = fields.DatetimeField(auto_now_add=True)
    ultimo_uso_em = fields.DatetimeField()
    expira_em = fields.DatetimeField(index=True)
    ip = fields.CharField(max_length=64, default="")
    agente = fields.CharField(max_length=200, default="")  # User-Agent, to recognise the session

    class Meta:
        table = "sessoes"


class LinkSenha(Model):
    """A single-use link that sets a password: a reset or an invite. Only its SHA-256 is kept."""

    id = fields.CharField(pk=True, max_length=64)
    usuario: fields.ForeignKeyRelation[Usuario] = fields.ForeignKeyField("vitrine.Usuario", related_name="links_senha")
    motivo = fields.CharField(max_length=12)  # redefinicao | convite
    criado_em = fields.DatetimeField(auto_now_add=True, index=True)
    expira_em = fields.DatetimeField()
    usado_em = fields.DatetimeField(null=True)

    class Meta:
        table = "links_senha"


class TentativaEntrada(Model):
    """A failed sign-in, counted per e-mail and per address to slow down password guessing."""

    id = fields.IntField(pk=True)
    email = fields.CharField(max_length=254, index=True)
    # Whose sign-in: usuario (portal staff) or vendedor. The e-mail is counted per kind (a seller
    # account with a staff e-mail must not clear that person's failures); the address across both.
    tipo = fields.CharField(max_length=10, default="usuario", db_default="usuario")
    ip = fields.CharField(max_length=64, index=True)
    criado_em = fields.DatetimeField(index=True)

    class Meta:
        table = "tentativas_entrada"
