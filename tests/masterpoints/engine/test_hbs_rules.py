"""The dated HBS rule set: every constant of the draft as data, stored as plain JSON, chosen by date."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import replace
from fractions import Fraction

import pytest

from masterpoints.engine.hbs import HBS_DRAFT, HbsRuleSet, ruleset_for


def test_every_constant_of_the_draft_is_in_the_rule_set():
    data = HBS_DRAFT.to_dict()
    # B = (3 + N·T/5) · S · (1 + D/12) − 7; s_k = ln((n + 1)/(k − 0.7)); 50 % paid; 33 % of the boards
    assert (data["base"], data["field_divisor"], data["boards_divisor"], data["constant"]) == ("3", "5", "12", "-7")
    assert data["place_offset"] == "0.7"
    assert data["form_factors"] == {"individual": "0.5", "pairs": "1", "teams": "2"}
    assert data["paid_share"] == "0.5"
    assert data["team_board_share"] == "0.33"
    assert data["minimum_fields"] == {"individual": 10, "pairs": 6, "teams": 3}
    assert data["win_min_boards"] == 16
    # the ladder as printed: 13 rows, the empty black cells kept empty and read by the setting (H-2)
    assert len(data["categories"]) == 13
    assert data["categories"][6] == {"code": "E", "name": "karo ekspert", "black": None, "red": 200, "master": None}
    assert data["empty_black_cells"] == "as_above"


def test_the_rule_set_round_trips_through_plain_json():
    text = json.dumps(HBS_DRAFT.to_dict())
    assert HbsRuleSet.from_dict(json.loads(text)) == HBS_DRAFT
    tuned = replace(
        HBS_DRAFT,
        name="HBS 2027",
        valid_from=dt.date(2027, 1, 1),
        base=Fraction(7, 3),
        place_offset=Fraction(3, 4),
        nothing_when_b_nonpositive=True,
        unlisted_awards=(("black", Fraction("0.8")), ("red", Fraction("0.25"))),
    )
    data = json.loads(json.dumps(tuned.to_dict()))
    assert data["base"] == "7/3"
    assert data["place_offset"] == "0.75"
    assert HbsRuleSet.from_dict(data) == tuned


def test_missing_keys_take_the_draft_values_and_unknown_keys_are_refused():
    assert HbsRuleSet.from_dict({"name": "partial", "paid_share": "0.4"}) == replace(
        HBS_DRAFT, name="partial", paid_share=Fraction(2, 5)
    )
    with pytest.raises(ValueError, match="unknown rule set keys: bsae"):
        HbsRuleSet.from_dict({"bsae": "3"})


def test_binary_floats_are_refused_in_a_stored_rule_set():
    with pytest.raises(ValueError, match="place_offset"):
        HbsRuleSet.from_dict({"place_offset": 0.7})


def test_impossible_parameters_are_refused():
    with pytest.raises(ValueError, match="place_offset"):
        replace(HBS_DRAFT, place_offset=Fraction(1))
    with pytest.raises(ValueError, match="paid_share"):
        replace(HBS_DRAFT, paid_share=Fraction(0))
    with pytest.raises(ValueError, match="empty_black_cells"):
        replace(HBS_DRAFT, empty_black_cells="literal")


def test_the_rule_set_in_force_is_the_latest_started_one():
    tuned = replace(HBS_DRAFT, name="HBS 2027", valid_from=dt.date(2027, 1, 1))
    sets = (HBS_DRAFT, tuned)
    # the draft reaches back to 1991 so the what-if run over historical results can use it (transition rule 8)
    assert ruleset_for(dt.date(1991, 1, 1), sets) is HBS_DRAFT
    assert ruleset_for(dt.date(2026, 12, 31), sets) is HBS_DRAFT
    assert ruleset_for(dt.date(2027, 1, 1), sets) is tuned
    assert ruleset_for(dt.date(2030, 6, 1)) is HBS_DRAFT
    with pytest.raises(LookupError):
        ruleset_for(dt.date(1990, 12, 31), sets)
    with pytest.raises(ValueError, match="start on"):
        ruleset_for(dt.date(2028, 1, 1), (*sets, replace(tuned, name="other")))
