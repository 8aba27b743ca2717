"""Golden tests over every real file in ../shared/samples (formats.md § 5.9).

The expected values were read off the files themselves (PAIR elements counted per DIRECTION, PLACE
values copied, TotalScoreTable rows read by eye), not produced by the importer. Places are given as
``number -> place as written``; ``ties`` lists the entries that share a place with the places they
cover (competition ranking: two pairs on 6 cover 6 and 7).
"""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from tournaments.importers import parse_results


def ranking(group) -> dict[str, tuple[int, int]]:
    return {entry.number: (entry.place_first, entry.place_last) for entry in group.entries}


def expected(places: dict[int, int], ties: dict[int, tuple[int, int]] | None = None) -> dict[str, tuple[int, int]]:
    result = {str(number): (place, place) for number, place in places.items()}
    for number, covered in (ties or {}).items():
        result[str(number)] = covered
    return result


# file -> {group key: (places, ties)}
USEBIO_SAMPLES = {
    "usebio_cobalt_butler_howell.xml": {
        "-/-/-": ({1: 5, 2: 7, 3: 2, 4: 1, 5: 6, 6: 3, 7: 4, 8: 8}, {}),
    },
    "usebio_cobalt_butler_mitchell.xml": {
        "-/-/NS": ({1: 2, 2: 1, 3: 5, 4: 7, 5: 6, 6: 3, 7: 4}, {}),
        "-/-/EW": ({1: 7, 2: 1, 3: 3, 4: 2, 5: 5, 6: 4, 7: 6}, {}),
    },
    "usebio_cobalt_cross_imp_howell.xml": {
        "-/-/-": ({1: 5, 2: 1, 3: 7, 5: 6, 6: 3, 7: 4, 8: 9, 9: 8, 10: 2}, {}),
    },
    "usebio_cobalt_mp_pairs_howell.xml": {
        "-/-/-": ({1: 8, 2: 3, 3: 6, 4: 4, 5: 5, 6: 1, 7: 2, 8: 11, 9: 9, 10: 10, 11: 7, 12: 12}, {}),
    },
    "usebio_cobalt_mp_pairs_mitchell.xml": {
        "-/-/NS": (
            {1: 15, 2: 11, 3: 8, 4: 1, 5: 16, 6: 2, 7: 18, 8: 13, 9: 17, 10: 3, 11: 5, 12: 12, 13: 9, 14: 14,
             15: 19, 16: 10, 17: 6, 18: 4, 19: 6},
            {17: (6, 7), 19: (6, 7)},
        ),
        "-/-/EW": (
            {1: 13, 2: 17, 3: 5, 4: 7, 5: 1, 6: 16, 7: 6, 8: 3, 9: 2, 10: 10, 11: 11, 12: 9, 13: 12, 14: 4,
             15: 15, 16: 18, 17: 14, 18: 8, 19: 18},
            {16: (18, 19), 19: (18, 19)},
        ),
    },
    "usebio_cobalt_mp_pairs_mitchell_02.xml": {
        "-/-/NS": (
            {1: 15, 2: 9, 3: 19, 4: 16, 5: 21, 6: 12, 7: 17, 8: 13, 9: 17, 10: 8, 11: 4, 12: 2, 13: 14, 14: 3,
             15: 6, 16: 11, 17: 20, 18: 10, 19: 6, 20: 5, 21: 1},
            {15: (6, 7), 19: (6, 7), 7: (17, 18), 9: (17, 18)},
        ),
        "-/-/EW": (
            {1: 10, 2: 1, 3: 5, 4: 4, 5: 16, 6: 18, 7: 21, 8: 9, 9: 8, 10: 7, 11: 19, 12: 15, 13: 13, 14: 12,
             15: 11, 16: 3, 17: 14, 18: 20, 19: 6, 20: 17, 21: 2},
            {},
        ),
    },
    "usebio_cobalt_mp_pairs_mitchell_adjusted_02.xml": {
        "-/-/NS": (
            {1: 15, 2: 6, 3: 19, 4: 16, 5: 21, 6: 12, 7: 17, 8: 13, 9: 18, 10: 9, 11: 4, 12: 2, 13: 14, 14: 3,
             15: 7, 16: 11, 17: 20, 18: 10, 19: 8, 20: 5, 21: 1},
            {},
        ),
        "-/-/EW": (
            {1: 10, 2: 1, 3: 5, 4: 4, 5: 16, 6: 18, 7: 21, 8: 7, 9: 9, 10: 8, 11: 19, 12: 15, 13: 13, 14: 12,
             15: 11, 16: 3, 17: 14, 18: 20, 19: 6, 20: 17, 21: 2},
            {},
        ),
    },
    "usebio_cobalt_mp_pairs_mitchell_03.xml": {
        "-/-/NS": ({1: 3, 2: 5, 3: 1, 4: 7, 5: 6, 6: 2, 7: 3}, {1: (3, 4), 7: (3, 4)}),
        "-/-/EW": ({2: 2, 3: 5, 4: 6, 5: 4, 6: 1, 7: 3}, {}),
    },
    "usebio_cobalt_mp_pairs_mitchell_04.xml": {
        "-/-/NS": ({1: 7, 2: 1, 3: 4, 4: 2, 5: 8, 6: 3, 7: 6, 8: 5}, {}),
        "-/-/EW": ({1: 8, 2: 4, 3: 2, 4: 3, 5: 1, 6: 6, 7: 5, 8: 7}, {}),
    },
    "usebio_scorebridge_ebu_forest_of_dean.xml": {
        "-/-/-": ({1: 1, 5: 2, 4: 3, 7: 3, 8: 5, 6: 6, 3: 7, 2: 8}, {4: (3, 4), 7: (3, 4)}),
    },
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(USEBIO_SAMPLES))
def test_every_usebio_sample_reads_into_the_right_groups_field_sizes_places_and_ties(sample, name):
    result = parse_results(sample(name), name)
    assert not result.has_errors, result.codes
    groups = {group.key: group for group in result.event.groups}
    assert list(groups) == list(USEBIO_SAMPLES[name])
    for key, (places, ties) in USEBIO_SAMPLES[name].items():
        assert groups[key].field_size == len(places)
        assert ranking(groups[key]) == expected(places, ties)
        assert {e.number for e in groups[key].entries if e.tied} == {str(n) for n in ties}


