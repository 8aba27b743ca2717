"""The engine's reasons (why nothing is awarded) and words in the reader's language, by the reason's code.

The engine reports a reason as a code with parameters (``masterpoints.engine.common.Reason``); the site
translates the code's template and carries the numbers and rule ids over. Nothing is parsed from English.
"""

from __future__ import annotations

import datetime

import pytest
from django.template import Context, Template
from django.utils import translation

from federation.models import Player
from masterpoints.engine.cli import calculate
from masterpoints.engine.common import REASON_TEMPLATES, Explanation, Reason
from masterpoints.engine_text import REASONS, reason_text, reason_text_lazy, translated, translated_lazy
from masterpoints.explanations import explained
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import results_upload_create
from office.services import officer_assign
from tests.factories import pairs_from_numbers, usebio_pairs
from tournaments.issues import Issue

#: Each code with parameters as the engine gives them, and its Danish and Croatian text with those facts.
PINNED = {
    "BP_TOO_FEW_BOARDS": (
        {"boards": "11", "need": "12", "rule": "§ 405B6c"},
        "for få spil: 11 < 12 pr. spilledag, ingen BP (§ 405B6c)",
        "premalo dijeljenja: 11 < 12 po danu igre, nema BP (§ 405B6c)",
    ),
    "SPGP_TOO_FEW_BOARDS": (
        {"boards": "26", "need": "27", "kind": "SP", "rule": "§ 405B7c"},
        "for få spil: 26 < 27 i turneringen, ingen SP (§ 405B7c)",
        "premalo dijeljenja: 26 < 27 na turniru, nema SP (§ 405B7c)",
    ),
    "PAIR_BONUS_BY_HAND": (
        {},
        "formlen for parbonus i § 406B2 er ikke bekræftet (D-Q15): turneringslederen",
        "formula bonusa za parove iz § 406B2 nije potvrđena (D-Q15): voditelj je",
    ),
    "NO_BOARDS_NO_BONUS": (
        {},
        "der blev ikke spillet nogen spil, så der er ingen bonus (§ 405A4)",
        "nije odigrano nijedno dijeljenje, pa nema bonusa (§ 405A4)",
    ),
    "B_NOT_POSITIVE": (
        {"b": "-1.0000"},
        "B = -1.0000 er ikke positiv, og dette regelsæt uddeler så intet (H-6-indstilling)",
        "B = -1.0000 nije pozitivan i ovaj skup pravila tada ne dodjeljuje ništa (postavka H-6)",
    ),
    "PLACE_NOT_PAID": (
        {"place": "7", "n": "6"},
        "placering 7 ligger uden for de 6 placeringer, der får point (H-3)",
        "mjesto 7 je izvan 6 mjesta koja dobivaju bodove (H-3)",
    ),
    "TEAM_SHARE_TOO_SMALL": (
        {"share": "33 %"},
        "spillede mindre end 33 % (regel 6, H-9)",
        "odigrao/la manje od 33 % (pravilo 6, H-9)",
    ),
    "MATCH_SHARE_TOO_SMALL": (
        {"share": "33 %"},
        "spillede mindre end 33 % af kampen (H-9)",
        "odigrao/la manje od 33 % meča (H-9)",
    ),
    "MATCH_TOO_SHORT_FOR_WIN": (
        {"boards": "12", "need": "16"},
        "en kamp på 12 spil giver ikke point pr. sejr: den kræver 16 (H-5)",
        "meč od 12 dijeljenja ne boduje se po pobjedi: potrebno je 16 (H-5)",
    ),
    "FIELD_BELOW_MINIMUM": (
        {"n": "5", "noun": "pairs", "form": "pairs", "minimum": "6"},
        "feltet er under minimum: 5 par deltog",
        "polje ispod minimuma: sudjelovalo je 5 (parovi)",
    ),
}


@pytest.mark.parametrize("code", sorted(PINNED))
def test_each_reason_code_reads_in_danish_and_croatian_with_its_numbers(code):
    params, danish, croatian = PINNED[code]
    reason = Reason.of(code, **params)
    with translation.override("en"):
        assert reason_text(reason) == reason.text
    for language, expected in (("da", danish), ("hr", croatian)):
        with translation.override(language):
            text = reason_text(reason)
        assert text.startswith(expected), (language, text)
        for value in params.values():
            if any(c.isdigit() for c in value):
                assert value in text, (language, value, text)


