"""An HBS player's category as the pages show it and what the next one needs (H-2, transition rule 4 with
H-24): the ``rung_status`` of HBS's rule book."""

from __future__ import annotations

from django.utils.translation import gettext_lazy, gettext_noop

from federation.schemes import SchemeInfo
from masterpoints.engine.hbs.categories import category_for
from masterpoints.engine.hbs.rules import KEPT_TRANSITION_RULE_4
from masterpoints.standings.titles import NextStep, TitleStatus, title_label, translated_when_shown


def category_progress(info: SchemeInfo, ladder, balances: tuple[int, ...], held) -> TitleStatus:
    """HBS H-2: the next category needs every kind's missing points (they never convert)."""
    shown, title, reached = held
    black, red, master = balances
    kept = ladder.rung_of(shown).title if shown and ladder.rung_of(shown) else None
    status = category_for(black, red, master, ladder.rules, held=kept)
    step = None
    if status.next is not None:
        step = NextStep(
            title_label(status.next.category, 0),
            [(kind, str(status.next.missing_of(kind))) for kind in info.kinds],
            every_kind_needed=True,
            intro=gettext_lazy("Still needed (all of them; the kinds never convert):"),
            cheapest=title_label(status.cheapest.category, 0) if status.cheapest else "",
        )
    computed = title_label(status.computed or "", 0)
    if ladder.rules.categories_kept == KEPT_TRANSITION_RULE_4:
        # H-24: "Igrači s kategorijama, koji ne budu zadovoljavali nove uvjete, zadržavaju svoje kategorije"
        # (transition rule 4): the only categories kept above the points; DBf's § 404 is no HBS rule.
        note = gettext_noop(
            "The points alone give %(computed)s today; the category was kept under transition rule 4 (H-24)."
        )
    else:
        note = gettext_noop("The points alone give %(computed)s today; a category once registered is kept (H-2).")
    held_above = (status.computed or None) != status.category
    held_note = translated_when_shown(note, {"computed": computed or "–"})
    return TitleStatus(title, reached, computed, held_above, step, held_note=held_note)
