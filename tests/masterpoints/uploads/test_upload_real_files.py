"""Real files through the real upload: a DBf club's TeamsScorer team event (USEBIO 1.2 TEAMS, the sample in
../shared/samples), uploaded with ``results_upload_create`` and confirmed with ``results_upload_confirm``.

The sample is adapted only where a DBf upload must differ: the club number (a demo club of the ``world``
fixture), the date (one a DBf rule set covers) and the members (the file's 800001-800040 registered here).
The expected awards are computed with the engine directly, from the matches and places read off the file by
hand (``tests/tournaments/importers/test_dialects.py``): one award per player per match (§ 406A, § 411B: VP
≥ 14 win, 6.01-13.99 draw) and, for BP, the bonus for the final placing (§ 412B).

The event is 10 teams playing eight 3-board matches in one session: by § 421A a *minihold* (more than two
matches per playing day, each of 2-11 boards). No file says so: left to the file, the matches decide and it is
scored as mini-teams (one award on the final placing, § 406B, § 422; D-Q61); a director who declares ``teams``
has it scored per match, with the warning FORM_CONTRADICTS_MATCHES naming § 421A.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import pytest

from federation.rulesets import rules_for
from masterpoints.engine.dbf import events as dbf_events
from masterpoints.engine.dbf import team_events as dbf_teams
from masterpoints.engine.dbf.rules import DBF_2023
from masterpoints.engine.dbf.teams import TeamMatchRequest, team_match
from masterpoints.models import Award
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import results_upload_confirm, results_upload_create
from tests.factories import make_players
from tests.tournaments.importers.test_dialects import TEAMSSCORER_MATCHES, TEAMSSCORER_TEAMS

DATA = Path(__file__).resolve().parents[2] / "tournaments" / "data"

SAMPLE = "usebio_teamsscorer_multiple_teams.xml"
DAY = datetime.date(2025, 3, 5)
NUMBERS = [str(800001 + i) for i in range(40)]


def team_numbers(team: str) -> list[str]:
    """The file's four players of a team, in order: team t has 800001 + 4(t - 1) ... (read by hand)."""
    first = 800001 + 4 * (int(team) - 1)
    return [str(first + k) for k in range(4)]


def places(team: str) -> tuple[int, int]:
    written = TEAMSSCORER_TEAMS[team][0]
    first = int(written.rstrip("="))
    tied = sum(1 for place, _score in TEAMSSCORER_TEAMS.values() if place == written)
    return first, first + tied - 1


@pytest.fixture
def teams_file(samples, world) -> bytes:
    data = (samples / SAMPLE).read_bytes()
    data = data.replace(
        b"<CLUB_ID_NUMBER>00987654</CLUB_ID_NUMBER>", f"<CLUB_ID_NUMBER>{world.club_a.number}</CLUB_ID_NUMBER>".encode()
    )
    assert b"<DATE>22/10/2015</DATE>" in data
    return data.replace(b"<DATE>22/10/2015</DATE>", DAY.strftime("<DATE>%d/%m/%Y</DATE>").encode())


def upload(world, personas, data: bytes, form: str = ""):
    make_players(world.dbf, NUMBERS)
    return results_upload_create(
        actor=personas.director_a,
        federation=world.dbf,
        club=world.club_a,
        region=None,
        data=data,
        filename="teamsscorer.xml",
        facts={"organiser_kind": "club", "category": "BP", "form": form, "boards": None},
    )


def expected_team_awards(world) -> tuple[dict[str, list[int]], dict[str, int]]:
    """Per player: the units of each match award (sorted) and of the placing bonus, from the engine."""
    matches = tuple(
        dbf_teams.Match(
            key=f"{start}-{end}:{team}-{opponent}",
            boards=3,
            home=dbf_teams.TeamSide(team, tuple(dbf_events.Player(n, 3) for n in team_numbers(team)), vp=Fraction(vp)),
            away=dbf_teams.TeamSide(
                opponent, tuple(dbf_events.Player(n, 3) for n in team_numbers(opponent)), vp=Fraction(other)
            ),
        )
        for _round, team, opponent, start, end, vp, other in TEAMSSCORER_MATCHES
    )
    standing = dbf_teams.Standing(
        key="session",
        teams=10,
        matches=8,  # K: each team's matches (40 matches × 2 sides / 10 teams)
        boards=3,
        format="monrad",  # § 405A5: each team met 8 of the 9 others, so the bonus is as for 9 teams
        entries=tuple(
            dbf_events.Entry(
                entry=team,
                first=places(team)[0],
                last=places(team)[1],
                planned_boards=24,
                players=tuple(dbf_events.Player(n, 24) for n in team_numbers(team)),
            )
            for team in TEAMSSCORER_TEAMS
        ),
    )
    event = dbf_teams.TeamEvent(category="BP", table="bp", matches=matches, standings=(standing,))
    per_match: dict[str, list[int]] = defaultdict(list)
    bonus: dict[str, int] = defaultdict(int)
    for award in dbf_teams.team_event_awards(event, rules_for(world.dbf, DAY)):
        if award.part.startswith("bonus/"):
            bonus[award.player] += award.units
        elif award.units:
            per_match[award.player].append(award.units)
    return {n: sorted(units) for n, units in per_match.items()}, {n: u for n, u in bonus.items() if u}


