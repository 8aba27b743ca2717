"""The folded names (federation.names) and the players' stored search key (Player.search_name).

The register identifies a player by number (HBS rule 1, "Svaki igrač identificira se svojim matičnim
brojem"; DBf § 451B, the secretariat's central register); the folded name is how that register is searched
and how a file's name is compared with it (issue 17: "Jorgen" finds "Jørgen", "Dordevic" finds "Đorđević").
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from federation.models import Player
from federation.names import fold_name, search_name


@pytest.mark.parametrize(
    ("letter", "spellings"),
    [
        ("ø", ["o", "oe", "Ø", "O", "OE"]),
        ("æ", ["ae", "Æ", "AE"]),
        ("å", ["aa", "a", "Å", "AA"]),
        ("č", ["c", "ć", "Č", "Ć"]),
        ("ć", ["c", "č"]),
        ("đ", ["dj", "d", "Đ", "DJ"]),
        ("š", ["s", "Š"]),
        ("ž", ["z", "Ž"]),
    ],
    ids=["o-slash", "ae", "a-ring", "c-caron", "c-acute", "d-stroke", "s-caron", "z-caron"],
)
def test_each_danish_and_croatian_letter_folds_with_the_ways_files_write_it(letter, spellings):
    """Issue 17 folding table: ø/o/oe, æ/ae, å/aa/a, č/ć/c, đ/dj/d, š/s, ž/z, case folded."""
    for spelling in spellings:
        assert fold_name(f"x{letter}x") == fold_name(f"x{spelling}x"), spelling


@pytest.mark.parametrize(
    ("written", "registered"),
    [
        ("Jorgen", "Jørgen"),
        ("Joergen", "Jørgen"),
        ("SØREN", "Søren"),
        ("Dordevic", "Đorđević"),
        ("Djordjevic", "Đorđević"),
        ("Aase", "Åse"),
        ("Maehle", "Mæhle"),
        ("Hansen-Moller", "Hansen Møller"),
        ("René", "Rene"),
    ],
)
def test_names_as_files_and_keyboards_write_them_fold_to_the_registers(written, registered):
    assert fold_name(written) == fold_name(registered)


def test_words_are_separated_by_single_spaces_and_punctuation_goes():
    assert fold_name("  Hans-Jørgen  J. Ølgaard ") == "hans jorgen j olgard"  # "aa" is å
    assert search_name("Ana", "Babić") == "ana babic"


def test_the_search_key_follows_the_names_on_save_and_on_save_of_the_names_only(world):
    player = Player.objects.create(federation=world.dbf, number="1", first_name="Jørgen", last_name="Ærø")
    assert Player.objects.get(pk=player.pk).search_name == "jorgen aero"
    player.last_name = "Đorđević"
    player.save(update_fields=["last_name"])
    assert Player.objects.get(pk=player.pk).search_name == "jorgen dordevic"


def test_players_written_in_bulk_carry_their_search_key(world):
    Player.objects.bulk_create([Player(federation=world.dbf, number="2", first_name="Søren", last_name="Å")])
    player = Player.objects.get(number="2")
    assert player.search_name == "soren a"
    player.first_name = "Šime"
    Player.objects.bulk_update([player], ["first_name"])
    assert Player.objects.get(number="2").search_name == "sime a"
    Player.objects.filter(number="2").update(last_name="Žužić")
    assert Player.objects.get(number="2").search_name == "sime zuzic"


@pytest.mark.django_db(transaction=True)
def test_the_data_migration_folds_the_names_of_existing_players_and_keeps_them():
    executor = MigrationExecutor(connection)
    executor.migrate([("federation", "0004_outbox")])
    executor.loader.build_graph()
    apps = executor.loader.project_state([("federation", "0004_outbox")]).apps
    federation = apps.get_model("federation", "Federation").objects.create(
        name="HBS", code="hbs", scheme="hbs", default_language="hr"
    )
    apps.get_model("federation", "Player").objects.create(
        federation=federation, number="7", first_name="Đuro", last_name="Kovačić"
    )
    executor = MigrationExecutor(connection)
    executor.migrate([("federation", "0005_player_search_name")])
    executor.loader.build_graph()
    apps = executor.loader.project_state([("federation", "0005_player_search_name")]).apps
    player = apps.get_model("federation", "Player").objects.get(number="7")
    assert (player.first_name, player.last_name, player.search_name) == ("Đuro", "Kovačić", "duro kovacic")
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
