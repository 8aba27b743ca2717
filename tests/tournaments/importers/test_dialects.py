"""Golden tests for the dialects the first samples did not cover: TeamsScorer teams, USEBIO 1.0/1.1,
point-a-board teams, PBN rows ranked ``-``, names joined with ``/`` or `` - ``, Ruter's ``TotalScoreMP``,
multi-centre and multi-section fields, and Danish 8-bit files.

As in test_samples.py, every expected value was read off the file by hand (the samples in
../shared/samples, or the project's fixtures in tests/tournaments/data written from the format's
description), never produced by the importer.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

from tournaments.importers import CENTRAL_EUROPEAN, WESTERN_EUROPEAN, parse_results

D = Decimal

# --- TeamsScorer: 10 teams, 3-board matches, each listed once, ROUND_NUMBER = the listing team's own count ---

#: (round as written, team, opponent, first board, last board, team VP, opponent VP): the 40 MATCH elements.
TEAMSSCORER_MATCHES = [
    ("1", "1", "3", 1, 3, 12, 8), ("2", "1", "5", 4, 6, 2, 18), ("3", "1", "8", 7, 9, 2, 18),
    ("4", "1", "10", 10, 12, 0, 20), ("5", "1", "2", 13, 15, 2, 18), ("6", "1", "4", 16, 18, 15, 5),
    ("7", "1", "7", 22, 24, 5, 15), ("8", "1", "9", 25, 27, 17, 3), ("1", "2", "4", 4, 6, 13, 7),
    ("2", "2", "6", 7, 9, 11, 9), ("3", "2", "9", 10, 12, 0, 20), ("5", "2", "3", 16, 18, 6, 14),
    ("6", "2", "5", 19, 21, 15, 5), ("7", "2", "8", 25, 27, 14, 6), ("8", "2", "10", 28, 30, 2, 18),
    ("1", "3", "5", 7, 9, 6, 14), ("2", "3", "7", 10, 12, 0, 20), ("3", "3", "10", 13, 15, 7, 13),
    ("5", "3", "4", 19, 21, 18, 2), ("6", "3", "6", 22, 24, 5, 15), ("7", "3", "9", 28, 30, 17, 3),
    ("1", "4", "6", 10, 12, 16, 4), ("2", "4", "8", 13, 15, 6, 14), ("5", "4", "5", 22, 24, 10, 10),
    ("6", "4", "7", 25, 27, 8, 12), ("7", "4", "10", 1, 3, 13, 7), ("1", "5", "7", 13, 15, 8, 12),
    ("2", "5", "9", 16, 18, 5, 15), ("5", "5", "6", 25, 27, 20, 0), ("6", "5", "8", 28, 30, 13, 7),
    ("1", "6", "8", 16, 18, 7, 13), ("2", "6", "10", 19, 21, 4, 16), ("5", "6", "7", 28, 30, 15, 5),
    ("6", "6", "9", 1, 3, 19, 1), ("1", "7", "9", 19, 21, 17, 3), ("5", "7", "8", 1, 3, 7, 13),
    ("6", "7", "10", 4, 6, 0, 20), ("1", "8", "10", 22, 24, 4, 16), ("5", "8", "9", 4, 6, 3, 17),
    ("5", "9", "10", 7, 9, 11, 9),
]  # fmt: skip
#: team -> (PLACE as written, TOTAL_SCORE in VP)
TEAMSSCORER_TEAMS = {
    "10": ("1", 119), "5": ("2", 93), "7": ("3", 88), "2": ("4", 79), "8": ("5", 78),
    "3": ("6", 75), "6": ("7=", 73), "9": ("7=", 73), "4": ("9", 67), "1": ("10", 55),
}  # fmt: skip


def test_teamsscorer_teams_read_every_match_by_its_board_range_instead_of_refusing_20_duplicates(sample):
    result = parse_results(sample("usebio_teamsscorer_multiple_teams.xml"), "teams.xml")
    assert not result.has_errors, result.codes
    assert result.codes == ["ELEMENTS_IGNORED"]  # PAIRWISE_SCORING_METHOD, TEAM_PAIRING_AVAILABLE
    event = result.event
    assert (event.form, event.scoring, event.board_scoring, event.match_scoring) == ("teams", "VP", "IMP", "VP")
    assert (event.program, event.dialect, event.date, event.club_number) == (
        "TeamsScorer 5.1.17",
        "teamsscorer",
        datetime.date(2015, 10, 22),
        "00987654",
    )
    assert event.boards_declared == 24
    read = [(m.round, m.team, m.opponent, m.start_board, m.end_board, m.vp, m.opponent_vp) for m in event.matches]
    assert read == [(r, t, o, s, e, D(v), D(w)) for r, t, o, s, e, v, w in TEAMSSCORER_MATCHES]
    assert all((m.boards, m.scoring, m.score, m.session) == (3, "VP", m.vp, "1") for m in event.matches)
    assert len({m.key for m in event.matches}) == 40
    # The totals are the sums of each team's match VPs (as read by hand above) - and what the file says.
    for team, (_place, total) in TEAMSSCORER_TEAMS.items():
        own = sum(v for _r, t, _o, _s, _e, v, _w in TEAMSSCORER_MATCHES if t == team)
        against = sum(w for _r, _t, o, _s, _e, _v, w in TEAMSSCORER_MATCHES if o == team)
        assert own + against == total, team
    # IMPs summed from the boards' net IMPS (board 1: 0, 2: +8, 3: -6; boards 4-6: -2, -12, 0).
    assert [(m.imps, m.opponent_imps) for m in event.matches[:2]] == [(D(8), D(6)), (D(0), D(14))]


def test_teamsscorer_teams_give_places_the_players_of_each_team_and_the_boards_each_pair_played(sample):
    event = parse_results(sample("usebio_teamsscorer_multiple_teams.xml"), "teams.xml").event
    (group,) = event.groups
    assert group.key == "1/-/-" and group.field_size == 10
    assert {e.number: (e.place_in_file, int(e.score)) for e in group.entries} == TEAMSSCORER_TEAMS
    assert {e.number: (e.place_first, e.place_last) for e in group.entries if e.tied} == {"6": (7, 8), "9": (7, 8)}
    teams = {e.number: e for e in group.entries}
    assert [(p.name, p.national_id, p.pair, p.boards_played, p.home_club) for p in teams["1"].players] == [
        ("Dexter Jones", "800001", "1-1-2", 24, "132"),
        ("Brian Hollies", "800002", "1-1-2", 24, "124"),
        ("Engelbert Foop", "800003", "1-3-4", 24, "35"),
        ("Shania Pillow", "800004", "1-3-4", 24, "126"),
    ]
    for number in map(str, range(1, 11)):
        team = teams[number]
        assert [p.national_id for p in team.players] == [str(800000 + 4 * (int(number) - 1) + k) for k in (1, 2, 3, 4)]
        assert [p.pair for p in team.players] == [f"{number}-1-2"] * 2 + [f"{number}-3-4"] * 2
        assert {p.boards_played for p in team.players} == {24}  # PAIR/BOARDS_PLAYED
        assert team.boards_played == 24  # eight 3-board matches
    # Every match's travellers name both pairs of both teams on all three boards.
    first = event.matches[0]
    assert [(p.team, p.pair, p.boards) for p in first.lineup] == [
        ("1", "1-1-2", 3), ("1", "1-3-4", 3), ("3", "3-1-2", 3), ("3", "3-3-4", 3),
    ]  # fmt: skip
    assert all(len(m.lineup) == 4 and {p.boards for p in m.lineup} == {3} for m in event.matches)


# --- Point-a-board teams (EBUScore Teams), a fixture written from the dialect -----------------------------


def test_point_a_board_teams_are_board_points_not_imps(data):
    result = parse_results(data("usebio_pab_teams.xml"), "pab.xml")
    assert result.codes == []
    event = result.event
    assert (event.scoring, event.board_scoring, event.match_scoring) == ("BAM", "BAM", "BAM")
    (group,) = event.groups
    # totals: Aces 5+7+3 = 15, Kings 3+2+6 = 11, Queens 3+1+2 = 6, Jacks 5+6+5 = 16 board points
    assert [(e.number, e.name, e.place_first, e.score) for e in group.entries] == [
        ("4", "Jacks", 1, D(16)), ("1", "Aces", 2, D(15)), ("2", "Kings", 3, D(11)), ("3", "Queens", 4, D(6)),
    ]  # fmt: skip
    assert [(m.team, m.opponent, m.start_board, m.end_board, m.score, m.opponent_score) for m in event.matches] == [
        ("1", "2", 1, 4, D(5), D(3)), ("3", "4", 1, 4, D(3), D(5)), ("1", "3", 5, 8, D(7), D(1)),
        ("2", "4", 5, 8, D(2), D(6)), ("1", "4", 9, 12, D(3), D(5)), ("2", "3", 9, 12, D(6), D(2)),
    ]  # fmt: skip
    for match in event.matches:
        assert (match.scoring, match.points_per_board, match.boards) == ("BAM", D(2), 4)
        assert (match.imps, match.opponent_imps, match.vp, match.opponent_vp) == (None, None, None, None)
    assert {p.boards_played for e in group.entries for p in e.players} == {12}


def test_board_points_without_match_scores_are_summed_from_the_boards_team_points(data):
    text = data("usebio_pab_teams.xml").replace(b"<TEAM_SCORE>5</TEAM_SCORE>", b"")
    text = text.replace(b"<OPPOSING_TEAM_SCORE>3</OPPOSING_TEAM_SCORE>", b"")
    first = parse_results(text, "pab.xml").event.matches[0]
    assert (first.score, first.opponent_score) == (D(5), D(3))  # boards 1-4: 2+2+1+0 and 0+0+1+2


# --- USEBIO 1.1 individual (EBU P2P) and 1.0 pairs -----------------------------------------------------

#: PLAYER_NUMBER -> (PLACE as written, PERCENTAGE, NATIONAL_ID_NUMBER or None)
P2P_PLAYERS = {
    "1": ("1", "63.64", None), "7": ("2", "61.36", None), "8": ("3=", "57.95", "956840"),
    "9": ("3=", "57.95", "901738"), "4": ("5", "54.55", "902990"), "3": ("6=", "50.00", "926625"),
    "6": ("6=", "50.00", "927691"), "11": ("8", "46.59", None), "10": ("9", "45.45", None),
    "2": ("10", "39.77", "992228"), "5": ("11=", "36.36", "901436"), "12": ("11=", "36.36", None),
}  # fmt: skip


def test_usebio_1_1_individual_counts_each_players_boards_from_the_seats_the_travellers_name(sample):
    result = parse_results(sample("usebio_p2p_individual_v1_1.xml"), "individual.xml")
    assert not result.has_errors
    event = result.event
    assert (event.version, event.form, event.scoring, event.club_number) == ("1.1", "individual", "MP", "509990")
    (group,) = event.groups
    assert group.field_size == 12
    read = {e.number: (e.place_in_file, str(e.percentage), e.players[0].national_id) for e in group.entries}
    assert read == P2P_PLAYERS
    # 22 boards of 6 tables; players 1-12 sit N or E on every board (11 and 12 are named as S/W too): 22 each,
    # which matches the percentages (63.64 % = 56 of 22 × 4).
    assert {e.number: e.boards_played for e in group.entries} == {n: 22 for n in P2P_PLAYERS}
    assert {e.players[0].boards_played for e in group.entries} == {22}
    assert event.boards_played == 22
    unknown = next(i for i in result.issues if i.code == "TRAVELLER_NUMBERS_UNKNOWN")
    assert unknown.params["count"] == 21  # the S/W numbers 21, 22, 31 ... 112, 121 ("not a realistic movement")
    assert unknown.params["numbers"].startswith("21, 22, 31, 32, 41, 42")
    missing = next(i for i in result.issues if i.code == "USEBIO_CONTENT_MISSING")
    assert (missing.severity, missing.params["version"], missing.params["elements"]) == (
        "info",
        "1.1",
        "BOARDS_PLAYED, PROGRAM_NAME",
    )
    assert "counted from the travellers" in str(missing.message)
    assert sorted(result.codes) == ["ID_MISSING"] * 5 + ["TRAVELLER_NUMBERS_UNKNOWN", "USEBIO_CONTENT_MISSING"]


def test_usebio_1_0_without_places_scores_or_names_is_ranked_on_the_travellers_match_points(data):
    result = parse_results(data("usebio_v1_0_pairs_no_results.xml"), "p2p.xml")
    assert not result.has_errors, result.codes
    event = result.event
    assert (event.version, event.form, event.date, event.program) == ("1.0", "pairs", datetime.date(2025, 3, 11), None)
    (group,) = event.groups
    assert group.ranked_by == "score"
    # 6 boards, top 2 per line: 1-iv 2+1+2+2+2+1 = 10 of 12, 1-i 8, 1-ii 5, 1-iii 1
    assert [(e.number, e.place_first, e.score, e.percentage, e.boards_played) for e in group.entries] == [
        ("1-iv", 1, D(10), D("83.33"), 6),
        ("1-i", 2, D(8), D("66.67"), 6),
        ("1-ii", 3, D(5), D("41.67"), 6),
        ("1-iii", 4, D(1), D("8.33"), 6),
    ]
    assert [p.national_id for p in group.entries[3].players] == ["61005", "88888888"]  # the EBU guest number
    assert [(e.number, [a.amount for a in e.supplied_awards]) for e in group.entries[:2]] == [
        ("1-iv", [D(6)]),
        ("1-i", [D(4)]),
    ]
    missing = next(i for i in result.issues if i.code == "USEBIO_CONTENT_MISSING")
    assert missing.params["elements"] == "PLACE, TOTAL_SCORE/PERCENTAGE, PLAYER_NAME, BOARDS_PLAYED, PROGRAM_NAME"
    assert "computed from the travellers' match points" in str(missing.message)
    assert sorted(set(result.codes)) == [
        "EVENT_NAME_MISSING",
        "NAME_MISSING",
        "PLACE_MISSING",
        "USEBIO_CONTENT_MISSING",
    ]


# --- PBN: rows ranked "-", names with "/" and " - ", TotalScoreMP -----------------------------------------

#: The 33 PairIds of the rows ranked "-", in the table's order (grep '^ *- ').
FFT_UNRANKED = [
    "584", "211", "329", "148", "430", "361", "206", "511", "164", "84", "490", "365", "301", "591", "433", "562",
    "506", "409", "243", "551", "13", "447", "548", "423", "166", "443", "464", "330", "126", "564", "161", "201",
    "129",
]  # fmt: skip


def test_pbn_rows_ranked_dash_are_left_out_by_name_and_the_rest_of_the_multicentre_field_is_ranked(sample):
    result = parse_results(sample("pbn_fft_9901_multicentre.pbn"), "fft.pbn")
    assert not result.has_errors, result.codes
    assert sorted(result.codes) == [
        "BOARDS_DECLARED_DIFFER", "ENTRIES_UNRANKED", "EVENT_TYPE_MISSING", "GROUPS_DECIDED", "PBN_ID_COLUMN_MISSING",
    ]  # fmt: skip
    # 40 boards have score tables; the centres played parts of them, NrBoards at most 35: the score tables count
    boards = next(i for i in result.issues if i.code == "BOARDS_DECLARED_DIFFER")
    assert (boards.variant, boards.params) == ("nrboards", {"declared": 35, "counted": 40})
    assert (result.event.boards_played, result.event.boards_declared) == (40, 35)
    (group,) = result.event.groups
    assert group.key == "-/-/-" and group.field_size == 356 - 33
    unranked = next(i for i in result.issues if i.code == "ENTRIES_UNRANKED")
    assert unranked.variant == "moved" and unranked.params["count"] == 33
    assert unranked.params["numbers"].split(", ") == FFT_UNRANKED
    assert unranked.params["entries"].startswith("584 (Eugeni ZEMLYANKIN - Marina ZEMLYANKINA); 211 (Budi GUNAWAN")
    assert not {e.number for e in group.entries} & set(FFT_UNRANKED)
    # The file counts the unranked rows in its ranks (64, -, 66): the pairs below them move up.
    assert [e.place_first for e in group.entries] == list(range(1, 324))
    by_number = {e.number: e for e in group.entries}
    assert (by_number["143"].place_in_file, by_number["143"].place_first) == ("64", 64)
    assert (by_number["205"].place_in_file, by_number["205"].place_first) == ("66", 65)
    assert (by_number["5"].place_in_file, by_number["5"].place_first) == ("356", 323)
    first = by_number["581"]
    assert (first.centre, first.boards_played, first.percentage, first.score) == ("OMS", 20, D("72.49"), D("1449.8"))
    assert [p.name for p in first.players] == ["Sergey OSTRIKOV", "Oleg ODINTSEV"]
    assert by_number["226"].boards_played == 6  # NrBoards differs per pair (UFA)
    decided = next(i for i in result.issues if i.code == "GROUPS_DECIDED")
    assert (decided.variant, decided.params["count"], decided.params["size"]) == ("across_centres", 18, 323)


def test_pbn_names_joined_with_a_slash_online_are_two_players(data):
    result = parse_results(data("pbn_online_slash_names.pbn"), "online.pbn")
    assert result.codes == ["PBN_ID_COLUMN_MISSING"]
    (group,) = result.event.groups
    assert [(e.number, e.place_first, [p.name for p in e.players]) for e in group.entries] == [
        ("3", 1, ["soeren_aero", "mette.h"]),
        ("1", 2, ["Ole Hansen", "kb1955"]),
        ("4", 3, ["jdahl", "Lise-Lotte Vind"]),
        ("2", 4, ["robot1", "robot2"]),
    ]
    assert group.entries[0].percentage == D("61.11")


def test_ruter_total_score_mp_is_the_score_and_names_joined_with_a_dash_are_two_players(data):
    result = parse_results(data("pbn_ruter_totalscoremp.pbn"), "ruter.pbn")
    assert result.codes == ["PBN_ID_COLUMN_USED"]
    event = result.event
    assert (event.scoring, event.program, event.date) == ("MP", "Ruter", datetime.date(2025, 3, 10))
    ns, ew = event.groups
    assert (ns.key, ew.key) == ("-/-/NS", "-/-/EW")  # ranks restart for E-W: two winners
    assert [(e.number, e.place_first, e.score, e.percentage) for e in ns.entries] == [
        ("2", 1, D(142), D("59.17")),
        ("1", 2, D(120), D("50.00")),
        ("3", 3, D(98), D("40.83")),
    ]
    assert [[(p.name, p.national_id) for p in e.players] for e in ew.entries[:2]] == [
        [("Hans Jørgen LUND", "40017"), ("Tove ØRUM", "40018")],
        [("Anne-Mette BECH", "40019"), ("Jens PRÆST", "40020")],
    ]


def test_the_ranking_tables_score_column_gives_the_scoring_when_no_scoring_tag_does():
    def pbn(header: str, row: str, competition: str = "Pairs") -> bytes:
        return (
            f'[Event "x"]\n[Date "2025.03.01"]\n[Competition "{competition}"]\n[TotalScoreTable "{header}"]\n{row}\n'
        ).encode()

    imp = parse_results(pbn("Rank;PairId;Names;TotalScoreIMP", '1 1 "A B;C D" 12\n2 2 "E F;G H" -12'), "x.pbn")
    assert (imp.event.scoring, imp.event.group("-/-/-").entries[1].score) == ("IMP", D(-12))
    bam = parse_results(pbn("Rank;TeamId;Names;TotalScoreBAM", '1 1 "Aces" 9\n2 2 "Kings" 7', "Teams"), "x.pbn")
    assert bam.event.scoring == "BAM"


def test_a_centre_column_whose_places_restart_per_centre_is_a_ranking_per_centre():
    rows = '1 1 "A B;C D" AAR 60\n2 2 "E F;G H" AAR 50\n1 11 "I J;K L" ODE 55\n2 12 "M N;O P" ODE 45\n'
    text = f'[Event "Sim"]\n[Date "2025.03.01"]\n[TotalScoreTable "Rank;PairId;Names;Center;TotalPercentage"]\n{rows}'
    result = parse_results(text.encode(), "sim.pbn")
    assert not result.has_errors
    assert [(g.key, g.field_size) for g in result.event.groups] == [("-/AAR/-", 2), ("-/ODE/-", 2)]
    decided = next(i for i in result.issues if i.code == "GROUPS_DECIDED")
    assert (decided.variant, decided.params["names"], decided.params["groups"]) == (
        "per_centre",
        "AAR, ODE",
        "AAR 2, ODE 2",
    )


# --- Danish 8-bit files -----------------------------------------------------------------------------------

DANISH = ["Søren Ærø", "Mette Højgaard", "Jørgen Ågård", "Karin Bøg", "Bjørn Præst", "Åse Sørensen"]


def test_a_latin1_danish_csv_without_bom_is_read_as_danish_not_as_cp1250(data):
    raw = data("csv_pairs_latin1_danish.csv")
    assert raw.startswith(b"event_date") and "Søren Ærø".encode("latin-1") in raw  # no BOM, 8-bit
    for preference in ({}, {"fallback_encodings": WESTERN_EUROPEAN}, {"fallback_encodings": CENTRAL_EUROPEAN}):
        result = parse_results(raw, "onsdag.csv", **preference)
        assert result.codes == ["ENCODING_GUESSED"] and result.issues[0].params == {"encoding": "cp1252"}
        names = [p.name for e in result.event.entries() for p in e.players]
        assert names[:6] == DANISH and names[6] == "André Lütken"
        assert result.event.club_name == "Bridgeklubben Ærø"
        assert result.event.encoding.guessed


def test_a_latin1_danish_xml_or_pbn_without_a_declaration_is_read_as_danish(data):
    xml = parse_results(data("usebio_latin1_danish_no_declaration.xml"), "onsdag.xml")
    assert [(i.code, i.variant, i.params) for i in xml.issues] == [("ENCODING_GUESSED", "xml", {"encoding": "cp1252"})]
    assert xml.event.name == "Onsdag i Ærøskøbing"
    assert [p.name for e in xml.event.entries() for p in e.players] == DANISH[:4]
    pbn = parse_results(data("pbn_latin1_danish_no_charset.pbn"), "onsdag.pbn")
    assert pbn.issues[0].params == {"encoding": "cp1252"}
    assert [p.name for e in pbn.event.entries() for p in e.players] == DANISH[:4]


def test_the_federations_preference_decides_when_the_letters_fit_either_encoding():
    # 0xE8 is č in cp1250 and è in cp1252: both are letters of one alphabet, so only the preference decides.
    text = "event_date;2025-03-01\nentry_no;place;player_1_id;player_1_name\n1;1;1;Ana Kova\xe8\n2;2;2;Ivo Babi\xe6\n"
    raw = text.encode("latin-1")
    croatian = parse_results(raw, "x.csv", fallback_encodings=CENTRAL_EUROPEAN)
    danish = parse_results(raw, "x.csv", fallback_encodings=WESTERN_EUROPEAN)
    assert [p.name for e in croatian.event.entries() for p in e.players] == ["Ana Kovač", "Ivo Babić"]
    assert croatian.event.encoding.encoding == "cp1250"
    assert [p.name for e in danish.event.entries() for p in e.players] == ["Ana Kovaè", "Ivo Babiæ"]
    assert danish.event.encoding.encoding == "cp1252"


def test_a_cp1250_croatian_file_stays_croatian_for_a_danish_preference(data):
    raw = data("usebio_cp1250_no_declaration.xml")
    result = parse_results(raw, "cp1250.xml", fallback_encodings=WESTERN_EUROPEAN)
    assert result.event.encoding.encoding == "cp1250"
    assert result.event.name == "Četvrtak parovi"


def test_the_encoding_the_director_chooses_decodes_the_stored_bytes_and_is_said(data):
    raw = data("csv_pairs_latin1_danish.csv")
    result = parse_results(raw, "onsdag.csv", encoding="cp1250")
    assert [(i.code, i.severity, i.params) for i in result.issues] == [
        ("ENCODING_CHOSEN", "info", {"encoding": "cp1250"})
    ]
    assert result.event.encoding.method == "chosen" and not result.event.encoding.guessed
    assert result.event.group("-/-/-").entries[0].players[0].name == "Sřren Ćrř"  # what was asked for
    back = parse_results(raw, "onsdag.csv", encoding="latin-1")
    assert back.event.group("-/-/-").entries[0].players[0].name == "Søren Ærø"
    # A declaration does not override the choice (a file declared utf-8 that is really Latin-1).
    xml = data("usebio_latin1_danish_no_declaration.xml").replace(
        b'<?xml version="1.0"?>', b'<?xml version="1.0" encoding="utf-8"?>'
    )
    chosen = parse_results(xml, "onsdag.xml", encoding="iso-8859-1")
    assert chosen.codes == ["ENCODING_CHOSEN"] and chosen.event.name == "Onsdag i Ærøskøbing"
    assert chosen.event.encoding.declared == "utf-8"


def test_an_unknown_chosen_encoding_is_reported_and_the_file_read_as_usual(data):
    result = parse_results(data("csv_pairs_latin1_danish.csv"), "onsdag.csv", encoding="klingon-8")
    issue = result.issues[0]
    assert (issue.code, issue.variant, issue.severity, issue.params) == (
        "ENCODING_CHOSEN",
        "unknown",
        "warning",
        {"chosen": "klingon-8", "encoding": "cp1252"},
    )
    assert result.event.group("-/-/-").entries[0].players[0].name == "Søren Ærø"


def test_point_a_board_matches_in_our_csv_template_are_board_points():
    text = (
        "event_date;2025-03-04\nevent_type;teams\nscoring;PAB\n"
        "team_no;place;score;player_1_id;player_1_name;player_2_id;player_2_name;player_3_id;player_3_name;"
        "player_4_id;player_4_name\n"
        "1;1;5;1;A;2;B;3;C;4;D\n2;2;3;5;E;6;F;7;G;8;H\n"
        "round;team_no;opponent_no;points;opponent_points;boards\n1;1;2;5;3;4\n"
    )
    event = parse_results(text.encode(), "pab.csv").event
    assert (event.scoring, event.match_scoring) == ("BAM", "BAM")
    (match,) = event.matches
    assert (match.scoring, match.score, match.opponent_score, match.points_per_board, match.imps) == (
        "BAM",
        D(5),
        D(3),
        D(2),
        None,
    )


def test_a_number_longer_than_any_score_is_not_read_as_one(data):
    text = data("usebio_pab_teams.xml").replace(
        b"<TOTAL_SCORE>15</TOTAL_SCORE>", b"<TOTAL_SCORE>" + b"9" * 40 + b"</TOTAL_SCORE>"
    )
    result = parse_results(text, "big.xml")
    assert "SCORE_UNPARSEABLE" in result.codes


def test_a_board_range_out_of_bounds_is_reported_and_not_used(data):
    text = data("usebio_pab_teams.xml").replace(
        b"<END_BOARD_NUMBER>4</END_BOARD_NUMBER>", b"<END_BOARD_NUMBER>999999</END_BOARD_NUMBER>", 1
    )
    result = parse_results(text, "range.xml")
    assert "SCORE_UNPARSEABLE" in result.codes
    first = result.event.matches[0]
    assert (first.start_board, first.end_board, first.boards) == (None, None, 4)  # the four BOARD children
