"""An upload and its tournament record the sanction their SP or GP came from, and a sanction pays one current
tournament (DBf § 403B1, § 403B7, D-Q24).

Existing tournaments are linked where the rule is unambiguous now: each sanction to the earliest confirmed
current club tournament of its club, category and dates that no automatic right paid (§ 403A: simultaneous
events, top-16). Others the same sanction paid before keep their tournament and awards (the ledger is
append-only) but stay unlinked; nothing is deleted.
"""

import django.db.models.deletion
from django.db import migrations, models


AUTOMATIC = ("simultaneous", "top16")


def link_sanctions(apps, schema_editor):
    Sanction = apps.get_model("tournaments", "Sanction")
    Tournament = apps.get_model("tournaments", "Tournament")
    ResultUpload = apps.get_model("tournaments", "ResultUpload")
    for sanction in Sanction.objects.order_by("granted_at", "pk").iterator():
        candidates = Tournament.objects.filter(
            is_current=True,
            sanction__isnull=True,
            club_id=sanction.club_id,
            category=sanction.category,
            date__range=(sanction.date, sanction.end_date),
        ).order_by("created_at", "pk")
        for tournament in candidates:
            upload = ResultUpload.objects.filter(pk=tournament.upload_id).first()
            if upload is not None and upload.facts.get("special") in AUTOMATIC:
                continue
            Tournament.objects.filter(pk=tournament.pk).update(sanction_id=sanction.pk)
            if upload is not None:
                ResultUpload.objects.filter(pk=upload.pk).update(sanction_id=sanction.pk)
            break


class Migration(migrations.Migration):

    dependencies = [
        ('federation', '0004_outbox'),
        ('tournaments', '0009_simultaneous_event'),
    ]

    operations = [
        migrations.AddField(
            model_name='resultupload',
            name='sanction',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='uploads', to='tournaments.sanction', verbose_name='sanction'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='sanction',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='tournaments', to='tournaments.sanction', verbose_name='sanction'),
        ),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.UniqueConstraint(condition=models.Q(('is_current', True), ('sanction__isnull', False)), fields=('sanction',), name='tournament_one_current_per_sanction', violation_error_message='The sanction already pays another tournament (§ 403B1, § 403B7).'),
        ),
        migrations.RunPython(link_sanctions, migrations.RunPython.noop),
    ]
