"""The member register import (``office.register``; issue 17): dry run, apply, idempotency, lapsing instead of
deleting (DBf § 451B and D-Q37; HBS rule 3 and H-20), bad rows named by line and column with nothing
written, the bounds, XLSX, officers, and the command."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management import CommandError, call_command

from clubs.models import Club, ClubMembership
from federation.models import AuditEvent, Player
from masterpoints.models import Award
from office.models import Officer
from office.register import reader
from office.register.services import register_import
from tests.factories import post_award
from tests.office.register.files import TODAY, base_rows, csv_file, row, xlsx_file


def run(world, data: bytes, *, dry_run: bool = False, actor=None, today: datetime.date = TODAY, sync: bool = False):
    """The import in add-and-update mode, or (``sync``) a full sync confirmed as its dry run's summary shows it."""
    mode = "sync" if sync else "add"
    confirm = None
    if sync and not dry_run:
        checked = register_import(actor=actor, federation=world.dbf, data=data, dry_run=True, today=today, mode=mode)
        confirm = checked.ends
    return register_import(
        actor=actor, federation=world.dbf, data=data, dry_run=dry_run, today=today, mode=mode, confirm_ends=confirm
    )


def snapshot():
    """Everything an import may write, to show that a refused or dry run wrote nothing."""
    return (
        list(Player.objects.order_by("pk").values()),
        list(Club.objects.order_by("pk").values()),
        list(ClubMembership.objects.order_by("pk").values()),
        list(Officer.objects.order_by("pk").values()),
        AuditEvent.objects.count(),
    )


def test_a_dry_run_lists_what_would_be_added_and_changed_row_by_row_and_writes_nothing(world):
    """Issue 17: the dry run shows what would be added, changed and ended, row by row (with the file's line
    and the fields before and after), and writes nothing."""
    before = snapshot()
    plan = run(world, csv_file(*base_rows()), dry_run=True)
    assert snapshot() == before
    counts = plan.counts()
    assert counts["player"] == {"add": 2, "change": 0, "end": 0}
    assert counts["club"] == {"add": 0, "change": 1, "end": 0}  # club A gets its e-mail
    assert counts["membership"] == {"add": 2, "change": 0, "end": 0}
    soren = next(change for change in plan.of("player", "add") if change.key == "20001")
    assert soren.line == 5
    assert ("dues_paid_until", None, "2025-12-31") in soren.fields
    assert ("birth_year", None, 1961) in soren.fields
    club_a = plan.of("club", "change")[0]
    assert (club_a.line, club_a.fields) == (2, [("email", "", "a@example.org")])
    assert plan.unchanged == 3  # club B, player 12345, the membership 12345 @ 1001
    assert plan.left_alone == ["officer"]


def test_applying_writes_every_change_with_one_audit_row_each(world):
    """Issue 17: applying writes the plan in one transaction with one audit row per change."""
    plan = run(world, csv_file(*base_rows()))
    soren = Player.objects.get(federation=world.dbf, number="20001")
    assert (soren.first_name, soren.last_name, soren.email, soren.birth_year) == (
        "Søren",
        "Ærø",
        "soren@example.org",
        1961,
    )
    assert soren.dues_paid_until == datetime.date(2025, 12, 31)
    assert Player.objects.get(number="20002").dues_paid_until == datetime.date(2025, 12, 31)
    home = ClubMembership.objects.get(player=soren)
    assert (home.club, home.since, home.is_home) == (world.club_b, datetime.date(2020, 9, 1), True)
    # 20002 marked no home club: the first current membership of the file is the home club.
    assert ClubMembership.objects.get(player__number="20002").is_home is True
    assert Club.objects.get(pk=world.club_a.pk).email == "a@example.org"
    events = AuditEvent.objects.filter(action__startswith="register.")
    assert events.count() == len(plan.changes) == 5
    event = events.get(action="register.player.add", target_id=str(soren.pk))
    assert event.payload["line"] == 5 and event.payload["fields"]["first_name"] == [None, "Søren"]


