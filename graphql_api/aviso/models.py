from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tortoise import fields
from tortoise.models import Model

if TYPE_CHECKING:
    from graphql_api.integrador.models import Integrador


class Aviso(Model):
    """A notice address of an integrator in one environment: an https url and the events it
    receives. Only the encrypted signing secret is kept (Fernet, key derived from the settings)."""

    id = fields.CharField(pk=True, max_length=40)  # avs_
    integrador: fields.ForeignKeyRelation[Integrador] = fields.ForeignKeyField(
        "vitrine.Integrador", related_name="avisos"
    )
    integrador_id: str  # column tortoise adds for the relation above
    ambiente = fields.CharField(max_length=10)
    url = fields.CharField(max_length=2048)
    eventos: list[str] = fields.JSONField()  # list of event names (graphql_api/evento/catalog.py)
    situacao = fields.CharField(max_length=12, default="ativo")  # ativo | desativado
    segredo_cifrado = fields.TextField()
    # During a rotation the previous secret still signs, until segredo_anterior_expira_em.
    segredo_anterior_cifrado: str | None = fields.TextField(null=True)
    segredo_anterior_expira_em = fields.DatetimeField(null=True)
    # First failure since the last success (null while healthy), and the alert already sent for it.
    falhando_desde = fields.DatetimeField(null=True)
    alerta_falha_em = fields.DatetimeField(null=True)
    desativado_em = fields.DatetimeField(null=True)
    motivo_desativacao = fields.CharField(max_length=300, null=True)
    criado_em = fields.DatetimeField(auto_now_add=True)
    atualizado_em = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "avisos"
        unique_together = (("integrador", "ambiente", "url"),)


class Entrega(Model):
    """One event for one address (the outbox of notices). Its id is the webhook-id header, the
    same on every attempt. Claimed with a token (reserva) so only one worker sends it at a time."""

    id = fields.CharField(pk=True, max_length=40)  # ent_
    aviso: fields.ForeignKeyRelation[Aviso] = fields.ForeignKeyField(
        "vitrine.Aviso", related_name="entregas", on_delete=fields.CASCADE
    )
    aviso_id: str  # column tortoise adds for the relation above
    evento_id = fields.CharField(max_length=40, index=True)
    tipo = fields.CharField(max_length=60)
    corpo = fields.TextField()  # the exact JSON body, identical on every attempt
    # pendente | enviando | entregue | falhou
    situacao = fields.CharField(max_length=10, default="pendente")
    tentativas = fields.SmallIntField(default=0)
    proxima_tentativa_em = fields.DatetimeField(null=True)
    # When a task was last queued for it: a due delivery queued long ago lost its message.
    enfileirada_em = fields.DatetimeField(null=True)
    em_voo_desde = fields.DatetimeField(null=True)
    reserva = fields.CharField(max_length=32, null=True)
    ultimo_status = fields.SmallIntField(null=True)
    # A sample sent from the portal ("Enviar evento de teste"): no event row, one attempt, and
    # it never counts for the address health (failing since, switching off).
    amostra = fields.BooleanField(default=False, db_default=False)
    criado_em = fields.DatetimeField(auto_now_add=True)
    entregue_em = fields.DatetimeField(null=True)

    class Meta:
        table = "aviso_entregas"
        indexes = (
            ("situacao", "proxima_tentativa_em"),
            ("aviso_id", "id"),
            ("aviso_id", "situacao", "id"),
            ("aviso_id", "tipo", "id"),
        )


class Tentativa(Model):
    """One attempt of a delivery: when, how long, what the address answered (or why it could not)."""

    id = fields.IntField(pk=True)
    entrega: fields.ForeignKeyRelation[Entrega] = fields.ForeignKeyField(
        "vitrine.Entrega", related_name="registro", on_delete=fields.CASCADE
    )
    entrega_id: str  # column tortoise adds for the relation above
    numero = fields.SmallIntField()
    iniciada_em = fields.DatetimeField()
    duracao_ms = fields.FloatField(null=True)
    status = fields.SmallIntField(null=True)
    resposta = fields.TextField(null=True)  # the first bytes of the answer
    erro = fields.CharField(max_length=300, null=True)
    # What was sent (the body is the delivery's, identical on every attempt) and what came back.
    cabecalhos_enviados: dict[str, Any] | None = fields.JSONField(null=True)
    cabecalhos_resposta: dict[str, Any] | None = fields.JSONField(null=True)
    # Why no answer came: dns | tls | tempo_esgotado | recusada | conexao (None: the server answered).
    falha = fields.CharField(max_length=20, null=True)

    class Meta:
        table = "aviso_tentativas"


