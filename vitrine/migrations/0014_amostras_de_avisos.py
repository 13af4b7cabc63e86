"""Notice deliveries that are samples sent from the portal (Enviar evento de teste): one attempt,
no effect on the address health."""

from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('vitrine', '0013_escutas')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Entrega',
            name='amostra',
            field=fields.BooleanField(default=False, db_default=False),
        ),
    ]