def test_the_same_file_twice_changes_nothing_the_second_time(world):
    """Issue 17: the import is idempotent — the same file a second time plans and writes no change."""
    data = csv_file(*base_rows(), row("club", club="1003", name="Ny klub"))
    first = run(world, data)
    assert first.changes
    before = snapshot()
    second = run(world, data)
    assert second.changes == [] and snapshot() == before
    assert second.unchanged == len(base_rows()) + 1
    # Also on a later day: what the first import ended stays ended, nothing is ended again.
    assert run(world, data, today=TODAY + datetime.timedelta(days=40)).changes == []


def test_a_member_missing_from_the_file_is_lapsed_never_deleted_and_keeps_the_awards(world):
    """DBf § 451B ("medregnes eventuelle tidligere registrerede MP automatisk", D-Q37), HBS rule 3 (H-20): a
    member the register no longer holds is marked lapsed; the player, the awards and the ended membership
    stay, and the points count again when the member returns."""
    award = post_award(world.player, "BP", 40)
    rows = [cells for cells in base_rows() if "12345" not in cells]
    plan = run(world, csv_file(*rows), sync=True)
    player = Player.objects.get(pk=world.player.pk)
    assert player.status == Player.Status.LAPSED
    assert Award.objects.filter(pk=award.pk, player=player).exists()
    membership = ClubMembership.objects.get(player=player)
    assert (membership.until, membership.is_home) == (TODAY, False)
    lapse = plan.of("player", "end")[0]
    assert (lapse.key, lapse.line, lapse.fields) == ("12345", None, [("status", "member", "lapsed")])
    assert AuditEvent.objects.filter(action="register.player.end", target_id=str(player.pk)).count() == 1
    assert AuditEvent.objects.filter(action="register.membership.end").count() == 1
    # Back in the register: a member again, under the same number, with the same awards.
    run(world, csv_file(*base_rows()))
    assert Player.objects.get(pk=player.pk).status == Player.Status.MEMBER
    assert Award.objects.filter(player=player).count() == 1


def test_guests_and_a_kind_the_file_has_no_rows_of_are_left_as_they_are(world):
    """A member register holds no guests; a file without club rows ends no club, one without membership rows
    ends no membership (static/register-templates/README.md)."""
    guest = Player.objects.create(federation=world.dbf, number="99", first_name="G", last_name="Guest", status="guest")
    plan = run(world, csv_file(row("player", number="12345", first_name="Karen", last_name="Jensen")))
    assert plan.changes == []
    assert Player.objects.get(pk=guest.pk).status == "guest"
    assert Club.objects.filter(active=True).count() == 3
    assert set(plan.left_alone) == {"club", "membership", "officer"}


