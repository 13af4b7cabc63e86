from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('vitrine', '0005_oauth_vendedores')]

    initial = False

    operations = [
        ops.AddField(
            model_name='TentativaEntrada',
            name='tipo',
            field=fields.CharField(default='usuario', db_default='usuario', max_length=10),
        ),
    ]