D = datetime.date
EVENT_FACTS = {
    # file: (event_id, date, club, scoring, dialect, boards counted from travellers, declared)
    "usebio_cobalt_butler_howell.xml": ("11309", D(2026, 3, 9), "4680", "BUTLER", "compscore", 35, None),
    "usebio_cobalt_butler_mitchell.xml": ("11316", D(2026, 3, 11), "4680", "BUTLER", "compscore", 35, None),
    "usebio_cobalt_cross_imp_howell.xml": ("2592", D(2026, 2, 2), "3348", "CROSS_IMP", "compscore", 27, None),
    "usebio_cobalt_mp_pairs_howell.xml": ("3226", D(2022, 7, 27), "2074", "MP", "compscore", 27, None),
    "usebio_cobalt_mp_pairs_mitchell.xml": ("3212", D(2022, 7, 11), "2074", "MP", "compscore", 27, None),
    "usebio_cobalt_mp_pairs_mitchell_02.xml": ("3228", D(2022, 7, 28), "2074", "MP", "compscore", 27, None),
    "usebio_cobalt_mp_pairs_mitchell_03.xml": ("3221", D(2022, 7, 21), "2074", "MP", "compscore", 21, None),
    "usebio_cobalt_mp_pairs_mitchell_04.xml": ("3225", D(2022, 7, 26), "2074", "MP", "compscore", 24, None),
    "usebio_cobalt_mp_pairs_mitchell_adjusted_02.xml": (
        "3228", D(2022, 7, 28), "2074", "MP", "compscore", 27, None,
    ),
    "usebio_scorebridge_ebu_forest_of_dean.xml": (None, D(2025, 7, 30), "535336", "MP", "scorebridge", 28, 24),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(EVENT_FACTS))
def test_usebio_samples_give_event_facts_and_count_boards_from_travellers_not_hand_records_pitfall_7(sample, name):
    event = parse_results(sample(name), name).event
    event_id, date, club, scoring, dialect, counted, declared = EVENT_FACTS[name]
    assert (event.format, event.version, event.form) == ("usebio", "1.2", "pairs")
    assert (event.event_id, event.date, event.club_number, event.scoring, event.dialect) == (
        event_id,
        date,
        club,
        scoring,
        dialect,
    )
    assert (event.boards_played, event.boards_declared) == (counted, declared)
    assert event.awards_supplied


