"""The HBS vectors of ``shared/spec/vectors/engine.json``, through the command and through the Python API.

Each vector's ``expect`` lists only the keys it pins; an answer may carry more (explanations).
"""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from masterpoints.engine.hbs import ScaleRequest, category_for, scale
from masterpoints.engine.hbs.scale import fixed

REPO = Path(__file__).resolve().parents[3]
VECTORS = REPO.parent / "shared" / "spec" / "vectors" / "engine.json"


def _hbs_vectors() -> list:
    if not VECTORS.exists():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{VECTORS} is absent"), id="no-vectors")]
    vectors = [v for v in json.loads(VECTORS.read_text(encoding="utf-8")) if v["request"].get("scheme") == "hbs"]
    return [pytest.param(v, id=v["id"]) for v in vectors]


HBS_VECTORS = _hbs_vectors()


def test_engine_json_has_hbs_vectors_for_both_calculator_kinds():
    if not VECTORS.exists():
        pytest.skip(f"{VECTORS} is absent")
    kinds = {p.values[0]["request"]["kind"] for p in HBS_VECTORS}
    assert kinds == {"scale", "category"}


@pytest.mark.parametrize("vector", HBS_VECTORS)
def test_hbs_vector_through_the_command(vector):
    done = subprocess.run(
        [sys.executable, "-m", "masterpoints.engine"],
        input=json.dumps(vector["request"]),
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    answer = json.loads(done.stdout)
    for key, expected in vector["expect"].items():
        assert answer[key] == expected, key


@pytest.mark.parametrize("vector", HBS_VECTORS)
def test_hbs_vector_through_the_python_api(vector):
    request, expect = vector["request"], vector["expect"]
    if request["kind"] == "scale":
        result = scale(
            ScaleRequest(
                form=request["form"],
                participants=request["participants"],
                boards=request["boards"],
                strength=Decimal(request["strength"]),
                ranks=tuple(tuple(r) for r in request["ranks"]) if "ranks" in request else None,
            )
        )
        answer = {
            "places_paid": result.places_paid,
            "awards": [str(units) for units in result.awards],
            "first_place": fixed(result.first_place, 4),
            "entries": [str(e.units) for e in result.entries],
        }
    else:
        status = category_for(Decimal(request["black"]), Decimal(request["red"]), Decimal(request["master"]))
        answer = {"category": status.category}
    for key, expected in expect.items():
        assert answer[key] == expected, key
