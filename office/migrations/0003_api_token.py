"""API tokens of clubs and regions for the upload API (stored as SHA-256 digests; one organiser each)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0003_club_founding_year"),
        ("federation", "0004_outbox"),
        ("office", "0002_officer_table"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ApiToken",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "name",
                    models.CharField(
                        help_text="Which program or computer uses it.", max_length=100, verbose_name="name"
                    ),
                ),
                ("prefix", models.CharField(max_length=16, verbose_name="starts with")),
                ("digest", models.CharField(max_length=64, unique=True)),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="made")),
                ("last_used_at", models.DateTimeField(blank=True, null=True, verbose_name="last used")),
                ("revoked_at", models.DateTimeField(blank=True, null=True, verbose_name="revoked")),
                (
                    "club",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="api_tokens",
                        to="clubs.club",
                    ),
                ),
                (
                    "created_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="api_tokens_created",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="made by",
                    ),
                ),
                (
                    "federation",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="api_tokens",
                        to="federation.federation",
                    ),
                ),
                (
                    "region",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="api_tokens",
                        to="federation.region",
                    ),
                ),
                (
                    "revoked_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="api_tokens_revoked",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="revoked by",
                    ),
                ),
            ],
            options={
                "verbose_name": "API token",
                "verbose_name_plural": "API tokens",
                "ordering": ["-created_at", "-pk"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("club__isnull", False), ("region__isnull", True)),
                            models.Q(("club__isnull", True), ("region__isnull", False)),
                            _connector="OR",
                        ),
                        name="api_token_one_organiser",
                        violation_error_message="An API token acts for one club or one region.",
                    )
                ],
            },
        ),
    ]
