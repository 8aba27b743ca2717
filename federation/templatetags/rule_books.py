"""``{% load rule_books %}``: the rule books the site computes by, as its footer names them."""

from __future__ import annotations

from django import template
from django.utils.text import get_text_list
from django.utils.translation import gettext as _

from federation.schemes import registered

register = template.Library()


@register.simple_tag
def rule_books() -> str:
    """Every registered rule book's title in the reader's language, in the registry's order: "DBf
    mesterpointregler 2023 and the HBS categorisation rules"."""
    return get_text_list([str(info.rule_book_title) for info in registered()], _("and"))
