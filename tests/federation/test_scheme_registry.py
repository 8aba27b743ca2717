"""The rule books are plugins: each registers its scheme with ``federation.schemes`` from its app's ready(), and
the registry refuses what would make a code or a point kind ambiguous."""

from __future__ import annotations

import dataclasses
import html

import pytest
from django.core.exceptions import ImproperlyConfigured, ValidationError

from federation.models import Federation
from federation.schemes import calculate, register, registered, scheme_choices, scheme_for, scheme_of, unregister
from masterpoints.engine.common import RequestError


def test_the_installed_rule_books_are_registered_in_the_order_of_installed_apps():
    assert [info.code for info in registered()] == ["dbf", "hbs"]
    assert scheme_for("SP").code == "dbf"
    assert scheme_for("master").code == "hbs"


def test_a_federation_chooses_among_the_registered_rule_books():
    field = Federation._meta.get_field("scheme")
    assert [code for code, _label in field.choices] == ["dbf", "hbs"]
    with pytest.raises(ValidationError) as caught:
        field.clean("xyz", Federation(name="X", code="x"))
    assert caught.value.code == "invalid_choice"


def test_a_rule_book_registered_later_is_offered_and_resolved_and_goes_again():
    table = dataclasses.replace(scheme_of("hbs"), code="table", kinds=("TP",))
    register(table)
    try:
        assert ("table", table.label) in scheme_choices()
        assert scheme_of("table") is table
        assert scheme_for("TP") is table
        assert "table" in [code for code, _label in Federation._meta.get_field("scheme").choices]
    finally:
        unregister("table")
    assert [info.code for info in registered()] == ["dbf", "hbs"]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"code": "dbf"}, "registered twice"),
        ({"code": "table", "kinds": ("TP", "BP")}, "claims point kinds of another: BP"),
        ({"code": "a-very-long-code", "kinds": ("TP",)}, "at most 8 characters"),
        # The standings keep a rule book's kinds in KIND_SLOTS generic columns, so a fourth kind has none.
        ({"code": "table", "kinds": ("T1", "T2", "T3", "T4")}, "has 4 point kinds; the standings hold 3"),
    ],
)
def test_the_registry_refuses_an_ambiguous_rule_book(changes, message):
    with pytest.raises(ImproperlyConfigured, match=message):
        register(dataclasses.replace(scheme_of("dbf"), **changes))
    assert [info.code for info in registered()] == ["dbf", "hbs"]


def _text(response) -> str:
    return " ".join(html.unescape(response.content.decode()).split())


def test_the_footer_names_every_registered_rule_book_in_the_readers_language(client, db):
    english = _text(client.get("/calculator/"))
    assert "own rules: DBf mesterpointregler 2023 and the HBS categorisation rules." in english
    client.cookies["django_language"] = "da"
    danish = _text(client.get("/calculator/"))
    assert "egne regler: DBf's mesterpointregler 2023 og HBS' kategoriseringsregler." in danish
    table = dataclasses.replace(scheme_of("hbs"), code="table", kinds=("TP",), rule_book_title="the table rules")
    register(table)
    try:
        client.cookies["django_language"] = "en"
        body = _text(client.get("/calculator/", {"calc": "hbs"}))
        assert "DBf mesterpointregler 2023, the HBS categorisation rules and the table rules." in body
    finally:
        unregister("table")


def test_the_calculator_asks_the_rule_book_the_request_names_and_names_the_registered_ones_otherwise():
    """engine-cli.md: ``scheme`` chooses the rule book; an unknown one is refused naming the field and the codes."""
    assert calculate({"scheme": "dbf", "kind": "title", "bp": "7400"})["title"] == "distriktsmester"
    with pytest.raises(RequestError) as caught:
        calculate({"scheme": "xyz", "kind": "scale"})
    assert caught.value.field == "scheme"
    assert '"dbf", "hbs"' in str(caught.value)