@pytest.mark.parametrize(
    ("params", "danish", "croatian"),
    [
        (
            {"n": "5", "noun": "pairs", "form": "pairs", "minimum": "6"},
            "feltet er under minimum: 5 par deltog, en turnering (par) kræver mindst 6 par for at give point "
            "(regel 5, H-10); intet uddeles",
            "polje ispod minimuma: sudjelovalo je 5 (parovi), turnir (parovi) treba najmanje 6 (parovi) za "
            "bodovanje (pravilo 5, H-10); ništa se ne dodjeljuje",
        ),
        (
            {"n": "9", "noun": "players", "form": "individual", "minimum": "10"},
            "feltet er under minimum: 9 spillere deltog, en turnering (enkeltmand) kræver mindst 10 spillere for "
            "at give point (regel 5, H-10); intet uddeles",
            "polje ispod minimuma: sudjelovalo je 9 (igrači), turnir (pojedinačno) treba najmanje 10 (igrači) za "
            "bodovanje (pravilo 5, H-10); ništa se ne dodjeljuje",
        ),
    ],
    ids=["pairs", "individual"],
)
def test_the_field_below_the_minimum_translates_the_units_and_the_form_rule_5_h_10(params, danish, croatian):
    """The fixed words among the parameters (the unit noun, the form) are translated as well."""
    reason = Reason.of("FIELD_BELOW_MINIMUM", **params)
    with translation.override("da"):
        assert reason_text(reason) == danish
    with translation.override("hr"):
        assert reason_text(reason) == croatian


def test_every_code_the_engine_can_produce_has_a_template_here():
    assert set(REASONS) == set(REASON_TEMPLATES)


@pytest.mark.parametrize("code", sorted(REASON_TEMPLATES))
def test_every_code_the_engine_can_produce_has_a_danish_and_a_croatian_translation(code):
    with translation.override("en"):
        english = str(REASONS[code])
    for language in ("da", "hr"):
        with translation.override(language):
            assert str(REASONS[code]) != english, (language, english)


def test_the_english_msgids_render_the_engines_own_sentence():
    """Where the wording matches, the msgid is the engine's template in ``%(name)s`` form (same catalogue
    entries as before); FIELD_BELOW_MINIMUM's msgid says "a tournament of %(form)s" for the translators."""
    for code, template in REASON_TEMPLATES.items():
        if code == "FIELD_BELOW_MINIMUM":
            continue
        with translation.override("en"):
            msgid = str(REASONS[code]).replace("%%", "%")
        assert msgid == template.replace("{", "%(").replace("}", ")s"), code


@pytest.mark.parametrize(
    ("request_", "code"),
    [
        (
            {"scheme": "dbf", "kind": "scale", "form": "pairs", "category": "BP", "participants": 12, "boards": 11},
            "BP_TOO_FEW_BOARDS",
        ),
        (
            {
                "scheme": "dbf",
                "kind": "scale",
                "form": "pairs",
                "category": "SP",
                "organizer": "district",
                "participants": 12,
                "boards": 26,
            },
            "SPGP_TOO_FEW_BOARDS",
        ),
        (
            {"scheme": "dbf", "kind": "team_bonus", "category": "BP", "matches": 3, "boards": 0, "teams": 8},
            "NO_BOARDS_NO_BONUS",
        ),
        (
            {"scheme": "hbs", "kind": "scale", "form": "individual", "participants": 3, "boards": 24, "strength": "1"},
            "FIELD_BELOW_MINIMUM",
        ),
    ],
    ids=lambda x: x if isinstance(x, str) else None,
)
def test_a_calculator_answer_is_translated_by_its_code(request_, code):
    """What ``{{ answer|reason_text }}`` on the calculator page shows."""
    answer = calculate(request_)
    assert answer["reason_code"] == code
    with translation.override("en"):
        assert reason_text(answer) == answer["reason"]
    with translation.override("da"):
        danish = reason_text(answer)
        assert danish == reason_text(answer["explanation"]) != answer["reason"]
    assert all(value in danish for value in answer["reason_params"].values() if value.isdigit())
    assert reason_text({"places_paid": 4}) == ""


def test_the_calculator_pages_filter_translates_the_answers_reason_by_its_code():
    """calculator.html: ``{{ answer|reason_text }}`` (and the explanation's reason input through ``{% why %}``)."""
    answer = calculate(
        {"scheme": "dbf", "kind": "scale", "form": "pairs", "category": "BP", "participants": 12, "boards": 11}
    )
    page = Template("{% load points %}{{ answer|reason_text }}|{% why answer.explanation 'dbf' %}")
    with translation.override("da"):
        html = page.render(Context({"answer": answer}))
    shown, why = html.split("|", 1)
    assert shown == "for få spil: 11 &lt; 12 pr. spilledag, ingen BP (§ 405B6c)"
    assert "for få spil: 11 &lt; 12 pr. spilledag" in why


