from __future__ import annotations

from typing import TYPE_CHECKING

from tortoise import fields
from tortoise.models import Model

if TYPE_CHECKING:
    from graphql_api.integrador.models import Integrador


class Carteira(Model):
    """The credit wallet of the integrator, one per environment (teste holds free play credits)."""

    id = fields.IntField(pk=True)
    integrador: fields.ForeignKeyRelation[Integrador] = fields.ForeignKeyField(
        "vitrine.Integrador", related_name="carteiras"
    )
    integrador_id: str  # column tortoise adds for the relation above
    ambiente = fields.CharField(max_length=10)
    modelo_cobranca = fields.CharField(max_length=20, default="pre_pago")
    creditos_disponiveis = fields.IntField(default=0)  # always creditos_plano + creditos_pacote
    creditos_plano = fields.IntField(default=0, db_default=0)  # granted by the plan; expire at the cycle end
    creditos_pacote = fields.IntField(default=0, db_default=0)  # bought; never expire
    creditos_reservados = fields.IntField(default=0)
    # Below the low-credit threshold (creditos.baixos fires again only after going above it).
    creditos_baixos = fields.BooleanField(default=False, db_default=False)
    atualizado_em = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "carteiras"
        unique_together = (("integrador", "ambiente"),)


class Lancamento(Model):
    """One movement of a wallet (the ledger): a reservation, a capture, a release, a refill.
    The wallet's balances always equal the sum of its movements."""

    id = fields.CharField(pk=True, max_length=40)  # lan_
    carteira: fields.ForeignKeyRelation[Carteira] = fields.ForeignKeyField(
        "vitrine.Carteira", related_name="lancamentos"
    )
    carteira_id: int  # column tortoise adds for the relation above
    # concessao_plano | expiracao_plano | compra_pacote | reserva | captura | liberacao | ajuste
    # (recarga: test play credits and entries older than plans)
    tipo = fields.CharField(max_length=20)
    # Effect on the two balances (reserva: -n / +n, captura: 0 / -n, liberacao: +n / -n).
    disponiveis = fields.IntField()
    reservados = fields.IntField()
    # The same effect on available credits, by pool (disponiveis = plano + pacote).
    plano = fields.IntField(default=0, db_default=0)
    pacote = fields.IntField(default=0, db_default=0)
    disponiveis_apos = fields.IntField(null=True)  # the available balance after this entry
    geracao_id = fields.CharField(max_length=40, null=True)
    recarga_id = fields.CharField(max_length=40, null=True, index=True)
    descricao = fields.CharField(max_length=300)
    criado_em = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "lancamentos"
        # The statement, alone and by type, newest first off the index.
        indexes = (("carteira_id", "id"), ("carteira_id", "tipo", "id"), ("carteira_id", "geracao_id", "id"))


class Plano(Model):
    """One version of a plan of the catalogue. A change is a new version (the previous one stops
    being offered); subscriptions keep the version they took until they change plan."""

    id = fields.CharField(pk=True, max_length=40)  # pln_
    codigo = fields.CharField(max_length=40)
    versao = fields.IntField()
    nome = fields.CharField(max_length=100)
    preco_centavos = fields.IntField()  # monthly price, BRL cents
    creditos_mensais = fields.IntField()  # the monthly quota, granted at each cycle start
    limite_por_minuto_chave = fields.IntField()
    limite_por_minuto_integrador = fields.IntField()
    vigente = fields.BooleanField(default=True)  # offered now: the newest version of its codigo
    ordem = fields.IntField(default=0)  # position in the catalogue, cheapest first
    criado_em = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "planos"
        unique_together = (("codigo", "versao"),)


class Assinatura(Model):
    """The plan of an integrator in one environment, and its current monthly cycle."""

    id = fields.IntField(pk=True)
    integrador: fields.ForeignKeyRelation[Integrador] = fields.ForeignKeyField(
        "vitrine.Integrador", related_name="assinaturas"
    )
    integrador_id: str
    ambiente = fields.CharField(max_length=10)
    plano: fields.ForeignKeyRelation[Plano] = fields.ForeignKeyField("vitrine.Plano", related_name="assinaturas")
    plano_id: str
    ciclo_inicio_em = fields.DatetimeField()
    ciclo_fim_em = fields.DatetimeField(index=True)
    # A downgrade waits for the next cycle.
    plano_agendado: fields.ForeignKeyNullableRelation[Plano] = fields.ForeignKeyField(
        "vitrine.Plano", related_name="agendamentos", null=True
    )
    plano_agendado_id: str | None
    cota_ciclo = fields.IntField(default=0)  # plan credits granted in this cycle (the quota)
    alertas_cota: list[int] = fields.JSONField(default=list)  # thresholds (70, 90, 100) passed this cycle
    criado_em = fields.DatetimeField(auto_now_add=True)
    atualizado_em = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "assinaturas"
        unique_together = (("integrador", "ambiente"),)