def ledger(world) -> tuple[dict[str, list[int]], dict[str, int]]:
    per_match: dict[str, list[int]] = defaultdict(list)
    bonus: dict[str, int] = defaultdict(int)
    for number, part, kind, units in Award.objects.filter(federation=world.dbf).values_list(
        "player__number", "part", "kind", "units"
    ):
        assert kind == "BP"
        if part.startswith("bonus"):
            bonus[number] += units
        else:
            per_match[number].append(units)
    return {n: sorted(units) for n, units in per_match.items()}, dict(bonus)


def test_a_dbf_director_uploads_the_teamsscorer_file_and_the_ledger_holds_each_matchs_team_awards(
    world, personas, teams_file
):
    created = upload(world, personas, teams_file, form="teams")
    preview = build_preview(created)
    assert [(i.code, str(i.message)) for i in preview.issues if i.severity == "error"] == []
    assert "FORM_CONTRADICTS_MATCHES" in {i.code for i in preview.issues}  # § 421A, D-Q61
    assert preview.unresolved == []
    assert preview.event.form == "teams" and len(preview.event.matches) == 40
    results_upload_confirm(actor=personas.director_a, upload=created, acknowledge_warnings=True)
    matches, bonus = ledger(world)
    expected_matches, expected_bonus = expected_team_awards(world)
    assert matches == expected_matches
    assert bonus == expected_bonus
    # By hand from the table: team 10 (1st) scored 20, 18, 13, 7, 16, 20, 16 and 9 VP: five wins (≥ 14) and
    # three draws (6.01-13.99), no loss; a 3-board match is rated 3/24 of a full one, so a win pays 2 BP and a
    # draw 1 BP, each rounded up per player and match (D-Q13).
    ten = team_numbers("10")[0]
    assert matches[ten] == [1, 1, 1, 2, 2, 2, 2, 2]
    assert bonus[ten] > 0 and ten in expected_bonus
    # Team 1 (last): 12, 2, 2, 0, 2, 15, 5, 17 VP: two wins, one draw; no bonus (p_max = ⌈9/3⌉ = 3, § 405A5).
    one = team_numbers("1")[0]
    assert matches[one] == [1, 2, 2] and one not in bonus


def test_the_same_file_as_mini_teams_pays_one_award_on_the_final_placing_421(world, personas, teams_file):
    """§ 421A: more than two matches a playing day of 2-11 boards is a minihold, scored by § 406B on the
    placing (no match awards, no bonus) - but only when the director says so (form ``minihold``)."""
    created = upload(world, personas, teams_file, form="minihold")
    preview = build_preview(created)
    assert [i.code for i in preview.issues if i.severity == "error"] == []
    results_upload_confirm(actor=personas.director_a, upload=created, acknowledge_warnings=True)
    awards = dict(Award.objects.filter(federation=world.dbf).values_list("player__number", "units"))
    section = dbf_events.Section(
        key="1/-/-",
        participants=10,
        boards=24,
        entries=tuple(
            dbf_events.Entry(
                entry=team,
                first=places(team)[0],
                last=places(team)[1],
                players=tuple(dbf_events.Player(n, 24) for n in team_numbers(team)),
            )
            for team in TEAMSSCORER_TEAMS
        ),
    )
    event = dbf_events.PairEvent(form="minihold", category="BP", parts=(dbf_events.Part(key="", sections=(section,)),))
    expected = {a.player: a.units for a in dbf_events.pair_event_awards(event, rules_for(world.dbf, DAY)) if a.units}
    assert awards == expected
    assert Award.objects.filter(federation=world.dbf).count() == len(expected)  # one award per player, no matches
    assert max(awards.values()) == awards[team_numbers("10")[0]]


def test_a_point_a_board_team_file_confirms_with_each_match_scored_by_its_board_points_411c(world, personas):
    """EBUScore's PAB teams: board points (2 a board won) are the match result, classified as BAM scores
    (§ 411C: win from 62.5 % of the achievable points); before, the upload refused it for want of VP."""
    data = (DATA / "usebio_pab_teams.xml").read_bytes()
    data = data.replace(
        b"<CLUB_ID_NUMBER>1001</CLUB_ID_NUMBER>", f"<CLUB_ID_NUMBER>{world.club_a.number}</CLUB_ID_NUMBER>".encode()
    )
    make_players(world.dbf, [str(51001 + i) for i in range(16)])
    created = results_upload_create(
        actor=personas.director_a,
        federation=world.dbf,
        club=world.club_a,
        region=None,
        data=data,
        filename="pab.xml",
        # Four-board matches make a mini-team event (§ 421A, D-Q61): declared as teams, to test the match path.
        facts={"organiser_kind": "club", "category": "BP", "form": "teams", "boards": None},
    )
    preview = build_preview(created)
    assert not preview.has_errors, [issue.code for issue in preview.issues]
    results_upload_confirm(actor=personas.director_a, upload=created, acknowledge_warnings=True)
    # Round 1, boards 1-4: the first listed team won 5-3 of 8 board points (62.5 %: a win by § 411C).
    win = team_match(
        TeamMatchRequest(category="BP", value=DBF_2023.team_table("bp").random, boards=4, bam_score=Fraction(5))
    )
    match_awards = Award.objects.filter(tournament__upload=created, source=Award.Source.RESULT).exclude(part="")
    assert match_awards.exists()
    assert win.units in set(match_awards.values_list("units", flat=True))
