"""The foreign conversion factor is DBf points per foreign point (D-Q32, § 401B), no longer units per unit.

Only the help text changes; the stored factors are kept as the secretariat entered them (a factor reads as
points per point, as the table's rows were written). Awards already posted are not touched: the ledger is
append-only, and a wrong one is corrected by a new entry.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("masterpoints", "0011_foreign_points_token"),
    ]

    operations = [
        migrations.AlterField(
            model_name="foreignconversion",
            name="factor",
            field=models.DecimalField(
                decimal_places=6,
                help_text="DBf points per foreign point (§ 401B): at 0.5, 12 foreign points are 6 DBf points.",
                max_digits=12,
                verbose_name="factor",
            ),
        ),
    ]
