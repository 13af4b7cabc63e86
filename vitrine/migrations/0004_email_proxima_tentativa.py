from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('vitrine', '0003_geracoes_e_imagens')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Email',
            name='em_voo_ate',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
        ops.AddField(
            model_name='Email',
            name='proxima_tentativa_em',
            field=fields.DatetimeField(null=True, db_index=True, auto_now=False, auto_now_add=False),
        ),
    ]
