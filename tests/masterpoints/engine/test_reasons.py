"""Why nothing (or a zero) is awarded: a code with parameters, its English text from one table of templates.

Every code of ``common.REASON_TEMPLATES`` is produced here by the engine itself, with the facts it carries,
so a page can translate it by the code (``masterpoints.engine_text``) and the CLI keeps its English ``reason``.
"""

from __future__ import annotations

import json
from dataclasses import replace
from decimal import Decimal

import pytest

from masterpoints.engine.cli import calculate
from masterpoints.engine.common import REASON_TEMPLATES, Explanation, Reason
from masterpoints.engine.dbf import ScaleRequest, TeamBonusRequest, pair_bonus_scale, scale, team_bonus
from masterpoints.engine.hbs import HBS_DRAFT, Event, EventEntry, KindAward, Match, MatchSide, Participant, event_awards
from masterpoints.engine.hbs import ScaleRequest as HbsScaleRequest
from masterpoints.engine.hbs import scale as hbs_scale


def _pairs(n: int) -> tuple[EventEntry, ...]:
    return tuple(EventEntry(f"p{k}", k, (Participant(f"p{k}-1"), Participant(f"p{k}-2"))) for k in range(1, n + 1))


def _league(boards: int, rules=HBS_DRAFT):
    """Two teams, one match won by A; a1 played every board, a2 a quarter (H-5, H-9)."""
    a = MatchSide("A", (Participant("a1", boards), Participant("a2", boards // 4)))
    b = MatchSide("B", (Participant("b1", boards),))
    entries = (EventEntry("A", 1, a.players, boards=boards), EventEntry("B", 2, b.players, boards=boards))
    event = Event(
        "teams",
        entries,
        kinds=(KindAward("black", Decimal("1")),),
        participants=3,
        long_running=True,
        matches=(Match("r1", boards, a, b, "A"),),
    )
    return [award for award in event_awards(event, rules) if award.part == "match r1"]


def _first(awards, player: str):
    return next(award for award in awards if award.player == player)


#: Each code, the engine producing it, and the parameters it must carry (the facts of the case).
PRODUCED = {
    "BP_TOO_FEW_BOARDS": (
        lambda: scale(ScaleRequest("pairs", "BP", 20, 11)).reason,
        {"boards": "11", "need": "12", "rule": "§ 405B6c"},
    ),
    "SPGP_TOO_FEW_BOARDS": (
        lambda: scale(ScaleRequest("pairs", "SP", 20, 26, organizer="district")).reason,
        {"boards": "26", "need": "27", "kind": "SP", "rule": "§ 405B7c"},
    ),
    "PAIR_BONUS_BY_HAND": (
        lambda: pair_bonus_scale(ScaleRequest("pairs", "SP", 24, 48, organizer="federation")).reason,
        {},
    ),
    "NO_BOARDS_NO_BONUS": (lambda: team_bonus(TeamBonusRequest(matches=3, boards=0, teams=8)).reason, {}),
    "B_NOT_POSITIVE": (
        lambda: (
            hbs_scale(
                HbsScaleRequest("individual", 10, 6, Decimal("1")), replace(HBS_DRAFT, nothing_when_b_nonpositive=True)
            ).reason
        ),
        {"b": "-1.0000"},
    ),
    "NO_PLACE_PAID": (
        lambda: (
            hbs_scale(
                HbsScaleRequest("teams", 1, 24, Decimal("1")),
                replace(
                    HBS_DRAFT, paid_rounding="down", minimum_fields=(("individual", 1), ("pairs", 1), ("teams", 1))
                ),
            ).reason
        ),
        {"share": "50", "n": "1", "rounding": "down"},
    ),
    "PLACE_NOT_PAID": (
        lambda: (
            hbs_scale(HbsScaleRequest("pairs", 12, 24, Decimal("1"), ranks=((1, 1), (8, 8))))
            .entries[1]
            .explanation.reason
        ),
        {"place": "8", "n": "6"},
    ),
    "TEAM_SHARE_TOO_SMALL": (
        lambda: (
            _first(
                event_awards(
                    Event(
                        "teams",
                        (
                            EventEntry("A", 1, (Participant("a1", 24), Participant("a7", 7))),
                            EventEntry("B", 2, (Participant("b1", 24),)),
                            EventEntry("C", 3, (Participant("c1", 24),)),
                        ),
                        kinds=(KindAward("black", Decimal("1")),),
                        boards=24,
                    )
                ),
                "a7",
            ).explanation.reason
        ),
        {"share": "33 %"},
    ),
    "MATCH_SHARE_TOO_SMALL": (  # the former reading of rule 6, a setting since H-28
        lambda: _first(_league(16, replace(HBS_DRAFT, team_share_basis="match")), "a2").explanation.reason,
        {"share": "33 %"},
    ),
    "MATCH_TOO_SHORT_FOR_WIN": (lambda: _first(_league(12), "a1").explanation.reason, {"boards": "12", "need": "16"}),
    "FIELD_BELOW_MINIMUM": (
        lambda: event_awards(Event("pairs", _pairs(5), boards=24))[0].explanation.reason,
        {"n": "5", "noun": "pairs", "form": "pairs", "minimum": "6"},
    ),
}


def test_every_code_of_the_table_is_produced_by_the_engine_and_nothing_else():
    assert set(PRODUCED) == set(REASON_TEMPLATES)


@pytest.mark.parametrize("code", sorted(PRODUCED))
def test_the_engine_gives_each_reason_its_code_and_the_facts_as_parameters(code):
    make, params = PRODUCED[code]
    reason = make()
    assert isinstance(reason, Reason)
    assert (reason.code, reason.values) == (code, params)
    assert all(isinstance(value, str) for value in reason.values.values())
    assert reason.text == str(reason)
    assert "{" not in reason.text


def test_the_english_text_is_the_engines_sentence_of_before():
    """The CLI's ``reason`` keeps its meaning (engine-cli.md): the templates render today's sentences."""
    texts = {code: make().text for code, (make, _) in PRODUCED.items()}
    assert texts["BP_TOO_FEW_BOARDS"] == "too few boards: 11 < 12 per playing day, no BP (§ 405B6c)"
    assert texts["SPGP_TOO_FEW_BOARDS"] == "too few boards: 26 < 27 in the tournament, no SP (§ 405B7c)"
    assert texts["PAIR_BONUS_BY_HAND"] == (
        "the § 406B2 pair bonus formula is not confirmed (D-Q15): the director enters it by hand (§ 451A)"
    )
    assert texts["NO_BOARDS_NO_BONUS"] == "no boards were played, so there is no bonus (§ 405A4)"
    assert texts["B_NOT_POSITIVE"] == "B = -1.0000 is not positive and this rule set awards nothing then (H-6 setting)"
    assert texts["NO_PLACE_PAID"] == "50 % of 1 rounded down pays no place (H-3)"
    assert texts["PLACE_NOT_PAID"] == "place 8 lies beyond the 6 paid places (H-3)"
    assert texts["TEAM_SHARE_TOO_SMALL"] == "played less than 33 % (rule 6, H-9)"
    assert texts["MATCH_SHARE_TOO_SMALL"] == "played less than 33 % of the match (H-9)"
    assert texts["MATCH_TOO_SHORT_FOR_WIN"] == "a match of 12 boards is not scored per win: it needs 16 (H-5)"
    assert texts["FIELD_BELOW_MINIMUM"] == (
        "field below the minimum: 5 pairs took part, a pairs tournament needs at least 6 pairs to score "
        "(rule 5, H-10); nothing is awarded"
    )
    individual = Reason.of("FIELD_BELOW_MINIMUM", n=9, noun="players", form="individual", minimum=10)
    assert "9 players took part, an individual tournament needs at least 10 players" in individual.text


def test_a_reason_is_a_frozen_value_that_round_trips_through_json():
    reason = Reason.of("PLACE_NOT_PAID", place="7", n=6)
    assert reason == Reason("PLACE_NOT_PAID", (("place", "7"), ("n", "6")))
    assert hash(reason) == hash(Reason.from_dict(json.loads(json.dumps(reason.as_dict()))))
    assert reason.as_dict() == {"code": "PLACE_NOT_PAID", "params": {"place": "7", "n": "6"}}
    with pytest.raises(ValueError, match="unknown reason code"):
        Reason.of("NOT_A_CODE")


def test_the_explanation_stores_the_reason_beside_the_reason_input():
    reason = Reason.of("NO_BOARDS_NO_BONUS")
    explanation = Explanation(("§ 406A3",), (("K", "3"),)).because(reason, "§ 405A4")
    assert explanation.rules == ("§ 406A3", "§ 405A4")
    assert explanation.as_dict() == {
        "rules": ["§ 406A3", "§ 405A4"],
        "inputs": {"K": "3", "reason": "no boards were played, so there is no bonus (§ 405A4)"},
        "reason": {"code": "NO_BOARDS_NO_BONUS", "params": {}},
    }
    assert "reason" not in Explanation(("§ 406A3",)).as_dict()


def test_every_award_of_a_field_below_the_minimum_carries_the_reason_h_10():
    """What the upload's NOTHING_AWARDED warning reads (``uploads.scoring``): all awards 0, one reason."""
    awards = event_awards(Event("pairs", _pairs(5), boards=24, kinds=(KindAward("red", Decimal("1.5")),)))
    assert awards and not any(award.units for award in awards)
    reasons = {award.explanation.reason for award in awards}
    assert reasons == {Reason.of("FIELD_BELOW_MINIMUM", n=5, noun="pairs", form="pairs", minimum=6)}


def test_the_cli_answers_carry_the_code_and_parameters_beside_the_english_reason():
    answer = calculate(
        {"scheme": "hbs", "kind": "scale", "form": "individual", "participants": 3, "boards": 24, "strength": "1"}
    )
    assert answer["reason_code"] == "FIELD_BELOW_MINIMUM"
    assert answer["reason_params"] == {"n": "3", "noun": "players", "form": "individual", "minimum": "10"}
    assert answer["reason"] == Reason.of(answer["reason_code"], **answer["reason_params"]).text
    assert answer["explanation"]["reason"] == {"code": answer["reason_code"], "params": answer["reason_params"]}
