"""The standings' list indexes end with the player, the list's tie-break (key descending, then the player):
a page at any depth and the count of the rows above it are then read from the index alone, instead of
sorting and ranking the whole list (``masterpoints.public.placed.RankedRows``). Built concurrently on
PostgreSQL (``federation.online_migrations``): the standings stay writable meanwhile."""

from django.db import migrations, models

from federation.online_migrations import AddIndexOnline, RemoveIndexOnline

_STANDING = {"standing_fed_key": "sort_key", **{f"standing_fed_kind{n}": f"kind{n}" for n in (1, 2, 3)}}


class Migration(migrations.Migration):
    atomic = False
    dependencies = [("masterpoints", "0030_kinds_from_the_rule_books")]

    operations = [
        *(
            AddIndexOnline(
                model_name="standing",
                index=models.Index(fields=["federation", f"-{column}", "player"], name=f"{name}_player"),
            )
            for name, column in _STANDING.items()
        ),
        *(RemoveIndexOnline(model_name="standing", name=name) for name in _STANDING),
        AddIndexOnline(
            model_name="seasonstanding",
            index=models.Index(fields=["federation", "season", "-sort_key", "player"], name="season_fed_key_player"),
        ),
        RemoveIndexOnline(model_name="seasonstanding", name="season_fed_key"),
    ]
