"""The ledger row drops its explanation JSON: 0019 moved every one to the explanation tables (issue 16)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("masterpoints", "0019_move_award_explanations"),
    ]

    operations = [
        migrations.RemoveField(
            model_name="award",
            name="explanation",
        ),
    ]
