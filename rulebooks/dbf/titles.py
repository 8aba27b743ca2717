"""A DBf player's title as the pages show it and what the next one needs (§ 404A–C with the § 404B
revaluation): the ``rung_status`` of DBf's rule book."""

from __future__ import annotations

from django.utils.translation import gettext_lazy, gettext_noop

from federation.schemes import SchemeInfo
from masterpoints.engine.common import KIND_DECIMALS, format_units
from masterpoints.engine.dbf.titles import Balance, missing_units, reached_with, title_for
from masterpoints.standings.titles import NextStep, TitleStatus, title_label, translated_when_shown


def title_progress(info: SchemeInfo, ladder, balances: tuple[int, ...], held) -> TitleStatus:
    """DBf § 404: the next title and, for each kind alone, the least amount that reaches it (§ 404B)."""
    shown, title, reached = held
    balance = Balance(*balances)
    status = title_for(balance.bp, balance.sp, balance.gp, ladder.rules)
    computed = title_label(status.title or "", status.stars)
    following = ladder.rung_of(shown + 1)
    step = None
    if following is not None:
        if status.next is not None and shown == status.rank:
            units_missing = dict(status.next.missing)
        else:  # a held title above the computed one: what the rung above the held one needs
            units_missing = {k: missing_units(balance, k, shown + 1, ladder.rules) for k in info.kinds}
        missing = [
            (kind, None if units_missing[kind] is None else _amount(units_missing[kind], kind)) for kind in info.kinds
        ]
        label = title_label(following.title, following.stars)
        reaches = {}
        for kind in info.kinds:
            gets = reached_with(balance, kind, units_missing[kind], ladder.rules)
            if gets is not None and title_label(*gets) != label:
                reaches[kind] = title_label(*gets)
        intro = gettext_lazy(
            "Still needed, any one of these alone (BP and SP count towards SP and GP at 20 : 1, § 404B):"
        )
        step = NextStep(label, missing, reaches=reaches, intro=intro)
    note = gettext_noop(
        "The points alone give %(computed)s today; a title or category once registered is never lost (§ 404, H-2)."
    )
    held_note = translated_when_shown(note, {"computed": computed or "–"})
    return TitleStatus(title, reached, computed, shown > status.rank, step, held_note=held_note)


def _amount(units: int, kind: str) -> str:
    return format_units(units, KIND_DECIMALS[kind])