def test_a_club_the_file_no_longer_holds_becomes_inactive_and_a_home_club_moves(world):
    """Ending a club (inactive, not deleted); a player's home club moving from A to B in one import keeps the
    rule of one home club per player (a constraint) after every statement."""
    rows = [
        row("club", club="1002", name="Bridgeklubben B"),
        row("player", number="12345", first_name="Karen", last_name="Jensen"),
        row("membership", number="12345", club="1002", home="yes"),
    ]
    plan = run(world, csv_file(*rows), sync=True)
    assert Club.objects.get(pk=world.club_a.pk).active is False
    assert [change.key for change in plan.of("club", "end")] == ["1001"]
    homes = ClubMembership.objects.filter(player=world.player, is_home=True)
    assert [membership.club for membership in homes] == [world.club_b]
    assert ClubMembership.objects.get(player=world.player, club=world.club_a).until == TODAY


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        ({"birth_year": "1850"}, "line 5, column birth_year (F): 1850 is not a year from 1900 to 2025."),
        ({"dues_paid_until": "2025-13-01"}, "line 5, column dues_paid_until (H): 2025-13-01 is not a date"),
        ({"dues_paid_until": "2101-01-01"}, "line 5, column dues_paid_until (H): 2101-01-01 is not a date"),
        ({"email": "not-an-address"}, "line 5, column email (E): not-an-address is not an e-mail address."),
        ({"first_name": "x" * 101}, "line 5, column first_name (C): 101 characters; at most 100."),
        ({"first_name": ""}, "line 5, column first_name (C): a player row needs a value here."),
        ({"status": "honorary"}, "line 5, column status (G): honorary is not one of member, guest, lapsed."),
        ({"number": "12 345"}, "line 5, column number (B): 12 345 is not a number"),
        ({"number": "12345"}, "line 5, column number (B): 12345 is already on line 4."),
        ({"club": "1001"}, "line 5, column club (I): a player row leaves this column empty (found 1001)."),
    ],
)
def test_a_bad_row_names_its_line_and_column_and_nothing_is_written(world, cells, message):
    """Issue 17: bad rows name their line and column and stop the import; nothing is written (every number
    from outside is bounded: lengths, dates 1900–2100, birth years up to this year)."""
    rows = base_rows()
    base = dict(zip(reader.COLUMNS, rows[3], strict=True))
    rows[3] = row("player", **{**{k: v for k, v in base.items() if k != "record" and v}, **cells})
    before = snapshot()
    with pytest.raises(ValidationError) as refused:
        run(world, csv_file(*rows))
    assert any(text.startswith(message) for text in refused.value.messages), refused.value.messages
    assert snapshot() == before


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (row("membership", number="30000", club="1001"), "line 10, column number (B): no player row"),
        (row("membership", number="20002", club="7777"), "line 10, column club (I): the club 7777 is neither"),
        (row("membership", number="20001", club="1001", home="1"), "line 10, column home (M): player 20001 already"),
        (
            row("membership", number="20002", club="1002", since="2025-01-02", until="2024-01-01"),
            "line 10, column until",
        ),
        (row("officer", number="20001", role="region_officer", region="atlantis"), "line 10, column region (O)"),
        (row("officer", number="20001", role="president", club="1001"), "line 10, column role (N): president"),
        (row("member", number="20001"), "line 10, column record (A): member is not a record"),
    ],
)
def test_a_bad_link_between_rows_is_named_and_nothing_is_written(world, extra, message):
    """A membership or office names a player row of the file and a club or region that exists; one home club
    per player; a membership does not end before it starts."""
    before = snapshot()
    with pytest.raises(ValidationError) as refused:
        run(world, csv_file(*base_rows(), extra), dry_run=True)
    assert any(text.startswith(message) for text in refused.value.messages), refused.value.messages
    assert snapshot() == before


def test_the_file_is_bounded_before_it_is_read(world, monkeypatch):
    """Bounds: the file's size, the number of rows, a cell's length, and the header of the layout."""
    with pytest.raises(ValidationError, match="at most 20 MB"):
        run(world, b"x" * (reader.MAX_BYTES + 1))
    monkeypatch.setattr(reader, "MAX_ROWS", 3)
    with pytest.raises(ValidationError, match="more than 3 rows"):
        run(world, csv_file(*base_rows()))
    with pytest.raises(ValidationError, match="column email \\(E\\): the value has 300 characters; at most 254"):
        run(world, csv_file(row("player", number="1", first_name="A", last_name="B", email="a" * 300)))
    with pytest.raises(ValidationError, match="lacks the columns region"):
        run(world, csv_file().replace(b";region", b""))
    with pytest.raises(ValidationError, match="neither UTF-8 text nor an XLSX"):
        run(world, "record;Søren".encode("cp1252"))


def test_an_xlsx_file_gives_the_same_import_as_the_csv(world):
    """CSV or XLSX in one layout: the workbook's first sheet (numbers as numbers) gives the same changes."""
    from_xlsx = run(world, xlsx_file(*base_rows()), dry_run=True)
    from_csv = run(world, csv_file(*base_rows(), separator=","), dry_run=True)
    assert from_xlsx.changes == from_csv.changes and len(from_xlsx.changes) == 5
    bad = [*base_rows(), row("player", number="30000", first_name="A", last_name="B", birth_year="1800")]
    with pytest.raises(ValidationError, match="line 10, column birth_year \\(F\\)"):
        run(world, xlsx_file(*bad))


def test_officers_of_the_file_are_appointed_and_ended_and_those_without_a_login_wait(world, personas):
    """Offices held by players of the register: the file's are appointed to the player's login (audited by
    the office's own service), an office the file no longer holds is ended; a player without a login waits."""
    world.player.user = personas.director_b  # 12345's login
    world.player.save(update_fields=["user"])
    officer_rows = [row("officer", number="12345", role="club_director", club="1001")]
    waiting = row("officer", number="20001", role="region_officer", region="fyn")
    plan = run(world, csv_file(*base_rows(), *officer_rows, waiting), sync=True)
    assert plan.waiting == [(11, "20001")]
    # The director of club B is 12345: not in the file any longer, so that office ends; club A's is new.
    assert [change.key for change in plan.of("officer", "end")] == ["12345 club_director 1002"]
    assert list(Officer.objects.filter(user=personas.director_b).values_list("club__number", flat=True)) == ["1001"]
    assert AuditEvent.objects.filter(action="officer.assign", target_type="office.officer").exists()
    assert AuditEvent.objects.filter(action="officer.revoke").count() == 1
    assert run(world, csv_file(*base_rows(), *officer_rows, waiting)).changes == []
    # Director A's login is no player of the register: the register leaves that office alone.
    assert Officer.objects.filter(user=personas.director_a, club=world.club_a).exists()


