"""History brought in (issue 38, part 3): opening balances and titles as of a date and historic awards, as
opening entries of the ledger: a dry run, one transaction, idempotent, audited, the titles' dates kept, and
never points won in a season."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management import call_command
from django.db.models import Sum

from bench._history_files import history_files
from federation.models import AuditEvent, Player
from masterpoints.history.services import history_import
from masterpoints.models import Award, SeasonStanding, Standing, TitleAchievement
from masterpoints.standings.ladders import LadderBook
from masterpoints.standings.services import standings_rebuild
from tests.factories import post_award

pytestmark = pytest.mark.django_db

AS_OF = datetime.date(2025, 5, 15)


def _ladder_titles(federation, count: int = 3) -> list[tuple[str, int]]:
    return [(rung.title, rung.stars) for rung in LadderBook(federation).on(AS_OF).rungs[:count]]


def test_a_small_history_is_brought_in_as_opening_entries_idempotently(world, personas):
    post_award(world.player, "BP", 50, day=datetime.date(2025, 9, 1))  # entered on the site since: stays
    title, stars = _ladder_titles(world.dbf)[0]
    balances = b"number;kind;points\n12345;BP;300\n12345;SP;12.5\n"
    titles = f"number;title;stars;reached_on\n12345;{title};{stars};2003-04-05\n".encode()
    awards = (
        b"number;date;tournament;kind;points\n12345;2001-02-03;Gammel Cup;BP;40\n12345;2001-02-03;Gammel Cup;BP;40\n"
    )
    files = {"balances": balances, "titles": titles, "awards": awards}

    dry = history_import(actor=personas.secretariat, federation=world.dbf, as_of=AS_OF, dry_run=True, **files)
    assert (dry.awards_posted, dry.balances_posted, dry.titles_registered) == (2, 2, 1)
    assert not Award.objects.filter(source="opening").exists() and not TitleAchievement.objects.exists()

    report = history_import(actor=personas.secretariat, federation=world.dbf, as_of=AS_OF, dry_run=False, **files)
    assert report.figures() == dry.figures()  # the dry run said what the import did
    opening = Award.objects.filter(source="opening", player=world.player)
    assert sorted(opening.values_list("kind", "units", "awarded_on", "reason")) == [
        ("BP", 40, datetime.date(2001, 2, 3), "Gammel Cup"),
        ("BP", 40, datetime.date(2001, 2, 3), "Gammel Cup"),
        ("BP", 220, AS_OF, "opening balance as of 2025-05-15, from the old system"),
        ("SP", 125, AS_OF, "opening balance as of 2025-05-15, from the old system"),
    ]
    standing = Standing.objects.get(player=world.player)
    assert (standing.points("BP"), standing.points("SP")) == (
        350,
        125,
    )  # the old system's 300 BP and 12.5 SP, and 50 BP since
    achievement = TitleAchievement.objects.get(player=world.player, title=title)
    assert achievement.reached_on == datetime.date(2003, 4, 5) and achievement.announced_at is not None
    # Never points won in a season: the seasons hold the 50 BP of the site only.
    assert list(SeasonStanding.objects.filter(player=world.player, season__gt=0).values_list("kind1", "kind2")) == [
        (50, 0)
    ]
    event = AuditEvent.objects.get(action="history.import")
    assert event.actor == personas.secretariat and set(event.payload["sha256"]) == {"balances", "titles", "awards"}

    again = history_import(actor=personas.secretariat, federation=world.dbf, as_of=AS_OF, dry_run=False, **files)
    assert (again.awards_posted, again.balances_posted, again.titles_registered) == (0, 0, 0)
    assert (again.awards_already, again.balances_already, again.titles_already) == (2, 2, 1)
    assert opening.count() == 4


def test_a_bad_history_writes_nothing_and_names_file_and_line(world, personas):
    bad = b"number;date;tournament;kind;points\n12345;2001-02-03;Cup;XP;4\n99999;2001-02-03;Cup;BP;4\n"
    with pytest.raises(ValidationError, match="awards, line 2"):
        history_import(actor=None, federation=world.dbf, as_of=AS_OF, awards=bad, dry_run=False)
    unknown = b"number;kind;points\n99999;BP;4\n"
    with pytest.raises(ValidationError, match="balances, line 2: no player of the register has the number 99999"):
        history_import(actor=None, federation=world.dbf, as_of=AS_OF, balances=unknown, dry_run=False)
    title = b"number;title;stars;reached_on\n12345;Verdensmester;0;2001-01-01\n"
    with pytest.raises(ValidationError, match="titles, line 2: Verdensmester is no title"):
        history_import(actor=None, federation=world.dbf, as_of=AS_OF, titles=title, dry_run=False)
    with pytest.raises(PermissionDenied):
        history_import(actor=_someone(), federation=world.dbf, as_of=AS_OF, balances=unknown)
    assert not Award.objects.exists() and not AuditEvent.objects.filter(action="history.import").exists()


def _someone():
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("someone", "s@example.com", "pw")


def test_the_command_is_a_dry_run_unless_told_to_apply(world, tmp_path, capsys):
    path = tmp_path / "balances.csv"
    path.write_bytes(b"number;kind;points\n12345;BP;300\n")
    call_command("import_history", "--federation", "dbf", "--as-of", "2025-05-15", "--balances", str(path))
    assert "balances_posted=1" in capsys.readouterr().out and not Award.objects.exists()
    call_command("import_history", "--federation", "dbf", "--as-of", "2025-05-15", "--balances", str(path), "--apply")
    assert Award.objects.get().units == 300


def test_a_generated_history_of_25000_players_equals_the_old_systems_totals_and_a_second_run_changes_nothing(world):
    numbers = [str(100000 + index) for index in range(25_000)]
    Player.objects.bulk_create(
        [Player(federation=world.dbf, number=number, first_name="Old", last_name=number) for number in numbers],
        batch_size=5000,
    )
    history = history_files(numbers=numbers, awards=200_000, titles=_ladder_titles(world.dbf), as_of=AS_OF)
    files = {"balances": history.balances, "titles": history.titles, "awards": history.awards}

    report = history_import(actor=None, federation=world.dbf, as_of=AS_OF, dry_run=False, **files)

    assert report.awards_posted == 200_000 and report.titles_registered == len(history.held)
    ids = dict(Player.objects.filter(federation=world.dbf).values_list("pk", "number"))
    standings = {
        ids[pk]: (bp, sp, gp) for pk, bp, sp, gp in Standing.objects.values_list("player", "kind1", "kind2", "kind3")
    }
    expected = {n: tuple(history.totals[(n, kind)] for kind in ("BP", "SP", "GP")) for n in numbers}
    assert {n: standings.get(n, (0, 0, 0)) for n in numbers} == expected
    assert Award.objects.filter(source="opening").aggregate(total=Sum("units"))["total"] == sum(history.totals.values())
    rows = TitleAchievement.objects.values_list("player", "title", "stars", "reached_on")
    registered = {(ids[pk], title, stars, day) for pk, title, stars, day in rows}
    assert {(n, *held) for n, held in history.held.items()} <= registered  # the old system's title dates kept
    assert not SeasonStanding.objects.filter(season__gt=0).exists()  # never points won in a season

    count, before = Award.objects.count(), list(Standing.objects.order_by("pk").values_list())
    again = history_import(actor=None, federation=world.dbf, as_of=AS_OF, dry_run=False, **files)
    assert (again.awards_posted, again.balances_posted, again.titles_registered) == (0, 0, 0)
    assert Award.objects.count() == count and list(Standing.objects.order_by("pk").values_list()) == before
    standings_rebuild(federation=world.dbf)  # the rebuild from the ledger agrees with the import's standings
    assert list(Standing.objects.order_by("pk").values_list()) == before
