"""Rules 1 and 3 of the HBS transition record their once-per-player credit in a table of its own (they
found earlier credits by the text of ``Award.part`` before)."""

import django.db.models.deletion
from django.db import migrations, models


#: The labels the transition imports wrote into ``Award.part`` (rule 3 adds the category's name).
OPENING_PART = "transition rule 1: opening black points"
HELD_1991_PART = "transition rule 3: 1991 category"


def credits_from_parts(apps, schema_editor):
    Award = apps.get_model("masterpoints", "Award")
    TransitionCredit = apps.get_model("masterpoints", "TransitionCredit")
    entries = Award.objects.filter(source="transition").order_by("pk")
    for rule, awards in (
        ("opening", entries.filter(part=OPENING_PART)),
        ("held_1991", entries.filter(part__startswith=HELD_1991_PART)),
    ):
        for award in awards:
            credit, _created = TransitionCredit.objects.get_or_create(
                player_id=award.player_id, rule=rule, defaults={"federation_id": award.federation_id}
            )
            credit.awards.add(award)


class Migration(migrations.Migration):
    dependencies = [
        ("federation", "0003_player_name_search"),
        ("masterpoints", "0009_award_correction"),
    ]

    operations = [
        migrations.CreateModel(
            name="TransitionCredit",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "rule",
                    models.CharField(
                        choices=[
                            ("opening", "rule 1: opening black points"),
                            ("held_1991", "rule 3: category held in 1991"),
                        ],
                        max_length=12,
                        verbose_name="rule",
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("awards", models.ManyToManyField(blank=True, related_name="+", to="masterpoints.award")),
                (
                    "federation",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to="federation.federation"
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="transition_credits",
                        to="federation.player",
                    ),
                ),
            ],
            options={
                "verbose_name": "transition credit",
                "verbose_name_plural": "transition credits",
                "constraints": [models.UniqueConstraint(fields=("player", "rule"), name="transition_credit_once")],
            },
        ),
        migrations.RunPython(credits_from_parts, migrations.RunPython.noop),
    ]
