"""A tournament records its playing time (§ 452A); existing club tournaments take the one active playing time
of their club on their weekday, and stay without one where the weekday has none or several."""

import django.db.models.deletion
from django.db import migrations, models


def backfill(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    PlayingTime = apps.get_model("clubs", "PlayingTime")
    by_club_day = {}
    for pt in PlayingTime.objects.filter(active=True).only("pk", "club_id", "weekday"):
        by_club_day.setdefault((pt.club_id, pt.weekday), []).append(pt.pk)
    for tournament in Tournament.objects.filter(club__isnull=False).only("pk", "club_id", "date").iterator():
        times = by_club_day.get((tournament.club_id, tournament.date.weekday()), [])
        if len(times) == 1:
            Tournament.objects.filter(pk=tournament.pk).update(playing_time_id=times[0])


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0002_officer_moved_to_office'),
        ('tournaments', '0006_resultupload_preview_summary'),
    ]

    operations = [
        migrations.AddField(
            model_name='tournament',
            name='playing_time',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='tournaments', to='clubs.playingtime', verbose_name='playing time'),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
