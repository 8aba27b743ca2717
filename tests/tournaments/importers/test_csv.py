"""Our CSV templates (tournaments/importers/csv.py; static/results-templates/README.md)."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from tournaments.importers import parse_results


def test_the_downloadable_pairs_example_reads_without_errors_into_ns_and_ew_groups(template):
    result = parse_results(template("pairs-example.csv"), "pairs-example.csv")
    assert result.codes == ["ID_MISSING"]  # the guest in pair 4 NS, as the README explains
    event = result.event
    assert (event.format, event.version, event.form, event.scoring) == ("csv", "1", "pairs", "MP")
    assert (event.name, event.date, event.club_number, event.event_id) == (
        "Friday pairs",
        datetime.date(2025, 3, 14),
        "1201",
        "2025-03-14-FRI",
    )
    assert event.boards_declared == 24
    assert [(g.key, g.field_size) for g in event.groups] == [("1/A/NS", 4), ("1/A/EW", 4)]
    ew = event.group("1/A/EW")
    assert [(e.number, e.place_first, e.place_last) for e in ew.entries] == [
        ("2", 1, 1),
        ("4", 2, 2),
        ("1", 3, 4),
        ("3", 3, 4),
    ]
    assert ew.entries[0].percentage == Decimal("56.60")  # decimal comma
    assert event.encoding.method == "bom"


def test_the_downloadable_teams_example_reads_teams_players_boards_and_matches(template):
    result = parse_results(template("teams-example.csv"), "teams-example.csv")
    assert result.codes == ["ID_MISSING"]
    event = result.event
    assert (event.form, event.scoring, event.boards_declared) == ("teams", "VP", 48)
    (group,) = event.groups
    assert [(e.number, e.name, e.place_first) for e in group.entries] == [
        ("1", "Dubrava", 1),
        ("2", "Østerbro", 2),
        ("3", "Split & Friends", 3),
        ("4", "O'Neill", 4),
    ]
    second = group.entries[1]
    assert [(p.national_id, p.boards_played) for p in second.players] == [
        ("20011", 48),
        ("20012", 48),
        ("20013", 32),
        ("20014", 32),
        ("20015", 16),
        ("20016", 16),
    ]
    assert len(event.matches) == 6
    assert event.matches[0].vp == Decimal("15.50")


def test_the_individual_example_reads_one_player_per_entry(template):
    result = parse_results(template("individual-example.csv"), "individual-example.csv")
    assert result.codes == []
    assert result.event.form == "individual"
    assert [(e.number, e.place_first, e.place_last) for e in result.event.group("-/-/-").entries][2:4] == [
        ("3", 3, 4),
        ("4", 3, 4),
    ]


@pytest.mark.parametrize("name", ["pairs-template.csv", "teams-template.csv"])
def test_an_empty_template_is_recognised_as_ours_and_says_what_is_missing(template, name):
    result = parse_results(template(name), name)
    assert result.format == "csv"
    assert result.codes == ["DATE_MISSING", "NO_ENTRIES"]


def test_semicolons_bom_decimal_commas_two_winners_and_equals_ties(data):
    result = parse_results(data("csv_pairs_semicolon_bom.csv"), "pairs.csv")
    assert result.codes == ["ID_MISSING"]
    missing = result.issues[0]
    assert (missing.where.line, missing.where.column, missing.params["name"]) == (10, "player_2_id", "Guest Player")
    event = result.event
    assert event.date == datetime.date(2025, 3, 14)  # 14.03.2025, day first
    assert [(g.key, g.field_size) for g in event.groups] == [("-/-/NS", 3), ("-/-/EW", 3)]
    assert [(e.number, e.place_first, e.place_last, e.place_in_file) for e in event.group("-/-/EW").entries] == [
        ("1", 1, 1, "1"),
        ("2", 2, 3, "2="),
        ("3", 2, 3, "2="),
    ]


def test_comma_separated_teams_with_byes_and_matches_listed_once(data):
    result = parse_results(data("csv_teams_comma.csv"), "teams.csv")
    assert result.codes == []
    event = result.event
    assert [(m.round, m.team, m.opponent, m.vp) for m in event.matches] == [
        ("1", "1", "2", Decimal("15.50")),
        ("1", "3", None, Decimal("12.00")),
        ("2", "1", "3", Decimal("11.62")),
        ("2", "2", None, Decimal("12.00")),
    ]  # the round-2 match 3-1 repeats 1-3 from the other side and is kept once
    assert event.group("-/-/-").entries[0].boards_played == 32  # from the two matches of 16 boards
    assert len(event.group("-/-/-").entries[1].players) == 5


def test_tab_separated_file_with_spaced_column_names_is_read():
    text = (
        "event_date\t2025-05-01\nevent_name\tTabs\nevent_type\tpairs\n"
        "Entry No\tPlace\tPlayer 1 ID\tPlayer 1 Name\tPlayer 2 ID\tPlayer 2 Name\n"
        "1\t1\t11\tAna Horvat\t12\tIvo Kovač\n2\t2\t13\tMarta Babić\t14\tLuka Jurić\n"
    )
    result = parse_results(text.encode("utf-8"), "tabs.txt")
    assert result.codes == []
    assert [e.players[1].national_id for e in result.event.entries()] == ["12", "14"]


def test_a_cp1250_csv_without_bom_is_read_with_the_guess_reported(data):
    text = data("csv_pairs_semicolon_bom.csv").decode("utf-8-sig").replace("Søren Ærø", "Ivan Čačić")
    text = text.replace("Mette Højgaard", "Željka Šimić").replace("Karin Bøg", "Đurđa Kovačević")
    result = parse_results(text.encode("cp1250"), "cp1250.csv")
    assert result.codes[0] == "ENCODING_GUESSED"
    assert result.issues[0].params == {"encoding": "cp1250"}
    names = [p.name for e in result.event.group("-/-/EW").entries for p in e.players]
    assert names[:2] == ["Ivan Čačić", "Željka Šimić"]


def test_places_left_empty_everywhere_are_computed_from_the_score():
    text = (
        "event_date;2025-05-01\nevent_name;No places\nevent_type;pairs\n"
        "entry_no;place;score;player_1_id;player_1_name;player_2_id;player_2_name\n"
        "1;;50;1;A;2;B\n2;;70;3;C;4;D\n3;;50;5;E;6;F\n"
    )
    result = parse_results(text.encode(), "x.csv")
    assert [(i.code, i.severity) for i in result.issues] == [("PLACE_MISSING", "warning")]
    assert [(e.number, e.place_first, e.place_last) for e in result.event.entries()] == [
        ("2", 1, 1),
        ("1", 2, 3),
        ("3", 2, 3),
    ]


def test_a_missing_required_column_is_named(data):
    result = parse_results(data("csv_column_missing.csv"), "x.csv")
    assert result.event is None
    assert [(i.code, i.params["column"], i.where.line) for i in result.issues if i.code == "CSV_COLUMN_MISSING"] == [
        ("CSV_COLUMN_MISSING", "place", 4)
    ]


def test_invalid_values_are_reported_with_row_and_column(data):
    result = parse_results(data("csv_value_invalid.csv"), "x.csv")
    assert [(i.code, i.where.line, i.where.column, i.params["value"]) for i in result.issues] == [
        ("CSV_VALUE_INVALID", 5, "direction", "North"),
        ("CSV_VALUE_INVALID", 5, "score", "sixty"),
    ]


def test_a_team_playing_two_matches_in_one_round_is_an_error(data):
    result = parse_results(data("csv_match_duplicate.csv"), "x.csv")
    assert [(i.code, i.where.line, i.params) for i in result.issues] == [
        ("MATCH_DUPLICATE", 10, {"round": "1", "team": "1"})
    ]


def test_a_wrong_event_type_for_the_template_is_reported():
    text = (
        "event_date;2025-05-01\nevent_name;Wrong type\nevent_type;teams\n"
        "entry_no;place;player_1_id;player_1_name;player_2_id;player_2_name\n1;1;1;A;2;B\n"
    )
    result = parse_results(text.encode(), "x.csv")
    assert [(i.code, i.params["column"]) for i in result.issues] == [("CSV_VALUE_INVALID", "event_type")]
    assert result.event.form == "pairs"


def test_rows_outside_the_blocks_and_unknown_columns_are_reported_not_fatal():
    text = (
        "Friday results\n\nevent_date;2025-05-01\nevent_name;Extra\n"
        "entry_no;place;player_1_id;player_1_name;player_2_id;player_2_name;remarks\n1;1;1;A;2;B;late\n"
    )
    result = parse_results(text.encode(), "x.csv")
    assert result.codes == ["CSV_ROW_IGNORED", "EVENT_TYPE_MISSING", "CSV_COLUMN_UNKNOWN"]
    assert result.issues[0].where.line == 1
    assert result.issues[2].params == {"columns": "remarks"}