def test_an_explanations_reason_input_is_translated_by_its_code():
    reason = Reason.of("BP_TOO_FEW_BOARDS", boards=11, need=12, rule="§ 405B6c")
    explanation = Explanation(("§ 406B1",), (("N", "12"),)).because(reason)
    with translation.override("hr"):
        for shown in (explained(explanation, "dbf"), explained(explanation.as_dict(), "dbf")):
            values = {item.name: item.value for item in shown.inputs}
            assert values == {"N": "12", "reason": "premalo dijeljenja: 11 < 12 po danu igre, nema BP (§ 405B6c)"}
        # a stored explanation without a code shows its English sentence as written
        old = {"rules": ["§ 406B1"], "inputs": {"reason": reason.text}}
        assert {i.name: i.value for i in explained(old, "dbf").inputs} == {"reason": reason.text}


def test_an_overtaken_reason_input_is_shown_as_written_and_the_last_by_its_code_h_9():
    first = Reason.of("PLACE_NOT_PAID", place="4", n="3")
    last = Reason.of("TEAM_SHARE_TOO_SMALL", share="33 %")
    explanation = Explanation(("H-3",)).because(first).because(last, "H-9")
    with translation.override("da"):
        values = [item.value for item in explained(explanation, "hbs").inputs]
    assert values == [first.text, "spillede mindre end 33 % (regel 6, H-9)"]


def test_the_engines_fixed_words_and_the_h8_bands_are_translated():
    with translation.override("da"):
        assert translated("substitutes and unregistered players get no GP bonus (§ 414A)").startswith("reserver")
        assert translated("pairs") != "pairs"
    answer = calculate(
        {"scheme": "hbs", "kind": "scale", "form": "pairs", "participants": 20, "boards": 24, "bands": [[10, "20"]]}
    )
    sentence = answer["explanation"]["inputs"]["B from"]
    with translation.override("hr"):
        assert translated(sentence).startswith("razredi prema veličini polja: N ≥ 10: 20.0000")
    with translation.override("en"):
        assert translated(sentence) == sentence
    assert translated("a sentence of another form") == "a sentence of another form"


def test_an_uploads_nothing_awarded_warning_is_shown_in_the_readers_language():
    reason = Reason.of("SPGP_TOO_FEW_BOARDS", boards=26, need=27, kind="SP", rule="§ 405B7c")
    for lazy_text in (translated_lazy(reason), reason_text_lazy(reason)):
        issue = Issue("NOTHING_AWARDED", params={"group": "A", "reason": lazy_text})
        with translation.override("da"):
            assert "for få spil: 26 < 27 i turneringen, ingen SP (§ 405B7c)" in str(issue.message)
        with translation.override("en"):
            assert "too few boards: 26 < 27 in the tournament, no SP (§ 405B7c)" in str(issue.message)
    with translation.override("da"):
        assert str(translated_lazy(None)) == ""


def test_an_hbs_upload_below_the_minimum_field_warns_with_the_reason_rule_5_h_10(world, django_user_model):
    """5 pairs: every award is 0 (H-10); the preview's NOTHING_AWARDED says why, in Croatian."""
    user = django_user_model.objects.create_user("direktor", "d@example.com", "pw")
    officer_assign(actor=None, user=user, role="club_director", federation=world.hbs, club=world.club_hr)
    numbers = [str(2001 + i) for i in range(10)]
    for number in numbers:
        Player.objects.create(federation=world.hbs, number=number, first_name="Igrač", last_name=number)
    data = usebio_pairs(
        club_number="101",
        date=datetime.date(2025, 3, 4),
        name="Mali turnir",
        sections=[pairs_from_numbers(numbers, seed=7)],
        boards=24,
    )
    created = results_upload_create(
        actor=user,
        federation=world.hbs,
        club=world.club_hr,
        region=None,
        data=data,
        filename="results.xml",
        facts={"organiser_kind": "club", "category": "black", "strength": "1", "form": "", "boards": None},
    )
    preview = build_preview(created)
    (issue,) = [issue for issue in preview.issues if issue.code == "NOTHING_AWARDED"]
    with translation.override("en"):
        assert "5 pairs took part, a pairs tournament needs at least 6 pairs" in str(issue.message)
    with translation.override("hr"):
        croatian = str(issue.message)
    assert "H-10" in croatian and "pairs" not in croatian
