"""The ``"scheme": "hbs"`` calculator: answers, extensions (H-8 fixed B, H-2 held) and error behaviour."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from masterpoints.engine.cli import calculate
from masterpoints.engine.common import RequestError
from masterpoints.engine.hbs import HBS_DRAFT
from masterpoints.engine.hbs.calculator import handle

REPO = Path(__file__).resolve().parents[3]

PAIRS12 = {"scheme": "hbs", "kind": "scale", "form": "pairs", "participants": 12, "strength": "1", "boards": 24}


def run(request) -> tuple[int, dict]:
    done = subprocess.run(
        [sys.executable, "-m", "masterpoints.engine"],
        input=request if isinstance(request, str) else json.dumps(request),
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    return done.returncode, json.loads(done.stdout)


def test_the_scale_answer_carries_b_n_awards_and_its_explanation():
    answer = calculate(PAIRS12)
    # B = 5.4 · 3 − 7 = 9.2; n = 6; 9.2 · s_k/s_1 rounded up: 10, 5, 4, 3, 2, 1
    assert answer["first_place"] == "9.2000"
    assert answer["places_paid"] == 6
    assert answer["awards"] == ["10", "5", "4", "3", "2", "1"]
    assert not {"reason", "reason_code", "reason_params"} & set(answer)
    assert answer["explanation"]["rules"] == ["HBS formula", "H-3", "H-6"]
    assert answer["explanation"]["inputs"]["B"] == "9.2000"


def test_entries_beyond_the_paid_places_get_zero_and_below_the_minimum_all_get_zero_h_10():
    answer = calculate({**PAIRS12, "ranks": [[1, 1], [7, 7], [2, 2]]})
    assert answer["entries"] == ["10", "0", "5"]
    small = calculate({**PAIRS12, "participants": 5, "ranks": [[1, 1], [2, 2]]})
    assert small["places_paid"] == 0
    assert small["awards"] == []
    assert small["entries"] == ["0", "0"]
    assert small["reason_code"] == "FIELD_BELOW_MINIMUM"
    assert small["reason_params"] == {"n": "5", "noun": "pairs", "form": "pairs", "minimum": "6"}
    assert small["reason"] == (
        "field below the minimum: 5 pairs took part, a pairs tournament needs at least 6 pairs to score "
        "(rule 5, H-10); nothing is awarded"
    )
    assert "H-10" in small["explanation"]["rules"]
    assert small["explanation"]["reason"] == {"code": "FIELD_BELOW_MINIMUM", "params": small["reason_params"]}
    # an entry beyond the paid places says so in its own explanation (H-3)
    beyond = answer["entry_explanations"][1]
    assert beyond["reason"] == {"code": "PLACE_NOT_PAID", "params": {"place": "7", "n": "6"}}
    assert beyond["inputs"]["reason"] == "place 7 lies beyond the 6 paid places (H-3)"


def test_the_calculator_takes_a_fixed_first_place_or_bands_instead_of_strength_h_8():
    # B = 20, n = 6: 20, 10.6896, 7.0669, 4.7747, 3.0941, 1.7664 → 20, 11, 8, 5, 4, 2
    fixed = calculate({"scheme": "hbs", "kind": "scale", "form": "pairs", "participants": 12, "first_place": "20"})
    assert fixed["awards"] == ["20", "11", "8", "5", "4", "2"]
    banded = calculate(
        {"scheme": "hbs", "kind": "scale", "form": "pairs", "participants": 12, "bands": [[6, "10"], [10, "20"]]}
    )
    assert banded["first_place"] == "20.0000"
    assert banded["explanation"]["rules"][0] == "H-8"


def test_the_category_answer_names_the_next_row_and_what_is_missing_h_2():
    answer = calculate({"scheme": "hbs", "kind": "category", "black": "2000", "red": "300", "master": "0"})
    assert answer["category"] == "herc ekspert"
    assert answer["next"] == {"category": "pik ekspert", "missing": {"black": "0", "red": "200", "master": "0"}}
    assert answer["cheapest"] == {
        "category": "majstorski kandidat",
        "missing": {"black": "0", "red": "0", "master": "10"},
    }
    top = calculate({"scheme": "hbs", "kind": "category", "black": 2000, "red": 2000, "master": 200})
    assert top["category"] == "velemajstor"
    assert top["next"] is None
    held = calculate({"scheme": "hbs", "kind": "category", "black": "60", "held": "majstor"})
    assert (held["category"], held["computed"]) == ("majstor", "vankategornik")


def test_the_site_can_pass_its_own_rule_set():
    # the literal reading of the empty black cells (H-2 setting): 500 black + 200 red is karo ekspert
    rules = replace(HBS_DRAFT, empty_black_cells="no_minimum")
    request = {"scheme": "hbs", "kind": "category", "black": "500", "red": "200"}
    assert handle(request)["category"] == "karo"
    assert handle(request, rules)["category"] == "karo ekspert"


@pytest.mark.parametrize(
    ("request_", "field"),
    [
        ({**PAIRS12, "strenght": "1"}, "strenght"),
        ({k: v for k, v in PAIRS12.items() if k != "participants"}, "participants"),
        ({**PAIRS12, "participants": 0}, "participants"),
        ({**PAIRS12, "strength": 1.5}, "strength"),
        ({**PAIRS12, "strength": "strong"}, "strength"),
        ({**PAIRS12, "strength": "-1"}, "strength"),
        ({**PAIRS12, "form": "quads"}, "form"),
        ({**PAIRS12, "boards": -1}, "boards"),
        ({**PAIRS12, "ranks": [[1, 1], [2, 3]]}, "ranks"),
        ({**PAIRS12, "ranks": [[1, 13]]}, "ranks[0]"),
        ({**PAIRS12, "first_place": "20", "bands": [[6, "10"]]}, "bands"),
        ({**PAIRS12, "kind": "title"}, "kind"),
        ({"scheme": "hbs", "kind": "category", "black": "-1"}, "black"),
        ({"scheme": "hbs", "kind": "category", "red": "10.5"}, "red"),
        ({"scheme": "hbs", "kind": "category", "held": "grandmaster"}, "held"),
    ],
)
def test_a_bad_request_is_refused_naming_the_field(request_, field):
    with pytest.raises(RequestError) as caught:
        calculate(request_)
    assert caught.value.field == field


def test_the_command_prints_the_error_and_exits_2():
    code, answer = run({**PAIRS12, "strength": None})
    assert code == 2
    assert answer["error"]["field"] == "strength"
    assert "required" in answer["error"]["message"]


def test_x_fields_are_ignored():
    assert calculate({**PAIRS12, "x-note": "club night"})["awards"][0] == "10"


def test_the_hbs_engine_never_imports_django():
    code = (
        "import sys, masterpoints.engine.hbs, masterpoints.engine.hbs.calculator; "
        "assert 'django' not in sys.modules, 'django imported'"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