def test_a_secretariat_imports_only_for_its_own_federation(world, personas):
    """office.access: the DBf secretariat imports DBf's register; the HBS secretariat, a club director and the
    commission are refused, and nothing is written."""
    from tests.office.admin_rows import hbs_secretariat

    tajnik = hbs_secretariat(world)
    before = snapshot()
    for actor in (tajnik, personas.director_a, personas.commission):
        with pytest.raises(PermissionDenied, match="Only the secretariat of DBf"):
            run(world, csv_file(*base_rows()), actor=actor)
    assert snapshot() == before
    assert run(world, csv_file(*base_rows()), actor=personas.secretariat).changes
    assert AuditEvent.objects.filter(action="register.player.add", actor=personas.secretariat).count() == 2


def test_the_command_dry_run_prints_each_change_and_the_import_writes_it(world, tmp_path, capsys):
    """``manage.py import_register FILE [--dry-run]``: the same service; a bad file is a CommandError naming
    the line and column, with nothing written."""
    path = tmp_path / "register.csv"
    path.write_bytes(csv_file(*base_rows()))
    call_command("import_register", str(path), "--dry-run", "--federation", "dbf")
    out = capsys.readouterr().out
    assert "line 5: player 20001: add" in out and "Dry run: nothing was written." in out
    assert not Player.objects.filter(number="20001").exists()
    call_command("import_register", str(path), "--federation", "dbf")
    assert Player.objects.filter(number="20001").exists()
    path.write_bytes(csv_file(*base_rows(), row("player", number="x", first_name="A", last_name="B", birth_year="20")))
    before = snapshot()
    with pytest.raises(CommandError, match="line 10, column birth_year"):
        call_command("import_register", str(path), "--federation", "dbf")
    assert snapshot() == before


def test_imported_and_renamed_players_are_found_by_the_forgiving_search(world):
    """Issue 17: a player the register adds (written by COPY on PostgreSQL, which calls no model code) or
    renames carries the folded search key, so "Soren Aero" finds "Søren Ærø" at once."""
    from federation.names import search_name

    run(world, csv_file(*base_rows()))
    soren = Player.objects.get(federation=world.dbf, number="20001")
    assert soren.search_name == search_name("Søren", "Ærø") != ""
    assert Player.objects.filter(search_name__contains=search_name("Soren", "Aero")).exists()


def test_adding_and_updating_ends_nothing_and_moves_a_home_club_only_where_the_file_marks_one(world):
    """Issue 38: in add-and-update mode a membership the file does not name stays (and stays the home club),
    unless the file marks another home club; nothing is ended."""
    player_row = row("player", number="12345", first_name="Karen", last_name="Jensen")
    plan = run(world, csv_file(player_row, row("membership", number="12345", club="1002")))
    assert not any(change.action == "end" for change in plan.changes)
    homes = ClubMembership.objects.filter(player=world.player, is_home=True)
    assert [membership.club for membership in homes] == [world.club_a]
    plan = run(world, csv_file(player_row, row("membership", number="12345", club="1002", home="x")))
    assert [membership.club for membership in homes.all()] == [world.club_b]
    assert ClubMembership.objects.get(player=world.player, club=world.club_a).until is None


def test_a_full_sync_is_refused_unless_its_ends_are_confirmed(world):
    rows = [cells for cells in base_rows() if "12345" not in cells]
    with pytest.raises(ValidationError, match="confirm its summary first"):
        register_import(actor=None, federation=world.dbf, data=csv_file(*rows), dry_run=False, today=TODAY, mode="sync")
    assert Player.objects.get(pk=world.player.pk).status == Player.Status.MEMBER
