"""USEBIO dialects on the project's own fixtures (tests/tournaments/data), formats.md § 1.4-1.5."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal

from tournaments.importers import parse_results


def places(group) -> dict[str, tuple[int, int]]:
    return {entry.number: (entry.place_first, entry.place_last) for entry in group.entries}


def test_team_event_reads_team_attributes_players_in_pairs_substitutes_and_matches(data):
    result = parse_results(data("usebio_teams.xml"), "teams.xml")
    assert result.codes == []
    event = result.event
    assert (event.form, event.scoring, event.event_type) == ("teams", "VP", "TEAMS")
    (group,) = event.groups
    assert [(e.number, e.name, e.place_first, e.score) for e in group.entries] == [
        ("1", "Dubrava", 1, Decimal("45.12")),
        ("2", "Østerbro", 2, Decimal("38.40")),
        ("3", "Split & Friends", 3, Decimal("30.02")),
        ("4", "O'Neill", 4, Decimal("6.46")),
    ]
    by_number = {e.number: e for e in group.entries}
    assert len(by_number["2"].players) == 6  # two substitutes, no PLAYER_COUNT_UNUSUAL (4-6 is normal)
    assert [p.boards_played for p in by_number["2"].players] == [48, 48, 32, 32, 16, 16]
    assert len(by_number["3"].players) == 4  # TEAM > PAIR > PLAYER
    assert by_number["1"].boards_played == 48  # three matches of 16 boards
    assert len(event.matches) == 6
    first = event.matches[0]
    assert (first.round, first.team, first.opponent, first.imps, first.opponent_imps, first.vp, first.boards) == (
        "1",
        "1",
        "2",
        Decimal("30"),
        Decimal("12"),
        Decimal("15.50"),
        16,
    )


def test_individual_event_has_one_player_per_entry_and_repeated_places_are_ties(data):
    result = parse_results(data("usebio_individual.xml"), "individual.xml")
    assert result.codes == []
    (group,) = result.event.groups
    assert result.event.form == "individual"
    assert group.field_size == 8
    assert places(group)["3"] == places(group)["4"] == (3, 4)
    assert places(group)["5"] == (5, 5)
    assert all(len(e.players) == 1 for e in group.entries)
    assert group.entries[0].players[0].national_id == "20001"


def test_usebio_1_3_reads_iso_date_event_id_rating_and_a_declared_latin1_encoding(data):
    result = parse_results(data("usebio_13_iso_date.xml"), "v13.xml")
    assert result.codes == []
    event = result.event
    assert (event.version, event.event_id, event.date, event.rating) == (
        "1.3",
        "2025-03-14-FRI",
        datetime.date(2025, 3, 14),
        "Club",
    )
    assert (event.event_type, event.scoring) == ("PAIRS", "MP")  # PAIRS + BOARD_SCORING_METHOD MATCH_POINTS
    assert event.club_name == "Bridgeklubben Øst"
    assert (event.encoding.encoding, event.encoding.method, event.encoding.declared) == (
        "iso8859-1",
        "declared",
        "iso-8859-1",
    )
    assert event.group("-/-/-").entries[0].players[0].name == "Søren Ærø"


def test_hand_records_in_handset_and_in_event_boards_are_not_counted_as_travellers_pitfall_7(data):
    event = parse_results(data("usebio_13_iso_date.xml"), "v13.xml").event
    # three BOARDs with TRAVELLER_LINEs; a fourth EVENT/BOARD and the HANDSET hold only HANDs
    assert (event.boards_played, event.boards_declared) == (3, 3)
    assert {e.boards_played for e in event.entries()} == {3}


def test_ties_written_with_equals_cover_the_places_they_share_pitfall_1(data):
    result = parse_results(data("usebio_ties_equals.xml"), "ties.xml")
    assert result.codes == []
    group = result.event.group("-/-/-")
    assert places(group) == {"3": (1, 1), "1": (2, 3), "6": (2, 3), "2": (4, 4), "4": (5, 6), "5": (5, 6)}
    assert {e.number: e.place_in_file for e in group.entries if e.tied} == {"1": "2=", "6": "2=", "4": "5=", "5": "5="}


def test_sections_ranked_separately_give_a_group_per_section_and_direction_pitfall_2(data):
    result = parse_results(data("usebio_sections_separate.xml"), "sections.xml")
    assert result.codes == ["GROUPS_DECIDED"]  # says which, and why (each section's places start at 1)
    decided = result.issues[0]
    assert (decided.variant, decided.params["count"], decided.params["names"]) == ("per_section", 2, "A, B")
    assert str(decided.params["groups"]) == "A North-South 3, A East-West 3, B 4"
    groups = result.event.groups
    assert [(g.key, g.name, g.field_size) for g in groups] == [
        ("-/A/NS", "A NS", 3),
        ("-/A/EW", "A EW", 3),
        ("-/B/-", "B", 4),
    ]
    assert places(groups[0]) == {"2": (1, 1), "1": (2, 2), "3": (3, 3)}
    assert {e.key for e in groups[2].entries} == {"-/B/-/1", "-/B/-/2", "-/B/-/3", "-/B/-/4"}


def test_sections_with_one_ranking_across_the_field_become_one_group_nz_style_pitfall_2(data):
    result = parse_results(data("usebio_sections_field_wide.xml"), "nz.xml")
    assert result.codes == ["GROUPS_DECIDED"]  # one field, because the places run 1..9 across the sections
    decided = result.issues[0]
    assert (decided.variant, decided.params["count"], decided.params["names"]) == ("", 3, "A, B, C")
    assert str(decided.params["groups"]) == "9"
    event = result.event
    assert event.date == datetime.date(2015, 12, 5)  # 5/12/2015: day first, no leading zero
    assert event.encoding.method == "xml-default"
    (group,) = event.groups
    assert group.key == "-/-/-" and group.field_size == 9
    assert [(e.section, e.number, e.direction, e.place_first) for e in group.entries] == [
        ("A", "1", "NS", 1),
        ("A", "2", "EW", 2),
        ("B", "1", None, 3),
        ("A", "1", "EW", 4),
        ("B", "2", None, 5),
        ("A", "2", "NS", 6),
        ("B", "3", None, 7),
        ("C", "1", None, 8),
        ("C", "2", None, 9),
    ]


def test_session_wrappers_rank_each_session_on_its_own(data):
    result = parse_results(data("usebio_sessions_wrapped.xml"), "sessions.xml")
    assert result.codes == []
    event = result.event
    assert event.sessions == 2
    assert [(g.key, g.name, g.field_size) for g in event.groups] == [("1/A/-", "1 A", 3), ("2/A/-", "2 A", 3)]
    # the same players in both sessions are no duplicates: ids are unique per session
    assert places(event.group("2/A/-")) == {"1": (1, 1), "3": (2, 2), "2": (3, 3)}


def test_an_overall_ranking_beside_session_rankings_is_the_one_used(data):
    result = parse_results(data("usebio_overall_and_sessions.xml"), "final.xml")
    assert result.codes == ["SESSION_RESULTS_IGNORED"]
    (group,) = result.event.groups
    assert group.key == "-/-/-"
    assert [e.percentage for e in group.entries] == [Decimal("56.5"), Decimal("51.0"), Decimal("42.5")]


def test_handicap_event_is_ranked_on_the_scratch_result_and_flagged(data):
    result = parse_results(data("usebio_handicap.xml"), "handicap.xml")
    assert result.codes == ["HANDICAP_RANKED_ON_SCRATCH"]
    assert result.issues[0].params["changed"] == 2
    event = result.event
    assert event.handicap
    (group,) = event.groups
    assert group.ranked_by == "score"
    assert [(e.number, e.place_first, e.place_in_file, e.handicap) for e in group.entries] == [
        ("2", 1, "2", Decimal("-4.0")),
        ("1", 2, "1", Decimal("+5.0")),
        ("3", 3, "3", Decimal("+2.0")),
        ("4", 4, "4", Decimal("0")),
    ]


def test_phantom_pair_is_left_out_of_the_field_and_holes_in_numbering_are_fine_pitfall_3(data):
    result = parse_results(data("usebio_phantom.xml"), "phantom.xml")
    assert result.codes == ["ENTRY_PHANTOM"]
    assert result.issues[0].params == {"entry": "5", "reason": "PHANTOM"}
    (group,) = result.event.groups
    assert group.field_size == 4
    assert [e.number for e in group.entries] == ["1", "2", "4", "6"]


def test_a_file_without_places_is_ranked_on_percentages_with_a_warning(data):
    result = parse_results(data("usebio_no_places.xml"), "noplaces.xml")
    assert [(i.code, i.severity) for i in result.issues] == [("PLACE_MISSING", "warning")]
    (group,) = result.event.groups
    assert group.ranked_by == "score"
    assert places(group) == {"1": (1, 1), "2": (2, 2), "3": (3, 3), "4": (4, 4), "5": (5, 6), "6": (5, 6)}
    assert all(e.place_in_file is None for e in group.entries)


def test_issue_locations_give_the_line_and_the_element_path(data):
    result = parse_results(data("score_unparseable.xml"), "score.xml")
    (issue,) = result.issues
    assert issue.code == "SCORE_UNPARSEABLE"
    assert issue.where.path == "USEBIO/EVENT/PARTICIPANTS/PAIR[2]/TOTAL_SCORE"
    assert issue.where.line == 34
    assert issue.params == {"value": "1O5.0", "field": "TOTAL_SCORE", "entry": "2"}


def test_a_missing_event_type_is_inferred_from_the_participants(data):
    text = data("usebio_individual.xml").replace(b' EVENT_TYPE="INDIVIDUAL"', b"")
    result = parse_results(text, "x.xml")
    assert result.codes == ["EVENT_TYPE_MISSING"]
    assert result.event.form == "individual"


def test_two_winners_declared_for_sections_without_directions_is_one_field_with_a_warning(data):
    text = data("usebio_sections_field_wide.xml").replace(b"<WINNER_TYPE>1</WINNER_TYPE>", b"")
    text = text.replace(b"<PROGRAM_NAME>", b"<WINNER_TYPE>2</WINNER_TYPE>\n  <PROGRAM_NAME>", 1)
    # sections B and C have no directions (warned); the places 1..9 run across all sections, so the
    # sections are joined into one field
    result = parse_results(text, "x.xml")
    assert [(i.code, i.variant) for i in result.issues] == [("GROUP_AMBIGUOUS", "no_direction")] * 2 + [
        ("GROUPS_DECIDED", "")
    ]
    assert [g.key for g in result.event.groups] == ["-/-/-"]


def test_two_winners_declared_but_places_running_across_both_directions_is_one_field_with_a_warning(sample):
    def shift_ew_places(match: re.Match) -> bytes:
        return match.group(1) + str(int(match.group(2)) + 8).encode()

    text = sample("usebio_cobalt_mp_pairs_mitchell_04.xml")
    text = re.sub(rb"(<DIRECTION>EW</DIRECTION>(?:(?!</PAIR>).)*?<PLACE>)(\d+)", shift_ew_places, text, flags=re.DOTALL)
    result = parse_results(text, "x.xml")
    assert ("GROUP_AMBIGUOUS", "joined_by_places") in [(i.code, i.variant) for i in result.issues]
    assert [(g.key, g.field_size) for g in result.event.groups] == [("-/-/-", 16)]
    # the EW winner (68.65%) now sits on place 9 behind NS pairs with less: the places are suspect
    assert "PLACES_CONTRADICT_SCORES" in result.codes


def test_one_winner_declared_but_places_restart_per_direction_is_split_with_a_warning(sample):
    text = sample("usebio_cobalt_mp_pairs_mitchell_04.xml").replace(b"<WINNER_TYPE>2<", b"<WINNER_TYPE>1<")
    result = parse_results(text, "x.xml")
    assert [(i.code, i.variant) for i in result.issues] == [("GROUP_AMBIGUOUS", "split_by_places")]
    assert [g.key for g in result.event.groups] == ["-/-/NS", "-/-/EW"]
