from tortoise import fields
from tortoise.models import Model


class Email(Model):
    """An e-mail of the service: kept in the outbox (shown in the portal) and, when SMTP is
    configured, sent through it."""

    id = fields.CharField(pk=True, max_length=40)  # eml_
    integrador_id = fields.CharField(max_length=40, null=True, index=True)
    para = fields.CharField(max_length=254)
    assunto = fields.CharField(max_length=200)
    texto = fields.TextField()
    tipo = fields.CharField(max_length=40)  # alerta_aviso, redefinir_senha, ...
    # na_caixa (no SMTP configured) | pendente | enviado | falhou
    situacao = fields.CharField(max_length=12, default="pendente")
    tentativas = fields.SmallIntField(default=0)
    erro = fields.TextField(null=True)
    # A pendente message is queued by the sweep once this passes: after a failed attempt (the
    # backoff) or when its task message was lost. Null: due.
    proxima_tentativa_em = fields.DatetimeField(null=True, index=True)
    em_voo_ate = fields.DatetimeField(null=True)  # lease of the attempt in progress
    criado_em = fields.DatetimeField(auto_now_add=True)
    enviado_em = fields.DatetimeField(null=True)

    class Meta:
        table = "emails"
