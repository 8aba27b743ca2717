"""The reason given for a tourist tournament's approval or refusal is kept in the field every decided
workflow shares (``federation.decisions.Decided``): a rename, which changes only the catalogue, not a row."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0010_tournament_and_upload_sanction")]

    operations = [
        migrations.RenameField(model_name="touristapproval", old_name="reason", new_name="decision_reason"),
        migrations.AlterField(
            model_name="touristapproval",
            name="decision_reason",
            field=models.TextField(blank=True, verbose_name="reason for the decision"),
        ),
    ]
