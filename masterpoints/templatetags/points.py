"""Amounts with the reader's decimal separator (``30,7`` in Danish and Croatian, ``30.7`` in English), and
the explanation of an award in the reader's language.

``{% load points %}``, then ``{{ award.amount|points }}`` for an amount already written with a point,
``{{ line.units|units:2 }}`` for integer units and the kind's decimals, ``{{ award.kind|kind }}`` for the
kind's name, ``{% why award.explanation_data award.kind %}`` for the variable table of an award,
``{% explain award %}`` (a ledger row) or ``{% explain explanation kind amount %}`` (a preview or a calculator
answer) for its sentences with the table behind a "details" toggle (``masterpoints.award_text``),
``{{ value|engine_text }}`` for one of the engine's fixed words, ``{{ answer|reason_text }}`` for why nothing is
awarded, from the reason's code and parameters (a calculator answer, a stored explanation or a reason;
``masterpoints.engine_text``), ``{{ event.form|form_label }}`` and ``{{ event.scoring|scoring_label }}`` for an
upload's form and scoring codes in words.
"""

from __future__ import annotations

from django import template
from django.utils.translation import gettext_lazy as _

from masterpoints.award_text import award_block, explanation_block
from masterpoints.engine_text import reason_text, translated
from masterpoints.explanations import explanation_html
from masterpoints.numbers import kind_label, shown_amount, shown_units
from tournaments.choices import Form

register = template.Library()
register.filter("points", shown_amount, is_safe=True)
register.filter("kind", kind_label, is_safe=True)
register.filter("engine_text", translated)
register.filter("reason_text", reason_text)

#: What the entries' scores are in (``tournaments.importers.model.Event.scoring``), in words.
_SCORINGS = {
    "MP": _("matchpoints"),
    "IMP": _("IMPs"),
    "BUTLER": _("Butler IMPs"),
    "CROSS_IMP": _("cross-IMPs"),
    "VP": _("victory points"),
    "BAM": _("board points (point-a-board)"),
}


@register.filter
def form_label(code) -> str:
    """``pairs`` as the reader's language names the form; an unknown code as written."""
    return str(dict(Form.choices).get(code, code or ""))


@register.filter
def scoring_label(code) -> str:
    """``MP`` as ``matchpoints`` in the reader's language; an unknown code as written."""
    return str(_SCORINGS.get(code, code or ""))


@register.filter(is_safe=True)
def units(value, decimals) -> str:
    """Integer units (``1234`` hundredths of an MP) as ``12.34`` in the reader's writing; nothing for no value."""
    if value is None or value == "":
        return ""
    return shown_units(int(value), int(decimals))


@register.simple_tag
def why(explanation, kind_or_scheme: str):
    """``{% why award.explanation_data award.kind %}``: the rules and the inputs of an award, each symbol with
    what it stands for (``masterpoints.explanations``)."""
    return explanation_html(explanation, kind_or_scheme)


@register.simple_tag
def explain(award_or_explanation, kind: str = "", amount=None):
    """``{% explain award %}`` for a ledger row, ``{% explain explanation kind amount %}`` for an award not
    posted yet (the preview) or a calculator's scale (no amount): the same sentences on every page."""
    if kind:
        return explanation_block(award_or_explanation, kind, amount)
    return award_block(award_or_explanation)
