"""The ``"scheme": "dbf"`` calculator: answers and clear errors naming the field (``engine-cli.md``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from masterpoints.engine.cli import calculate
from masterpoints.engine.common import RequestError

REPO_ROOT = Path(__file__).resolve().parents[3]


def scale_request(**kw):
    return {"scheme": "dbf", "kind": "scale", "form": "pairs", "category": "BP", "participants": 12, "boards": 24, **kw}


@pytest.mark.parametrize(
    ("request_", "field"),
    [
        (scale_request(participants=-3), "participants"),
        (scale_request(boards=-1), "boards"),
        (scale_request(category="XP"), "category"),
        (scale_request(form="teams"), "form"),
        (scale_request(met=12), "met"),
        (scale_request(ranks=[[13, 13]]), "ranks[0]"),
        (scale_request(ranks=[[2, 3]]), "ranks"),
        (scale_request(ranks=[[1, 2], [2, 3], [2, 3]]), "ranks"),
        (scale_request(category="SP", robots=True), "robots"),
        (scale_request(category="GP", organizer="circle"), "organizer"),
        (scale_request(rows=2, row=3), "row"),
        (scale_request(surcharge="0.2"), "surcharge"),
        (scale_request(multiplier="0"), "multiplier"),
        (scale_request(colour="red"), "colour"),
        ({"scheme": "dbf", "kind": "team_match", "category": "BP", "value": "16", "boards": 24}, "result"),
        ({"scheme": "dbf", "kind": "team_match", "category": "BP", "value": "16", "boards": 24, "vp": "6.005"}, "vp"),
        (
            {
                "scheme": "dbf",
                "kind": "team_match",
                "category": "BP",
                "value": "16",
                "boards": 24,
                "result": "win",
                "share": "3/2",
            },
            "share",
        ),
        ({"scheme": "dbf", "kind": "team_bonus", "category": "SP", "matches": 7, "boards": 24, "teams": 8}, "category"),
        ({"scheme": "dbf", "kind": "team_bonus", "matches": -7, "boards": 24, "teams": 8}, "matches"),
        ({"scheme": "dbf", "kind": "title", "bp": "-1"}, "bp"),
        ({"scheme": "dbf", "kind": "title", "sp": "86.35"}, "sp"),
        ({"scheme": "dbf", "kind": "shape"}, "kind"),
    ],
)
def test_bad_requests_name_the_field(request_, field):
    with pytest.raises(RequestError) as caught:
        calculate(request_)
    assert caught.value.field == field


def test_a_bad_request_exits_2_with_the_field_on_the_command_line():
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "masterpoints.engine"],
        input=json.dumps(scale_request(participants=-3)),
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        env=env,
        check=False,
    )
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["field"] == "participants"


def test_a_scale_answer_has_field_places_ratio_awards_and_entries():
    answer = calculate(scale_request(participants=40, ranks=[[1, 1], [2, 3], [2, 3]]))
    assert answer["effective_field"] == 40 and answer["places_paid"] == 14
    assert answer["ratio"] == "0.713852"
    assert answer["awards"][:3] == ["80", "58", "41"]
    # Places 2–3 share (57.1 + 40.8)/2 = 48.96 → 49.
    assert answer["entries"] == ["80", "49", "49"]
    assert answer["explanation"]["inputs"]["N"] == "40"


def test_nothing_awarded_gives_an_empty_scale_and_a_reason():
    answer = calculate(scale_request(boards=11, ranks=[[1, 1]]))
    assert (answer["places_paid"], answer["awards"], answer["entries"]) == (0, [], ["0"])
    assert answer["reason"] == "too few boards: 11 < 12 per playing day, no BP (§ 405B6c)"
    assert answer["reason_code"] == "BP_TOO_FEW_BOARDS"
    assert answer["reason_params"] == {"boards": "11", "need": "12", "rule": "§ 405B6c"}
    assert answer["explanation"]["reason"] == {"code": "BP_TOO_FEW_BOARDS", "params": answer["reason_params"]}


def test_a_bonus_without_boards_gives_its_reason_code_405a4():
    answer = calculate({"scheme": "dbf", "kind": "team_bonus", "category": "BP", "matches": 3, "boards": 0, "teams": 8})
    assert answer["awards"] == []
    assert (answer["reason_code"], answer["reason_params"]) == ("NO_BOARDS_NO_BONUS", {})
    assert answer["reason"] == "no boards were played, so there is no bonus (§ 405A4)"


def test_an_answer_that_awards_something_has_no_reason():
    answer = calculate(scale_request(boards=24))
    assert not {"reason", "reason_code", "reason_params"} & set(answer)
    assert "reason" not in answer["explanation"]


def test_share_may_be_a_ratio_of_boards():
    answer = calculate(
        {
            "scheme": "dbf",
            "kind": "team_match",
            "category": "BP",
            "value": "16",
            "boards": 24,
            "result": "win",
            "share": "2/3",
        }
    )
    assert answer["points"] == "11"


def test_x_fields_are_ignored():
    assert calculate(scale_request(**{"x-note": "club night"}))["awards"][0] == "24"


def test_a_title_answer_names_the_next_title_and_what_is_missing():
    answer = calculate({"scheme": "dbf", "kind": "title", "bp": "7400", "sp": "0", "gp": "0"})
    assert answer["title"] == "distriktsmester"
    assert answer["next"] == {
        "title": "kredsmester",
        "stars": 0,
        "missing": {"bp": "100", "sp": "5.0", "gp": "0.50"},
        "reaches": {k: {"title": "kredsmester", "stars": 0} for k in ("bp", "sp", "gp")},
    }
    assert calculate({"scheme": "dbf", "kind": "title", "gp": "4000"})["next"] is None


def test_team_bonus_answer_reports_effective_teams_for_monrad():
    answer = calculate(
        {
            "scheme": "dbf",
            "kind": "team_bonus",
            "category": "BP",
            "matches": 5,
            "boards": 24,
            "teams": 12,
            "format": "monrad",
        }
    )
    assert answer["effective_teams"] == 6 and answer["awards"] == ["50", "34"]
