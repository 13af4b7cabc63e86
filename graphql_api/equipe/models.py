from tortoise import fields
from tortoise.models import Model


class MembroEquipe(Model):
    """A member of the service staff, who uses the internal GraphQL API with a staff token."""

    id = fields.CharField(pk=True, max_length=12)  # the identifier inside the token
    nome = fields.CharField(max_length=100)
    hash_segredo = fields.CharField(max_length=64)
    criado_em = fields.DatetimeField(auto_now_add=True)
    revogado_em = fields.DatetimeField(null=True)

    class Meta:
        table = "membros_equipe"


class AcaoEquipe(Model):
    """An action of the staff on an integrator or on the contract: who, what, when and why."""

    id = fields.IntField(pk=True)
    membro_id = fields.CharField(max_length=12)
    acao = fields.CharField(max_length=40)
    alvo = fields.CharField(max_length=40, null=True)
    motivo = fields.TextField(null=True)
    em = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "acoes_equipe"
