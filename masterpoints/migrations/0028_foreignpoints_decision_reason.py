"""The reason given for a foreign-points decision is kept in the field every decided workflow shares
(``federation.decisions.Decided``): a rename, which changes only the catalogue, not a row."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("masterpoints", "0027_standing_places")]

    operations = [
        migrations.RenameField(model_name="foreignpoints", old_name="reason", new_name="decision_reason"),
        migrations.AlterField(
            model_name="foreignpoints",
            name="decision_reason",
            field=models.TextField(blank=True, verbose_name="reason for the decision"),
        ),
    ]
