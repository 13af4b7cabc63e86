"""OAuth apps keep the previous client_secret (its hash and last characters) until the end of the
overlap window chosen at the rotation."""

from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('vitrine', '0015_oauth_por_origem_e_concessao')]

    initial = False

    operations = [
        ops.AddField(
            model_name='AppOAuth',
            name='final_segredo_anterior',
            field=fields.CharField(null=True, max_length=4),
        ),
        ops.AddField(
            model_name='AppOAuth',
            name='hash_segredo_anterior',
            field=fields.CharField(null=True, max_length=64),
        ),
        ops.AddField(
            model_name='AppOAuth',
            name='segredo_anterior_expira_em',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
    ]
