"""Amounts on pages and in e-mails with the reader's decimal separator (Danish and Croatian: comma)."""

from __future__ import annotations

from django.template import Context, Template
from django.utils import translation

from masterpoints.numbers import shown_amount, shown_units


def test_amounts_take_the_active_languages_decimal_separator():
    with translation.override("da"):
        assert shown_units(307, 1) == "30,7"
        assert shown_units(-5, 2) == "-0,05"
        assert shown_units(24, 0) == "24"
        assert shown_amount("-5.7") == "-5,7"
    with translation.override("hr"):
        assert shown_amount("2.67") == "2,67"
    with translation.override("en"):
        assert shown_units(307, 1) == "30.7"


def test_only_amounts_change_not_other_text():
    with translation.override("da"):
        others = ("–", "12", "v1.3", "1.2.3")
        assert [shown_amount(value) for value in others] == list(others)


def test_the_template_filters_write_amounts_and_units_as_the_reader_does():
    template = Template("{% load points %}{{ amount|points }} / {{ units|units:2 }}")
    with translation.override("da"):
        assert template.render(Context({"amount": "30.7", "units": 1234})) == "30,7 / 12,34"
    with translation.override("en"):
        assert template.render(Context({"amount": "30.7", "units": 1234})) == "30.7 / 12.34"


def test_an_award_names_itself_in_its_kinds_decimals_402(world):
    """§ 402: SP carry one decimal, GP two. An award shown by name (admin lists, foreign keys) reads 6.0 SP for
    60 ledger units, as the player page does, never the raw units."""
    from tests.factories import post_award

    assert str(post_award(world.player, "SP", 60)).endswith(" 6.0 SP")
    assert str(post_award(world.player, "GP", 267)).endswith(" 2.67 GP")
