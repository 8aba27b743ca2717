"""The engine's sentences (why nothing is awarded) in the reader's language; numbers and rule ids kept."""

from __future__ import annotations

import pytest
from django.utils import translation

from masterpoints.engine.cli import calculate
from masterpoints.engine_text import _SENTENCES, translated, translated_lazy
from tournaments.checks import CheckIssue

#: Requests whose answer carries one of the engine's sentences, as the engine writes it today.
REQUESTS = [
    {"scheme": "dbf", "kind": "scale", "form": "pairs", "category": "BP", "participants": 12, "boards": 11},
    {
        "scheme": "dbf",
        "kind": "scale",
        "form": "pairs",
        "category": "SP",
        "organizer": "district",
        "participants": 12,
        "boards": 26,
    },
    {"scheme": "dbf", "kind": "team_bonus", "category": "BP", "matches": 3, "boards": 0, "teams": 8},
    {"scheme": "hbs", "kind": "scale", "form": "individual", "participants": 3, "boards": 24, "strength": "1"},
]
#: Requests whose explanation carries one of the engine's sentences as an input's value.
INPUTS = [
    (
        {"scheme": "hbs", "kind": "scale", "form": "pairs", "participants": 20, "boards": 24, "bands": [[10, "20"]]},
        "B from",
    ),
]


@pytest.mark.parametrize(
    "request_", REQUESTS, ids=lambda r: f"{r['scheme']}-{r['kind']}-{r.get('category', r.get('form'))}"
)
def test_the_engines_own_sentences_are_recognised_and_translated(request_):
    """The forms in ``engine_text`` follow the engine's text: a change there must show here."""
    sentence = calculate(request_)["reason"]
    with translation.override("en"):
        assert translated(sentence) == sentence
    with translation.override("da"):
        danish = translated(sentence)
    assert danish != sentence
    assert all(number in danish for number in "".join(c if c.isdigit() else " " for c in sentence).split())


@pytest.mark.parametrize(("request_", "name"), INPUTS, ids=lambda x: x if isinstance(x, str) else x["kind"])
def test_the_engines_sentences_in_explanations_are_translated_h8(request_, name):
    sentence = calculate(request_)["explanation"]["inputs"][name]
    with translation.override("hr"):
        croatian = translated(sentence)
    assert croatian.startswith("razredi prema veličini polja: N ≥ 10: 20.0000")


def test_the_gp_bonus_sentence_414a():
    with translation.override("da"):
        assert translated("substitutes and unregistered players get no GP bonus (§ 414A)").startswith("reserver")


def test_the_board_rule_in_danish_and_croatian_405b6c():
    sentence = "too few boards: 11 < 12 per playing day, no BP (§ 405B6c)"
    with translation.override("da"):
        assert translated(sentence) == "for få spil: 11 < 12 pr. spilledag, ingen BP (§ 405B6c)"
    with translation.override("hr"):
        assert translated(sentence) == "premalo dijeljenja: 11 < 12 po danu igre, nema BP (§ 405B6c)"
    assert translated("a sentence of another form") == "a sentence of another form"


def test_every_form_has_a_danish_and_a_croatian_translation():
    for _pattern, text in _SENTENCES:
        with translation.override("en"):
            english = str(text)
        for language in ("da", "hr"):
            with translation.override(language):
                assert str(text) != english, (language, english)


def test_an_uploads_nothing_awarded_warning_is_shown_in_the_readers_language():
    reason = translated_lazy("too few boards: 26 < 27 in the tournament, no SP (§ 405B7c)")
    issue = CheckIssue("NOTHING_AWARDED", params={"group": "A", "reason": reason})
    with translation.override("da"):
        assert "for få spil: 26 < 27 i turneringen, ingen SP (§ 405B7c)" in str(issue.message)
    with translation.override("en"):
        assert "too few boards: 26 < 27 in the tournament" in str(issue.message)
