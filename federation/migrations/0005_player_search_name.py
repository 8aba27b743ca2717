"""The players' folded search key (``Player.search_name``, :mod:`federation.names`), filled for every player.

The name searches (rankings, home page) and the upload's name check compare folded names: "Jorgen" finds
"Jørgen" and "Dordevic" finds "Đorđević", which PostgreSQL's ``unaccent`` cannot do (it maps å to a and đ
to d, where a file writes aa and dj). The key is computed in Python, so the data step folds the existing
players' names here, in batches; the names themselves are not touched.

The search matches any part of the key (``LIKE '%…%'``): on PostgreSQL a trigram index on the column serves
it, as ``0003_player_name_search`` did for the two name columns, whose indexes no query reads any more and
are dropped (going back recreates them). The column's database default (empty) lets rows written without it,
by code that knows an earlier state of the table, be stored; they are found again once saved. The B-tree on (federation, key) serves SQLite and the exact
lookups of the upload's suggestions on both.
"""

from django.db import migrations, models

from federation.names import search_name

BATCH = 2000
OLD_INDEXES = {"player_first_name_trgm": "first_name", "player_last_name_trgm": "last_name"}


def fill(apps, schema_editor):
    Player = apps.get_model("federation", "Player")
    batch = []
    for player in Player.objects.only("pk", "first_name", "last_name").order_by("pk").iterator(chunk_size=BATCH):
        player.search_name = search_name(player.first_name, player.last_name)
        batch.append(player)
        if len(batch) == BATCH:
            Player.objects.bulk_update(batch, ["search_name"])
            batch = []
    Player.objects.bulk_update(batch, ["search_name"])


def trigram_index(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    schema_editor.execute(
        "CREATE INDEX IF NOT EXISTS player_search_name_trgm ON federation_player USING gin (search_name gin_trgm_ops)"
    )
    for name in OLD_INDEXES:
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


def trigram_index_drop(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("DROP INDEX IF EXISTS player_search_name_trgm")
    for name, column in OLD_INDEXES.items():
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {name} ON federation_player USING gin (UPPER({column}) gin_trgm_ops)"
        )


class Migration(migrations.Migration):
    dependencies = [("federation", "0004_outbox")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="search_name",
            field=models.CharField(
                blank=True, db_default="", default="", editable=False, max_length=201, verbose_name="name for searching"
            ),
        ),
        migrations.AddIndex(
            model_name="player",
            index=models.Index(fields=["federation", "search_name"], name="player_search_name"),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop, elidable=False),
        migrations.RunPython(trigram_index, trigram_index_drop, elidable=False),
    ]
