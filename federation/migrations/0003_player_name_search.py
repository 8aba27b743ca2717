"""Trigram indexes for the name search of the public rankings (PostgreSQL only).

The search matches any part of a first or last name (``icontains``: ``UPPER(name) LIKE UPPER('%…%')``),
which a B-tree cannot serve: without these indexes every search reads the whole register. ``pg_trgm`` is a
trusted extension (PostgreSQL 13+), so the database owner may create it. SQLite has no such index; its
registers are small.
"""

from django.db import migrations

INDEXES = {
    "player_first_name_trgm": "first_name",
    "player_last_name_trgm": "last_name",
}


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    for name, column in INDEXES.items():
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {name} ON federation_player USING gin (UPPER({column}) gin_trgm_ops)"
        )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name in INDEXES:
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):
    dependencies = [("federation", "0002_player_listed_on_request")]

    operations = [migrations.RunPython(create, drop, elidable=False)]
