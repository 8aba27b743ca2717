"""``{% award_line award %}``: an award on the tournament's page, said of the player whose line it is, not to the
reader (never "You finished…", which would address every reader). The group's scale is shown once
above its table; each line names the amount and its part, with the variables behind "details"."""

from __future__ import annotations

from html import escape

from django import template
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from masterpoints.award_text import why_block
from masterpoints.explanations import explanation_html
from masterpoints.numbers import kind_label, shown_amount

register = template.Library()


@register.simple_tag
def award_line(award, withdrawn: bool = False) -> SafeString:
    """The amount and kind, the part (day, row, match, bonus) where there is one; struck through with a note
    where the tournament was withdrawn or the award was reversed."""
    explanation = award.explanation_data
    amount = f"{shown_amount(award.amount)} {kind_label(award.kind)}"
    text = f"{amount} ({escape(award.part)})" if award.part else amount
    if withdrawn:
        text = f'<s>{text}</s> <small class="tag">{escape(_("withdrawn"))}</small>'
    elif getattr(award, "is_reversed", False):
        text = f'<s>{text}</s> <small class="tag">{escape(_("reversed"))}</small>'
    table = explanation_html(explanation, award.kind) if explanation.get("rules") or explanation.get("inputs") else ""
    return why_block(text, table)
