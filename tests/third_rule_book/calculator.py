"""The table rule book's public calculators: the table's points per place for a field (rule 1) and the title a
balance reaches (rule 2), with :func:`answer`, the computation that answers their requests."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.template import Template
from django.utils.translation import gettext_lazy as _

from masterpoints.engine.common import MAX_FIELD, check_fields, get_choice, get_int
from masterpoints.public.forms import CalculatorForm
from tests.third_rule_book.rules import TABLE_RULES, TableRuleSet
from tests.third_rule_book.titles import TableLadder


class TableScaleForm(CalculatorForm):
    """Rule 1: the TP per player for each place of a field of ``participants`` entries."""

    label = _("Table points")
    scheme = "tbl"

    prefix = "tbl"
    participants = forms.IntegerField(label=_("Entries in the field"), min_value=1, max_value=MAX_FIELD, initial=8)

    def engine_request(self) -> dict[str, Any]:
        return {"scheme": "tbl", "kind": "scale", "participants": self.cleaned_data["participants"]}


class TableTitleForm(CalculatorForm):
    """Rule 2: the title a total of TP reaches, and the TP the next title still needs."""

    label = _("Table title")
    scheme = "tbl"

    #: The answer as the page shows it; a compiled template, as the rule book brings no template folder.
    answer_template = Template(
        '<dl class="facts"><dt>Title</dt><dd>{{ answer.title|default:"no title yet" }}</dd>'
        "{% if answer.next %}<dt>Next title</dt><dd>{{ answer.next.title }}</dd>"
        "<dt>Still missing</dt><dd>{{ answer.next.missing }} TP</dd>{% endif %}</dl>"
    )
    prefix = "tbltitle"
    tp = forms.IntegerField(label=_("Table points (TP)"), min_value=0, initial=0)

    def engine_request(self) -> dict[str, Any]:
        return {"scheme": "tbl", "kind": "title", "tp": self.cleaned_data["tp"]}


def answer(request: Mapping[str, Any], rules: TableRuleSet = TABLE_RULES) -> dict[str, Any]:
    """The answer to a ``"scheme": "tbl"`` calculator request: ``scale`` (rule 1: the TP of each place of the
    field, as the other rule books' scales answer) or ``title`` (rule 2)."""
    kind = get_choice(request, "kind", ("scale", "title"))
    if kind == "scale":
        check_fields(request, ("scheme", "kind", "participants"), required=("participants",))
        participants = get_int(request, "participants", minimum=1, maximum=MAX_FIELD)
        awards = [rules.points_for_place(place) for place in range(1, participants + 1)]
        paid = sum(1 for units in awards if units)
        return {"places_paid": paid, "awards": [str(units) for units in awards[:paid]]}
    check_fields(request, ("scheme", "kind", "tp"), required=("tp",))
    total = get_int(request, "tp", minimum=0)
    ladder = TableLadder(rules)
    rung = ladder.computed((total,))
    following = ladder.rung_of(rung + 1)
    title = ladder.rung_of(rung).title if rung else None
    upcoming = None if following is None else {"title": following.title, "missing": rules.titles[rung][1] - total}
    return {"title": title, "next": upcoming}
