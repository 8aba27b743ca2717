"""The preview page's stored summary on the upload (``masterpoints.uploads.summary``): built once per
fingerprint of what it depends on, instead of parsing and computing the file on every visit. Empty for the
uploads stored so far; their first visit builds it."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0005_tournament_one_current_per_event"),
    ]

    operations = [
        migrations.AddField(
            model_name="resultupload",
            name="preview_summary",
            field=models.JSONField(blank=True, default=dict, editable=False, verbose_name="preview summary"),
        ),
        migrations.AddField(
            model_name="resultupload",
            name="preview_fingerprint",
            field=models.CharField(blank=True, editable=False, max_length=64, verbose_name="preview fingerprint"),
        ),
        migrations.AddField(
            model_name="resultupload",
            name="preview_built_at",
            field=models.DateTimeField(blank=True, editable=False, null=True, verbose_name="preview built"),
        ),
    ]
