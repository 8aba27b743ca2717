"""Move every award's explanation into the explanation tables (issue 16), in batches of the ledger's order.

Each batch's awards are split per (tournament, part), as the ledger posts them; an award's explanation is
rebuilt by ``masterpoints.explanation_store.join`` exactly as it was stored. Empty explanations stay
``NULL``. Runs on SQLite and PostgreSQL; the reverse writes each explanation back.
"""

from django.db import migrations

from masterpoints.explanation_store import join, store

BATCH = 5000
#: Primary keys per UPDATE (well below SQLite's bound parameters).
CHUNK = 500


def _batches(Award, *fields):
    last = 0
    while True:
        rows = list(Award.objects.filter(pk__gt=last).order_by("pk").values_list("pk", *fields)[:BATCH])
        if not rows:
            return
        yield rows
        last = rows[-1][0]


def move_explanations(apps, schema_editor):
    Award = apps.get_model("masterpoints", "Award")
    AwardScale = apps.get_model("masterpoints", "AwardScale")
    AwardExplanation = apps.get_model("masterpoints", "AwardExplanation")
    for rows in _batches(Award, "tournament_id", "part", "explanation"):
        given = [(pk, (tournament, part), explanation) for pk, tournament, part, explanation in rows if explanation]
        refs = store(AwardScale, AwardExplanation, [(group, explanation) for _pk, group, explanation in given])
        by_ref: dict[int, list[int]] = {}
        for (pk, _group, _explanation), ref in zip(given, refs, strict=True):
            by_ref.setdefault(ref, []).append(pk)
        for ref, pks in by_ref.items():
            for start in range(0, len(pks), CHUNK):
                Award.objects.filter(pk__in=pks[start : start + CHUNK]).update(explanation_ref_id=ref)


def restore_explanations(apps, schema_editor):
    Award = apps.get_model("masterpoints", "Award")
    AwardExplanation = apps.get_model("masterpoints", "AwardExplanation")
    for rows in _batches(Award, "explanation_ref_id"):
        by_ref: dict[int, list[int]] = {}
        for pk, ref in rows:
            if ref is not None:
                by_ref.setdefault(ref, []).append(pk)
        stored = AwardExplanation.objects.select_related("scale").in_bulk(list(by_ref))
        for ref, pks in by_ref.items():
            explanation = join(stored[ref].scale.data, stored[ref].own)
            for start in range(0, len(pks), CHUNK):
                chunk = pks[start : start + CHUNK]
                Award.objects.filter(pk__in=chunk).update(explanation=explanation, explanation_ref_id=None)


class Migration(migrations.Migration):
    dependencies = [
        ("masterpoints", "0018_award_explanation_store"),
    ]

    operations = [
        migrations.RunPython(move_explanations, restore_explanations),
    ]
