"""The event's boards of a PBN from the ranking's ``NrBoards`` (formats.md § 2.3: NrBoards is a predefined
TotalScoreTable column), when the file has no per-board ``ScoreTable``: the upload then needs no Boards on
the form, and an entry that played fewer boards keeps its own count (§ 405A1, HBS rule 6, H-9)."""

from __future__ import annotations

from masterpoints.engine.common import MAX_BOARDS
from tournaments.importers import parse_results

HEADER = b'% PBN 2.1\n[Event "Club pairs"]\n[Date "2025.03.14"]\n[Competition "Pairs"]\n[Scoring "MP"]\n'
TABLE = "Rank;PairId;Names;MemberID;NrBoards;TotalPercentage"
#: The line of the table's first row: the five lines of HEADER, then the table's tag.
FIRST_ROW = 7


def ranking(*boards: str, score_tables: bytes = b"") -> bytes:
    rows = "".join(
        f'{n} {n} "A{n};B{n}" "{2 * n - 1};{2 * n}" {b} {70 - 10 * n}\n' for n, b in enumerate(boards, start=1)
    )
    return HEADER + f'[TotalScoreTable "{TABLE}"]\n{rows}'.encode() + score_tables


def score_table(board: int) -> bytes:
    return (
        f'\n[Board "{board}"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS;MP_NS;MP_EW"]\n1 2 420 2 0\n3 4 -50 0 2\n'
    ).encode()


def test_nrboards_all_agreeing_are_the_events_boards_without_score_tables():
    result = parse_results(ranking("24", "24", "24", "24"), "x.pbn")
    assert result.codes == ["PBN_ID_COLUMN_USED"]
    event = result.event
    assert (event.boards_played, event.boards_declared) == (None, 24)
    assert {e.boards_played for e in event.entries()} == {24}


def test_nrboards_differing_give_the_most_as_the_events_boards_and_each_entry_its_own_405a1():
    # pair 3 arrived late (18 boards), pair 4 sat out a round (21): the event is the 24 the others played
    result = parse_results(ranking("24", "24", "18", "21"), "x.pbn")
    assert result.codes == ["PBN_ID_COLUMN_USED"]
    event = result.event
    assert (event.boards_played, event.boards_declared) == (None, 24)
    assert {e.number: e.boards_played for e in event.entries()} == {"1": 24, "2": 24, "3": 18, "4": 21}


def test_an_nrboards_that_is_no_positive_whole_number_within_the_bound_is_an_error_naming_line_and_value():
    result = parse_results(ranking("24", "0", str(MAX_BOARDS + 1), "x2"), "x.pbn")
    assert result.has_errors
    bad = [i for i in result.issues if i.code == "SCORE_UNPARSEABLE"]
    assert [(i.variant, i.where.line, i.params["value"], i.params["field"]) for i in bad] == [
        ("boards", FIRST_ROW + 1, "0", "NrBoards"),
        ("boards", FIRST_ROW + 2, "2001", "NrBoards"),
        ("boards", FIRST_ROW + 3, "x2", "NrBoards"),
    ]
    assert bad[1].params == {"value": "2001", "field": "NrBoards", "entry": "3", "limit": MAX_BOARDS}
    assert str(bad[1].message) == "2001 is not a number of boards from 1 to 2000 (NrBoards of entry 3)."
    assert str(bad[1].where.label) == f"line {FIRST_ROW + 2}"
    # the bad values count for nothing: the entries' boards are unknown, the event's are the one good row's
    assert [e.boards_played for e in result.event.entries()] == [24, None, None, None]
    assert result.event.boards_declared == 24


def test_score_tables_keep_priority_and_a_differing_nrboards_is_a_warning_naming_both_numbers():
    result = parse_results(ranking("3", "3", "3", "3", score_tables=score_table(1) + score_table(2)), "x.pbn")
    event = result.event
    assert (event.boards_played, event.boards_declared) == (2, 3)
    differ = [i for i in result.issues if i.code == "BOARDS_DECLARED_DIFFER"]
    assert [(i.severity, i.variant, i.params) for i in differ] == [
        ("warning", "nrboards", {"declared": 3, "counted": 2})
    ]
    assert "NrBoards says up to 3 boards" in str(differ[0].message)
    assert "The preview says which number the points count" in str(differ[0].message)  # D-Q63: QUOTA_BOARDS


def test_score_tables_and_nrboards_that_agree_say_nothing():
    result = parse_results(ranking("2", "2", "2", "2", score_tables=score_table(1) + score_table(2)), "x.pbn")
    assert result.codes == ["PBN_ID_COLUMN_USED"]
    assert (result.event.boards_played, result.event.boards_declared) == (2, 2)
