"""The players' folded search key again, for names the folding now transliterates (issue 35: anyascii, so
that a name in Cyrillic or Greek, or with a letter such as ı or þ, is searched and compared, where it folded to
nothing or lost letters before). Only players with a letter outside ASCII are read, in batches, and only the
keys that change are written, each batch in its own transaction: the register stays writable throughout."""

from django.db import migrations

from federation.names import search_name

BATCH = 2000


def refold(apps, schema_editor):
    Player = apps.get_model("federation", "Player")
    outside_ascii = r"[^\x01-\x7f]"
    players = (
        Player.objects.filter(first_name__regex=outside_ascii) | Player.objects.filter(last_name__regex=outside_ascii)
    ).only("pk", "first_name", "last_name", "search_name")
    changed = []
    for player in players.order_by("pk").iterator(chunk_size=BATCH):
        key = search_name(player.first_name, player.last_name)
        if key != player.search_name:
            player.search_name = key
            changed.append(player)
        if len(changed) == BATCH:
            Player.objects.bulk_update(changed, ["search_name"])
            changed = []
    Player.objects.bulk_update(changed, ["search_name"])


class Migration(migrations.Migration):
    atomic = False
    dependencies = [("federation", "0007_jobrun_heartbeat")]

    operations = [migrations.RunPython(refold, migrations.RunPython.noop, elidable=True)]