def test_compscore_mitchell_numbers_1ns_1ew_are_two_entries_with_the_same_number_pitfall_2(sample):
    event = parse_results(sample("usebio_cobalt_butler_mitchell.xml"), "x.xml").event
    keys = [e.key for e in event.entries()]
    assert "-/-/NS/1" in keys and "-/-/EW/1" in keys
    assert len(keys) == len(set(keys)) == 14


def test_mitchell_with_unequal_directions_has_7_ns_and_6_ew_and_ew_pair_1_absent_pitfall_3(sample):
    event = parse_results(sample("usebio_cobalt_mp_pairs_mitchell_03.xml"), "x.xml").event
    assert [(g.direction, g.field_size) for g in event.groups] == [("NS", 7), ("EW", 6)]
    assert "1" not in {e.number for e in event.group("-/-/EW").entries}
    # the NS sit-out: NS pairs played 18 boards, EW pairs 21 (counted from the travellers)
    assert {e.boards_played for e in event.group("-/-/NS").entries} == {18}
    assert {e.boards_played for e in event.group("-/-/EW").entries} == {21}


def test_howell_hole_in_numbering_is_no_entry_and_boards_per_pair_come_from_travellers_pitfall_3(sample):
    event = parse_results(sample("usebio_cobalt_cross_imp_howell.xml"), "x.xml").event
    assert sorted(int(e.number) for e in event.entries()) == [1, 2, 3, 5, 6, 7, 8, 9, 10]
    assert {e.boards_played for e in event.entries()} == {24}


def test_imp_scored_pairs_keep_negative_totals_and_have_no_percentage_pitfall_6(sample):
    event = parse_results(sample("usebio_cobalt_butler_howell.xml"), "x.xml").event
    scores = {e.number: e.score for e in event.entries()}
    assert scores["8"] == Decimal("-32.00") and scores["4"] == Decimal("34.00")
    assert all(e.percentage is None for e in event.entries())


def test_flat_compscore_awards_are_kept_as_supplied_with_the_pair_colour(sample):
    event = parse_results(sample("usebio_cobalt_butler_howell.xml"), "x.xml").event
    winner = event.group("-/-/-").entries[0]
    assert winner.number == "4"
    assert [(a.amount, a.kind) for a in winner.supplied_awards] == [(Decimal("24"), "GREEN")]
    assert [p.national_id for p in winner.players] == ["0218650", "261531"]  # leading zero kept (formats.md § 1.5.4)


def test_scorebridge_equals_ties_nested_awards_and_missing_id(sample):
    result = parse_results(sample("usebio_scorebridge_ebu_forest_of_dean.xml"), "sample.xml")
    event = result.event
    tied = [e for e in event.entries() if e.tied]
    assert [(e.number, e.place_in_file, e.place_first, e.place_last) for e in tied] == [
        ("4", "3=", 3, 4),
        ("7", "3=", 3, 4),
    ]
    assert [(a.amount, a.kind) for a in tied[0].supplied_awards] == [(Decimal("6"), "black")]
    assert event.group("-/-/-").entries[-1].supplied_awards == ()
    assert event.encoding.method == "declared" and event.encoding.encoding == "utf-8"
    missing = [i for i in result.issues if i.code == "ID_MISSING"]
    assert [(i.params["name"], i.params["entry"], i.where.path) for i in missing] == [
        ("John Plews", "2", "USEBIO/EVENT/PARTICIPANTS/PAIR[8]/PLAYER[2]")
    ]
    assert set(result.codes) == {"ID_MISSING", "EVENT_NAME_MISSING", "BOARDS_DECLARED_DIFFER"}
    boards = next(i for i in result.issues if i.code == "BOARDS_DECLARED_DIFFER")
    assert (boards.params["declared"], boards.params["counted"]) == (24, 28)
    assert {e.number: e.boards_played for e in event.entries()} == {
        "1": 24, "5": 24, "4": 24, "7": 24, "8": 22, "6": 23, "3": 24, "2": 23,
    }  # fmt: skip


def test_a_national_id_of_0_is_reported_as_missing_pitfall_4(sample):
    result = parse_results(sample("usebio_cobalt_mp_pairs_mitchell.xml"), "x.xml")
    assert result.codes == ["ID_MISSING"]
    assert result.issues[0].params["entry"] == "19 EW"


