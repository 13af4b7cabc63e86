"""The call log's index for an account with an app: an OAuth app's calls for one linked account
are a page straight off it, where the account's own index walked all of its calls."""

from tortoise import migrations
from tortoise.migrations import operations as ops
from graphql_api.core.indices import IndiceDosPreenchidos

class Migration(migrations.Migration):
    dependencies = [('vitrine', '0011_indices_esparsos')]

    initial = False

    operations = [
        ops.AddIndex(
            model_name='Chamada',
            index=IndiceDosPreenchidos(fields=['integrador_id', 'ambiente', 'conta_id', 'client_id', 'id'], coluna='client_id'),
        ),
    ]
