"""Officer now lives in the ``office`` app (office 0001 takes over the same table)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0001_initial"),
        ("office", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[migrations.DeleteModel(name="Officer")],
        ),
    ]