def test_the_corrected_reupload_changes_places_but_keeps_event_identity(sample):
    before = parse_results(sample("usebio_cobalt_mp_pairs_mitchell_02.xml"), "a.xml").event
    after = parse_results(sample("usebio_cobalt_mp_pairs_mitchell_adjusted_02.xml"), "b.xml").event
    assert (before.event_id, before.date, before.club_number) == (after.event_id, after.date, after.club_number)
    assert ranking(before.group("-/-/NS"))["2"] == (9, 9)
    assert ranking(after.group("-/-/NS"))["2"] == (6, 6)


# --- PBN ------------------------------------------------------------------------------------------


def test_pbn_reference_file_reads_its_total_score_table_with_quoted_names_and_inherited_tags(sample):
    result = parse_results(sample("pbn_reference_correct_20_scoretables.pbn"), "correct_20.pbn")
    assert not result.has_errors, result.codes
    event = result.event
    assert (event.format, event.form, event.scoring) == ("pbn", "pairs", "MP")
    assert event.name == "Autumn regional"  # [Event "##Autumn regional"] in game 1 holds for later games
    assert event.event_type == "Pairs"  # the ranking's game has no Competition tag: the first game's is used
    assert event.date == datetime.date(1999, 1, 29)
    (group,) = event.groups
    assert group.key == "-/-/-" and group.field_size == 10
    assert [(e.number, e.place_first) for e in group.entries] == [
        ("581", 1), ("226", 2), ("290", 3), ("42", 4), ("246", 5),
        ("264", 6), ("10", 7), ("347", 8), ("1", 9), ("407", 10),
    ]  # fmt: skip
    first = group.entries[0]
    assert [p.name for p in first.players] == ["Sergey OSTRIKOV", "Oleg ODINTSEV"]
    assert (first.percentage, first.score, first.boards_played) == (Decimal("72.49"), Decimal("1449.8"), 20)
    assert all(p.national_id is None for e in group.entries for p in e.players)
    assert set(result.codes) == {
        "PBN_TABLE_COMMENT",  # "{ Only the best 10 participants }": the field may be larger
        "PBN_TABLE_REPEATED",  # game 46 repeats the table with "#"
        "PBN_ID_COLUMN_MISSING",
        "GROUPS_DECIDED",  # the user column Center: the ranking runs across the centres, one field
        "BOARDS_DECLARED_DIFFER",  # score tables for board 1 only, NrBoards up to 26
    }
    boards = next(i for i in result.issues if i.code == "BOARDS_DECLARED_DIFFER")
    assert (boards.variant, boards.params) == ("nrboards", {"declared": 26, "counted": 1})
    assert (event.boards_played, event.boards_declared) == (1, 26)
    decided = next(i for i in result.issues if i.code == "GROUPS_DECIDED")
    assert decided.variant == "across_centres" and decided.params["size"] == 10
    comment = next(i for i in result.issues if i.code == "PBN_TABLE_COMMENT")
    assert comment.params["comment"] == "Only the best 10 participants"


def test_pbn_with_hand_records_only_is_refused_with_no_ranking_table(sample):
    result = parse_results(sample("pbn_bridgecomposer_czech_handrecord_iso8859-1.pbn"), "bc.pbn")
    assert result.event is None and result.format == "pbn"
    assert result.codes == ["NO_RANKING_TABLE"]
    assert (result.issues[0].variant, result.issues[0].params) == ("hand_records", {"games": 15})


def test_pbn_with_one_game_per_table_result_and_no_totals_is_refused_with_no_ranking_table(sample):
    result = parse_results(sample("pbn_pbntools_polish_per_table_8bit.pbn"), "sm0807.pbn")
    assert result.event is None
    assert result.codes == ["ENCODING_GUESSED", "NO_RANKING_TABLE"]
    assert result.issues[0].params == {"encoding": "cp1250"}
    assert (result.issues[1].variant, result.issues[1].params) == ("table_results", {"games": 108})


def test_federation_ranking_csv_is_not_taken_for_our_template(sample):
    result = parse_results(sample("csv_pzbs_cezar_ranking_cp1250.csv"), "20251231.csv")
    assert result.event is None and result.format is None
    assert [(i.code, i.variant) for i in result.issues] == [("FORMAT_UNKNOWN", "csv")]
