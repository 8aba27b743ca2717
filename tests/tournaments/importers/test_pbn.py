"""PBN TotalScoreTable reader (formats.md § 2): tokenizer, inheritance, member-id column, refusals."""

from __future__ import annotations

import datetime
from decimal import Decimal

from tournaments.importers import parse_results

HEADER = b'% PBN 2.1\n[Event "Club pairs"]\n[Date "2025.03.14"]\n[Competition "Pairs"]\n[Scoring "MP"]\n[Board "1"]\n'


def pbn(table_header: str, *rows: str, head: bytes = HEADER) -> bytes:
    body = f'[TotalScoreTable "{table_header}"]\n' + "".join(f"{row}\n" for row in rows)
    return head + body.encode("utf-8")


def test_member_id_column_gives_national_ids_and_says_which_column_was_used(data):
    result = parse_results(data("pbn_member_ids_cp1250.pbn"), "club.pbn")
    assert result.codes == ["PBN_ID_COLUMN_USED", "ID_MISSING"]
    assert result.issues[0].params == {"column": "MemberID"}
    assert result.issues[1].params["name"] == "Lea Knežević"  # "1007;?": the second id is unknown
    event = result.event
    assert (event.version, event.name, event.date) == ("2.1", "Klupski turnir parova", datetime.date(2025, 3, 14))
    assert (event.encoding.encoding, event.encoding.method, event.encoding.declared) == (
        "cp1250",
        "declared",
        "windows-1250",
    )
    assert [(g.key, g.field_size) for g in event.groups] == [
        ("-/-/NS", 2),
        ("-/-/EW", 2),
    ]  # ranks restart per direction
    winner = event.group("-/-/NS").entries[0]
    assert [(p.name, p.national_id) for p in winner.players] == [("Ivan Čačić", "1001"), ("Željka Šimić", "1002")]
    assert event.group("-/-/EW").entries[0].players[0].name == "Ana O'Neill"
    assert event.boards_played == 2  # two ScoreTables, the second with an inherited "#" header


def test_numbered_federation_number_columns_are_accepted(data):
    text = pbn(
        "Rank\\2R;PairId\\2R;Names\\40L;FedNo1;FedNo2;TotalPercentage\\6R",
        ' 1 3 "Ana Horvat;Ivo Kovač" 1001 1002 61.20',
        ' 2 1 "Marta Babić;Luka Jurić" 1003 1004 38.80',
    )
    result = parse_results(text, "x.pbn")
    assert result.codes == ["PBN_ID_COLUMN_USED"]
    assert result.issues[0].params == {"column": "FedNo1, FedNo2"}
    assert [p.national_id for p in result.event.group("-/-/-").entries[1].players] == ["1003", "1004"]


def test_equal_ranks_are_a_tie_because_rank_is_the_best_rank_of_the_tied_group_pitfall_2():
    text = pbn(
        "Rank\\2R;PairId\\2R;Names\\40L;MemberID;TotalMP\\6R;TotalPercentage\\6R",
        ' 1 4 "Ana Horvat;Ivo Kovač" "1;2" 80.0 66.67',
        ' 2 2 "Marta Babić;Luka Jurić" "3;4" 60.0 50.00',
        ' 2 1 "Petra Novak;Josip Marić" "5;6" 60.0 50.00',
        ' 4 3 "Sanja Perić;Goran Babić" "7;8" 40.0 33.33',
    )
    result = parse_results(text, "x.pbn")
    assert result.codes == ["PBN_ID_COLUMN_USED"]
    group = result.event.group("-/-/-")
    assert [(e.number, e.place_first, e.place_last) for e in group.entries] == [
        ("4", 1, 1),
        ("1", 2, 3),
        ("2", 2, 3),
        ("3", 4, 4),
    ]
    assert group.entries[0].score == Decimal("80.0")


def test_rows_are_split_on_quotes_not_on_spaces_so_names_with_spaces_stay_whole_pitfall_4():
    text = pbn(
        "Rank;PairId;Names;MemberIDs;TotalPercentage",
        '1 7 "Anne Smith - John O\'Brien ; Mary van der Berg" "11 ; 12" 55.0',
    )
    (entry,) = parse_results(text, "x.pbn").event.entries()
    assert [(p.name, p.national_id) for p in entry.players] == [
        ("Anne Smith - John O'Brien", "11"),
        ("Mary van der Berg", "12"),
    ]


def test_two_tables_in_games_with_section_tags_are_two_groups():
    head = b'% PBN 2.1\n[Event "##Two sections"]\n[Date "##2025.03.14"]\n[Competition "##Pairs"]\n'
    table = "Rank;PairId;Names;MemberID;TotalPercentage"
    text = (
        head
        + b'[Section "A"]\n'
        + f'[TotalScoreTable "{table}"]\n1 1 "A1;A2" "1;2" 60\n2 2 "A3;A4" "3;4" 40\n\n'.encode()
        + b'[Section "B"]\n'
        + b'[TotalScoreTable "#"]\n1 2 "B3;B4" "7;8" 55\n2 1 "B1;B2" "5;6" 45\n'
    )
    result = parse_results(text, "x.pbn")
    assert result.codes == ["GROUPS_DECIDED", "PBN_ID_COLUMN_USED", "PBN_ID_COLUMN_USED"]
    assert (result.issues[0].variant, result.issues[0].params["names"]) == ("per_table", "A, B")
    assert result.event.name == "Two sections"
    assert [(g.key, g.field_size) for g in result.event.groups] == [("-/A/-", 2), ("-/B/-", 2)]
    assert result.event.group("-/B/-").entries[0].players[0].national_id == "7"