class RodadaTeste(Model):
    """One run of POST /avisos/teste: three test deliveries to one address. The latest run of an
    integrator and environment feeds the AVISOS_ASSINATURA integration step."""

    id = fields.CharField(pk=True, max_length=40)  # rod_
    integrador_id = fields.CharField(max_length=40)
    ambiente = fields.CharField(max_length=10)
    aviso: fields.ForeignKeyNullableRelation[Aviso] = fields.ForeignKeyField(
        "vitrine.Aviso", related_name="rodadas", null=True, on_delete=fields.SET_NULL
    )
    aviso_id: str | None  # column tortoise adds for the relation above
    url = fields.CharField(max_length=2048)
    situacao = fields.CharField(max_length=10, default="pendente")  # pendente | enviando | concluida
    execucoes = fields.SmallIntField(default=0)
    iniciada_em = fields.DatetimeField(null=True)
    criado_em = fields.DatetimeField(auto_now_add=True)
    concluida_em = fields.DatetimeField(null=True)

    class Meta:
        table = "aviso_rodadas_teste"
        indexes = (("integrador_id", "ambiente", "id"),)


class TesteAviso(Model):
    """One of the three test deliveries: what was sent, what the address answered, the verdict."""

    id = fields.CharField(pk=True, max_length=40)  # tst_
    rodada: fields.ForeignKeyRelation[RodadaTeste] = fields.ForeignKeyField(
        "vitrine.RodadaTeste", related_name="testes", on_delete=fields.CASCADE
    )
    rodada_id: str  # column tortoise adds for the relation above
    integrador_id = fields.CharField(max_length=40)
    ambiente = fields.CharField(max_length=10)
    caso = fields.CharField(max_length=20)  # valida | assinatura_errada | timestamp_antigo
    situacao = fields.CharField(max_length=10, default="pendente")  # pendente | concluido
    cabecalhos_enviados: dict[str, Any] | None = fields.JSONField(null=True)
    corpo_enviado = fields.TextField(null=True)
    status = fields.SmallIntField(null=True)
    resposta = fields.TextField(null=True)
    erro = fields.CharField(max_length=300, null=True)
    cabecalhos_resposta: dict[str, Any] | None = fields.JSONField(null=True)
    falha = fields.CharField(max_length=20, null=True)  # as Tentativa.falha
    duracao_ms = fields.FloatField(null=True)
    veredito = fields.CharField(max_length=10, null=True)  # passou | falhou
    criado_em = fields.DatetimeField(auto_now_add=True)
    concluido_em = fields.DatetimeField(null=True)

    class Meta:
        table = "aviso_testes"


class Escuta(Model):
    """A listening session of the vitrine-cli listen command, test environment only. While its stream is
    connected, every event of the integrator's test environment (of the chosen types) becomes an
    EntregaEscuta that the stream hands to the command, which forwards it to a local address and
    reports the answer back. A session whose stream stopped renewing `sinal_em` is over, even if
    its process died before closing it."""

    id = fields.CharField(pk=True, max_length=40)  # esc_
    integrador_id = fields.CharField(max_length=40)
    ambiente = fields.CharField(max_length=10)
    eventos: list[str] = fields.JSONField()  # event names; empty means every event
    situacao = fields.CharField(max_length=12, default="aberta")  # aberta | conectada | encerrada
    sinal_em = fields.DatetimeField()  # last sign of life of its stream (or its creation)
    criado_em = fields.DatetimeField(auto_now_add=True)
    conectada_em = fields.DatetimeField(null=True)
    encerrada_em = fields.DatetimeField(null=True)

    class Meta:
        table = "aviso_escutas"
        indexes = (("integrador_id", "ambiente", "situacao"),)


class EntregaEscuta(Model):
    """One event for one listening session. Its id is the webhook-id the command signs with, and the
    answer of the local address, as the command reports it, is its result."""

    id = fields.CharField(pk=True, max_length=40)  # ent_
    escuta: fields.ForeignKeyRelation[Escuta] = fields.ForeignKeyField(
        "vitrine.Escuta", related_name="entregas", on_delete=fields.CASCADE
    )
    escuta_id: str  # column tortoise adds for the relation above
    evento_id = fields.CharField(max_length=40)
    tipo = fields.CharField(max_length=60)
    corpo = fields.TextField()  # the exact JSON body, as for a registered address
    situacao = fields.CharField(max_length=10, default="pendente")  # pendente | enviando | entregue | falhou
    status = fields.SmallIntField(null=True)
    resposta = fields.TextField(null=True)  # the first bytes of the local answer
    erro = fields.CharField(max_length=300, null=True)
    duracao_ms = fields.FloatField(null=True)
    criado_em = fields.DatetimeField(auto_now_add=True)
    enviada_em = fields.DatetimeField(null=True)
    respondida_em = fields.DatetimeField(null=True)

    class Meta:
        table = "aviso_escuta_entregas"
        indexes = (("escuta_id", "situacao", "id"), ("escuta_id", "id"))
