"""The dated rule set as data: JSON round trip, overrides and choosing the set valid on a date."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from fractions import Fraction

import pytest

from masterpoints.engine.dbf import DBF_2023, DbfRuleSet, ScaleRequest, ruleset_for, scale


def test_the_rule_set_round_trips_through_plain_json():
    text = json.dumps(DBF_2023.to_dict())
    assert DbfRuleSet.from_dict(json.loads(text)) == DBF_2023


def test_numbers_are_stored_as_exact_strings():
    data = DBF_2023.to_dict()
    assert data["mass_factors"]["individual"]["GP"] == "0.075"
    assert data["ratio_base"] == "2/3"
    assert data["valid_from"] == "2023-09-01"
    assert data["titles"][1] == {
        "title": "klubmester",
        "stars": 1,
        "basis": "bp_only",
        "total": "5",
        "minimum": "0",
        "alternative_total": None,
        "etui": "1★ grønt etui",
    }


def test_overrides_apply_on_top_of_a_base_set():
    changed = DbfRuleSet.from_dict({"q_from_base_scale": False, "n2_bands": [[100, "0.25"]]}, base=DBF_2023)
    assert changed.q_from_base_scale is False
    assert changed.n2_bands == ((100, Fraction(1, 4)),)
    assert changed.mass_factors == DBF_2023.mass_factors


def test_unknown_or_mistyped_fields_are_refused():
    with pytest.raises(ValueError):
        DbfRuleSet.from_dict({"no_such_field": 1})
    with pytest.raises(ValueError):
        DbfRuleSet.from_dict({"bp_boards_full": "18"})
    with pytest.raises(ValueError):
        DbfRuleSet.from_dict({"ratio_base": "two thirds"})


def test_the_newest_set_valid_on_a_date_is_chosen():
    older = dataclasses.replace(DBF_2023, name="DBf 2021", valid_from=dt.date(2021, 9, 1), bp_boards_full=20)
    sets = (DBF_2023, older)
    assert ruleset_for(dt.date(2023, 9, 1), sets) is DBF_2023
    assert ruleset_for(dt.date(2023, 8, 31), sets) is older
    with pytest.raises(LookupError):
        ruleset_for(dt.date(2020, 1, 1), sets)


def test_a_past_tournament_is_computed_with_the_rules_of_its_date():
    older = dataclasses.replace(DBF_2023, name="older", valid_from=dt.date(2021, 9, 1), bp_boards_full=20)
    request = ScaleRequest(form="pairs", category="BP", participants=12, boards=18)
    assert scale(request, ruleset_for(dt.date(2022, 3, 1), (DBF_2023, older))).awards[0] == 12  # half quota then
    assert scale(request, ruleset_for(dt.date(2024, 3, 1), (DBF_2023, older))).awards[0] == 24


def test_the_default_set_is_dbf_2023():
    assert ruleset_for(dt.date(2025, 1, 1)) is DBF_2023
    assert DBF_2023.valid_from == dt.date(2023, 9, 1)


def test_unknown_policy_values_are_refused_when_a_set_is_read():
    for field, value in (("ratio_rule", "nearest"), ("klubsolv_count", "both"), ("handicap_sp_gp_ranking", "net")):
        with pytest.raises(ValueError):
            DbfRuleSet.from_dict({field: value})
