"""At most one current tournament per (federation, event key), by a constraint.

``is_current`` is False for every tournament a re-upload superseded. Where two confirmations of one new
event both became current (the race this constraint closes), the newest stays current and each older one's
result awards are reversed by new ledger rows, as a re-upload would have done (the nightly standings
rebuild then shows the corrected balances)."""

from django.db import migrations, models
from django.db.models import Count, Q

REASON = "duplicate confirmation of the same event: one current version per event"


def mark_superseded(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Award = apps.get_model("masterpoints", "Award")
    Tournament.objects.filter(superseded_by__isnull=False).update(is_current=False)
    doubled = (
        Tournament.objects.filter(is_current=True)
        .values("federation_id", "event_key")
        .annotate(n=Count("pk"))
        .filter(n__gt=1)
    )
    for row in doubled:
        versions = Tournament.objects.filter(
            is_current=True, federation_id=row["federation_id"], event_key=row["event_key"]
        ).order_by("-created_at", "-pk")
        for older in versions[1:]:
            for award in Award.objects.filter(tournament=older, source="result", reversed_by__isnull=True):
                Award.objects.create(
                    federation_id=award.federation_id,
                    player_id=award.player_id,
                    kind=award.kind,
                    units=-award.units,
                    source="reversal",
                    tournament=older,
                    part=award.part,
                    place_first=award.place_first,
                    place_last=award.place_last,
                    reason=REASON,
                    reverses=award,
                    awarded_on=award.awarded_on,
                )
            Tournament.objects.filter(pk=older.pk).update(is_current=False)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0004_tournament_file_info"),
        ("masterpoints", "0010_transition_credit"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="is_current",
            field=models.BooleanField(default=True, verbose_name="current"),
        ),
        migrations.RunPython(mark_superseded, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.UniqueConstraint(
                condition=Q(("is_current", True)),
                fields=("federation", "event_key"),
                name="tournament_one_current_per_event",
                violation_error_message="Another upload of this event is already the current version.",
            ),
        ),
    ]
