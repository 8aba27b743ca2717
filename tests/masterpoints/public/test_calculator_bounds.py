"""Every number the calculator takes from outside is bounded where it enters (design.md § Invariants), and
the anonymous JSON API is limited per client address: a hostile request gets a 400 or 429 that says what
the bound is, never a 500 and never minutes of work."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.urls import reverse

from api.public import CALCULATOR_MAX_DEPTH as API_MAX_DEPTH
from masterpoints.engine.cli import calculate
from masterpoints.engine.common import MAX_BOARDS, MAX_FIELD, RequestError

SCALE = {"scheme": "dbf", "kind": "scale", "form": "pairs", "category": "BP", "participants": 12, "boards": 24}


def post(client, body: str):
    return client.post(reverse("api:calculator"), body, content_type="application/json")


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"participants": 10**12}, "participants", f"at most {MAX_FIELD}"),
        ({"participants": MAX_FIELD + 1}, "participants", f"at most {MAX_FIELD}"),
        ({"boards": 10**9}, "boards", f"at most {MAX_BOARDS}"),
        ({"scheme": "hbs", "form": "pairs", "participants": 10**6, "strength": "1"}, "participants", "at most"),
        ({"multiplier": "1e999999"}, "multiplier", "at most 30 digits"),
        ({"multiplier": "1e-999999"}, "multiplier", "between 10^-12"),
    ],
)
def test_a_number_beyond_its_bound_is_refused_naming_the_bound(changes, field, words):
    request = {**SCALE, **changes}
    if request["scheme"] == "hbs":
        request.pop("category")
    with pytest.raises(RequestError) as refused:
        calculate(request)
    assert refused.value.field == field and words in refused.value.message


def test_the_largest_field_the_bound_allows_is_still_answered():
    answer = calculate({**SCALE, "participants": MAX_FIELD})
    assert answer["awards"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (
            '{"scheme": "dbf", "kind": "scale", "participants": ' + "9" * 5000 + "}",
            "not a number this calculator reads",
        ),
        ("[" * 30_000 + "]" * 30_000, f"deeper than {API_MAX_DEPTH} levels"),
        ('{"scheme": "dbf", "x": ' + "[" * 100 + "]" * 100 + "}", f"deeper than {API_MAX_DEPTH} levels"),
        ("{not json", "not valid JSON"),
        (json.dumps({**SCALE, "participants": 10**12}), "at most"),
    ],
)
def test_the_api_answers_a_hostile_body_with_400_and_a_message(client, db, body, words):
    response = post(client, body)
    assert response.status_code == 400
    assert words in response.json()["error"]["message"]


def test_a_body_over_64_kb_is_refused_with_413(client, db):
    response = post(client, json.dumps({**SCALE, "pad": "x" * 70_000}))
    assert response.status_code == 413


def test_anonymous_calls_are_limited_per_client_address(client, db, rate_window):
    body = json.dumps(SCALE)
    answers = [post(client, body).status_code for _ in range(61)]
    assert answers[:60] == [200] * 60
    assert answers[60] == 429
    assert "at most 60/m" in post(client, body).json()["error"]["message"]
    other = client.post(reverse("api:calculator"), body, content_type="application/json", REMOTE_ADDR="10.0.0.9")
    assert other.status_code == 200
    cache.clear()


def test_the_public_calculator_rounds_exactly_a_whisker_above_a_whole_number_goes_up_nacin_4(client, db):
    """Issue 34, item 13 (Način 4, "prvi viši prirodni broj"): B = 7.0000000001 pays 8 at the first place."""
    body = {"scheme": "hbs", "kind": "scale", "form": "pairs", "participants": 12, "first_place": "7.0000000001"}
    response = post(client, json.dumps(body))
    assert response.status_code == 200 and response.json()["awards"][0] == "8"
