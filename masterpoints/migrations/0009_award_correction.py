"""A correction's ledger rows name their request by a foreign key (it was a key inside ``explanation``)."""

import django.db.models.deletion
from django.db import migrations, models


def link_corrections(apps, schema_editor):
    """Move ``explanation["correction"]`` into ``correction``; the explanation keeps only the engine's words."""
    Award = apps.get_model("masterpoints", "Award")
    for award in Award.objects.filter(explanation__has_key="correction").only("pk", "explanation"):
        explanation = dict(award.explanation)
        request_id = explanation.pop("correction")
        Award.objects.filter(pk=award.pk).update(correction_id=request_id, explanation=explanation)


def unlink_corrections(apps, schema_editor):
    Award = apps.get_model("masterpoints", "Award")
    for award in Award.objects.filter(correction__isnull=False).only("pk", "explanation", "correction_id"):
        explanation = {**award.explanation, "correction": award.correction_id}
        Award.objects.filter(pk=award.pk).update(correction=None, explanation=explanation)


class Migration(migrations.Migration):
    dependencies = [
        ("masterpoints", "0008_lean_ledger_and_season_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="award",
            name="correction",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="entries",
                to="masterpoints.correctionrequest",
            ),
        ),
        migrations.RunPython(link_corrections, unlink_corrections),
    ]
