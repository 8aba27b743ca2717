"""H-28, rule 6 in a long-running team competition on the real upload path: the 33 % is judged once over the
competition, not match by match. A USEBIO team file whose matches' travellers give the line-ups (H-18)."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from federation.models import Player, RuleSet
from masterpoints.models import Award
from masterpoints.uploads.services import results_upload_confirm, results_upload_create

#: Team 1's pairs and the boards each played in each round (16 a round); the other teams two pairs, every board.
TEAM_1 = {"1-1-2": (16, 16, 16), "1-3-4": (16, 16, 0), "1-5-6": (0, 0, 8), "1-7-8": (0, 0, 8)}
ROUNDS = (((1, 2), (3, 4)), ((1, 3), (2, 4)), ((1, 4), (2, 3)))  # the first team of each pair wins


def number(pair: str, seat: int) -> str:
    team, first, second = pair.split("-")
    return f"30{team}{(first, second)[seat]:0>2}"


def pairs_of(team: int) -> dict[str, tuple[int, int, int]]:
    return TEAM_1 if team == 1 else {f"{team}-1-2": (16, 16, 16), f"{team}-3-4": (16, 16, 16)}


def seated(team: int, round_index: int, board: int) -> tuple[str, str]:
    """The team's two pairs at ``board`` (0–15) of the round: its pairs in the order given, each for its boards."""
    slots = []
    for pair, boards in pairs_of(team).items():
        slots += [pair] * boards[round_index]
    return slots[board], slots[16 + board]


def league_file() -> bytes:
    out = [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<USEBIO Version="1.2">',
        "<CLUB><CLUB_NAME>BK Zagreb</CLUB_NAME><CLUB_ID_NUMBER>101</CLUB_ID_NUMBER></CLUB>",
        '<EVENT EVENT_TYPE="TEAMS">',
        "<BOARD_SCORING_METHOD>IMPS</BOARD_SCORING_METHOD><MATCH_SCORING_METHOD>VPS</MATCH_SCORING_METHOD>",
        "<PROGRAM_NAME>synthetic</PROGRAM_NAME><EVENT_DESCRIPTION>Liga 2025</EVENT_DESCRIPTION>",
        f"<DATE>{datetime.date(2025, 5, 10):%d/%m/%Y}</DATE><BOARDS_PLAYED>48</BOARDS_PLAYED>",
        '<SESSION SESSION_ID="1"><PARTICIPANTS>',
    ]
    for team in (1, 2, 3, 4):
        out.append(f'<TEAM TEAM_ID="{team}" TEAM_NAME="Tim {team}"><TOTAL_SCORE>{60 - 10 * team}</TOTAL_SCORE>')
        out.append(f"<PLACE>{team}</PLACE><BOARDS_PLAYED>48</BOARDS_PLAYED>")
        for pair, boards in pairs_of(team).items():
            out.append(f"<PAIR><PAIR_NUMBER>{pair}</PAIR_NUMBER><BOARDS_PLAYED>{sum(boards)}</BOARDS_PLAYED>")
            for seat in (0, 1):
                player = number(pair, seat)
                out.append(f"<PLAYER><PLAYER_NAME>T {player}</PLAYER_NAME>")
                out.append(f"<NATIONAL_ID_NUMBER>{player}</NATIONAL_ID_NUMBER></PLAYER>")
            out.append("</PAIR>")
        out.append("</TEAM>")
    out.append("</PARTICIPANTS>")
    for r, matches in enumerate(ROUNDS):
        for home, away in matches:
            out.append(f"<MATCH><ROUND_NUMBER>{r + 1}</ROUND_NUMBER><TEAM>{home}</TEAM>")
            out.append(f"<OPPOSING_TEAM>{away}</OPPOSING_TEAM>")
            out.append(f"<START_BOARD_NUMBER>{16 * r + 1}</START_BOARD_NUMBER>")
            out.append(f"<END_BOARD_NUMBER>{16 * r + 16}</END_BOARD_NUMBER>")
            out.append("<TEAM_VICTORY_POINTS>15</TEAM_VICTORY_POINTS>")
            out.append("<OPPOSING_TEAM_VICTORY_POINTS>5</OPPOSING_TEAM_VICTORY_POINTS>")
            for board in range(16):
                (h_open, h_closed), (a_open, a_closed) = seated(home, r, board), seated(away, r, board)
                out.append(f"<BOARD><BOARD_NUMBER>{16 * r + board + 1}</BOARD_NUMBER>")
                for ns, ew in ((h_open, a_closed), (a_open, h_closed)):
                    out.append(
                        f"<TRAVELLER_LINE><NS_PAIR_NUMBER>{ns}</NS_PAIR_NUMBER><EW_PAIR_NUMBER>{ew}</EW_PAIR_NUMBER>"
                        "<SCORE>420</SCORE></TRAVELLER_LINE>"
                    )
                out.append("</BOARD>")
            out.append("</MATCH>")
    out += ["</SESSION>", "</EVENT>", "</USEBIO>"]
    return "\n".join(out).encode()


