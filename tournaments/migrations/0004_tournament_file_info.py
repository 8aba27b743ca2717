"""``Tournament.facts`` becomes ``file_info``: what the results file was. "Facts" are the director's, on the
upload."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0003_tournament_drop_unused_days"),
    ]

    operations = [
        migrations.RenameField(model_name="tournament", old_name="facts", new_name="file_info"),
        migrations.AlterField(
            model_name="tournament",
            name="file_info",
            field=models.JSONField(blank=True, default=dict, verbose_name="results file"),
        ),
    ]
