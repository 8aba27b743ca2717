"""Issue 35: the migration that refolds the players' search keys for the transliterating fold."""

from __future__ import annotations

import importlib

from django.apps import apps

from federation.models import Player

refold = importlib.import_module("federation.migrations.0008_player_search_name_transliterated").refold


def test_names_outside_ascii_get_their_transliterated_key_and_the_rest_are_untouched(world):
    cyrillic = Player.objects.create(federation=world.dbf, number="70001", first_name="Иван", last_name="Петров")
    plain = Player.objects.create(federation=world.dbf, number="70002", first_name="Ole", last_name="Hansen")
    Player.objects.filter(pk=cyrillic.pk).update(search_name="")
    Player.objects.filter(pk=plain.pk).update(search_name="kept as it was")
    refold(apps, None)
    assert Player.objects.get(pk=cyrillic.pk).search_name == "ivan petrov"
    assert Player.objects.get(pk=plain.pk).search_name == "kept as it was", "an ASCII name is not read"