@pytest.fixture
def league(world):
    for team in (1, 2, 3, 4):
        for pair in pairs_of(team):
            for seat in (0, 1):
                player = number(pair, seat)
                Player.objects.create(federation=world.hbs, number=player, first_name="T", last_name=player)
    return league_file()


def confirm(world, data: bytes):
    facts = {"organiser_kind": "club", "category": "black", "strength": "1", "nature": "long_running", "boards": None}
    upload = results_upload_create(
        actor=None,
        federation=world.hbs,
        club=world.club_hr,
        region=None,
        data=data,
        filename="liga.xml",
        facts=facts,
        trusted=True,
    )
    return results_upload_confirm(actor=None, upload=upload, acknowledge_warnings=True, trusted=True)


def wins(player: str) -> list[int]:
    awards = Award.objects.filter(player__number=player, part__startswith="match").order_by("part")
    return list(awards.values_list("units", flat=True))


def total(player: str) -> int:
    return sum(Award.objects.filter(player__number=player).values_list("units", flat=True))


def test_rule_6_is_judged_over_the_competition_h_28(client, world, league, django_capture_on_commit_callbacks):
    """Rule 6: "Da bi ostvario pravo na bodovanje u timskim natjecanjima, igrač mora sudjelovati u barem 33%
    djeljenja." Team 1 won its three 16-board matches (2 each, H-5) and placed first (N = 4, D = 48: 16).
    Pair 1-3-4 played 32 of 48 boards, none of round 3: it scores all three wins and the placing (22), as
    1-1-2 does. Pair 1-5-6 played 8 of round 3's 16 boards (50 % of the match, 16.7 % of the competition): no
    win and no placing (match by match it was paid round 3's win). The ledger and the player's page say so."""
    with django_capture_on_commit_callbacks(execute=True):
        confirm(world, league)
    assert wins("30101") == wins("30103") == [2, 2, 2]
    assert total("30101") == total("30103") == 22
    assert total("30105") == total("30107") == 0
    page = client.get(reverse("public:player", args=[world.hbs.code, "30103"])).content.decode()
    assert "<dt>black</dt><dd>22</dd>" in page
    win = Award.objects.filter(player__number="30103", part__startswith="match").first()
    assert "H-28" in win.explanation_data["rules"]


def test_the_former_reading_per_match_is_a_rule_set_value_h_28(world, league):
    """With the rule set's team_share_basis "match" each won match is judged by its line-up (H-18): 1-3-4 loses
    round 3's win (0 of its boards), 1-5-6 gets it (8 of 16), still without the placing (8 of 48)."""
    RuleSet.objects.create(
        federation=world.hbs,
        valid_from=datetime.date(2025, 1, 1),
        name="per match",
        payload={"team_share_basis": "match"},
    )
    confirm(world, league)
    assert total("30103") == 2 + 2 + 16
    assert total("30105") == 2
