"""A federation's scheme is one of the rule books registered with ``federation.schemes`` (their plugins), not a
fixed list: the choices are read from the registry. Choices live in Python only; no row or column changes."""

import federation.schemes
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("federation", "0008_player_search_name_transliterated")]

    operations = [
        migrations.AlterField(
            model_name="federation",
            name="scheme",
            field=models.CharField(
                choices=federation.schemes.scheme_choices, max_length=8, verbose_name="points scheme"
            ),
        ),
    ]
