"""The first answer to each write call of the upload API, once per token and Idempotency-Key."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("office", "0003_api_token"),
    ]

    operations = [
        migrations.CreateModel(
            name="IdempotentCall",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("key", models.CharField(max_length=100, verbose_name="idempotency key")),
                ("request_digest", models.CharField(max_length=64)),
                ("status", models.PositiveSmallIntegerField()),
                ("response", models.JSONField()),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "token",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="calls", to="office.apitoken"
                    ),
                ),
            ],
            options={
                "verbose_name": "idempotent API call",
                "verbose_name_plural": "idempotent API calls",
                "constraints": [
                    models.UniqueConstraint(fields=("token", "key"), name="api_call_once_per_token_and_key")
                ],
            },
        ),
    ]