def test_two_different_tables_without_section_names_are_two_groups_with_a_warning():
    table = "Rank;PairId;Names;MemberID;TotalPercentage"
    text = (
        HEADER
        + f'[TotalScoreTable "{table}"]\n1 1 "A1;A2" "1;2" 60\n2 2 "A3;A4" "3;4" 40\n\n'.encode()
        + b'[Board "2"]\n[TotalScoreTable "#"]\n1 3 "B3;B4" "7;8" 55\n2 4 "B1;B2" "5;6" 45\n'
    )
    result = parse_results(text, "x.pbn")
    assert [(i.code, i.variant) for i in result.issues if i.code == "GROUP_AMBIGUOUS"] == [
        ("GROUP_AMBIGUOUS", "tables")
    ]
    assert [g.key for g in result.event.groups] == ["-/#1/-", "-/#2/-"]


def test_pbn_without_id_column_warns_once_and_does_not_list_every_player():
    text = pbn("Rank;PairId;Names;TotalPercentage", '1 1 "A;B" 60', '2 2 "C;D" 40')
    result = parse_results(text, "x.pbn")
    assert result.codes == ["PBN_ID_COLUMN_MISSING"]


def test_hand_records_only_pbn_is_refused(data):
    result = parse_results(data("pbn_hand_records_only.pbn"), "hands.pbn")
    assert result.event is None
    assert [(i.code, i.variant, i.params) for i in result.issues] == [
        ("NO_RANKING_TABLE", "hand_records", {"games": 2})
    ]


def test_a_pbn_with_neither_deals_nor_ranking_is_refused(data):
    result = parse_results(data("pbn_no_deals_no_table.pbn"), "empty.pbn")
    assert [(i.code, i.variant) for i in result.issues] == [("NO_RANKING_TABLE", "")]


def test_a_row_that_does_not_fit_the_header_is_reported_with_its_line(data):
    result = parse_results(data("pbn_row_malformed.pbn"), "bad.pbn")
    malformed = [i for i in result.issues if i.code == "PBN_ROW_MALFORMED"]
    assert [(i.where.line, i.params) for i in malformed] == [(8, {"found": 7, "expected": 5})]


def test_more_names_than_member_ids_is_reported(data):
    result = parse_results(data("pbn_id_count_mismatch.pbn"), "ids.pbn")
    malformed = [i for i in result.issues if i.code == "PBN_ROW_MALFORMED"]
    assert [(i.variant, i.where.line, i.params) for i in malformed] == [("ids", 7, {"names": 2, "ids": 1})]


def test_cr_only_line_endings_are_read():
    text = pbn("Rank;PairId;Names;MemberID;TotalPercentage", '1 1 "A;B" "1;2" 60', '2 2 "C;D" "3;4" 40')
    result = parse_results(text.replace(b"\n", b"\r"), "x.pbn")
    assert result.codes == ["PBN_ID_COLUMN_USED"]
    assert result.event.group("-/-/-").field_size == 2


def test_pbn_team_ranking_takes_team_names_and_player_names():
    head = b'% PBN 2.1\n[Event "Teams"]\n[Date "2025.03.14"]\n[Competition "Teams"]\n'
    text = pbn(
        "Rank;TeamId;Names;TotalVP",
        '1 1 "Dubrava" 45.5',
        '2 2 "Ana;Ivo;Marta;Luka" 30.0',
        head=head,
    )
    result = parse_results(text, "x.pbn")
    event = result.event
    assert (event.form, event.scoring) == ("teams", "VP")  # no Scoring tag: the TotalVP column says it
    first, second = event.group("-/-/-").entries
    assert (first.name, first.players) == ("Dubrava", ())
    assert [p.name for p in second.players] == ["Ana", "Ivo", "Marta", "Luka"]
    assert "ENTRY_NO_PLAYERS" in result.codes  # a team ranking without members cannot award players


def test_a_pbn_starting_with_a_multi_line_comment_is_still_recognised():
    head = b"{ Results exported by hand\n  for the federation }\n" + HEADER.replace(b"% PBN 2.1\n", b"")
    text = pbn("Rank;PairId;Names;MemberID;TotalPercentage", '1 1 "A;B" "1;2" 60', '2 2 "C;D" "3;4" 40', head=head)
    result = parse_results(text, "x.pbn")
    assert result.format == "pbn" and result.codes == ["PBN_ID_COLUMN_USED"]


def test_the_time_tag_gives_the_start_time_and_a_bad_one_none_452a_d_q27():
    """§ 452A, D-Q27: PBN's ``Time`` tag is the start time the upload defaults the playing time from."""
    table = "Rank\\2R;PairId\\2R;Names\\40L;TotalPercentage\\6R"
    rows = ('1 1 "A1;A2" 60', '2 2 "A3;A4" 40')
    timed = parse_results(pbn(table, *rows, head=HEADER.replace(b"[Board", b'[Time "19:30:00"]\n[Board')), "t.pbn")
    assert timed.event.start_time == datetime.time(19, 30)
    for text in ("?", "25:00", "evening"):
        head = HEADER.replace(b"[Board", f'[Time "{text}"]\n[Board'.encode())
        assert parse_results(pbn(table, *rows, head=head), "t.pbn").event.start_time is None
    assert parse_results(pbn(table, *rows), "t.pbn").event.start_time is None
