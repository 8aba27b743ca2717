"""A player's title or category as the pages show it, and what the next one needs (§ 404, H-2): the player's
page, the API, the monthly statement and the title letter read it here."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from federation.models import Player
from federation.schemes import SchemeInfo
from masterpoints.engine.common import KIND_DECIMALS, format_units
from masterpoints.engine.dbf.titles import Balance, missing_units, reached_with, title_for
from masterpoints.engine.hbs.categories import category_for
from masterpoints.engine.hbs.rules import KEPT_TRANSITION_RULE_4
from masterpoints.models import Standing
from masterpoints.standings.ladders import LadderBook


def title_label(title: str, stars: int) -> str:
    """``Kredsmester ★★``; an HBS category as it is written (``tref ekspert``)."""
    if not title:
        return ""
    return f"{title[0].upper()}{title[1:]}" + (f" {'★' * stars}" if stars else "")


@dataclass
class NextStep:
    """The next title or category and what is still missing for it, per kind (amounts as shown)."""

    title: str
    missing: list[tuple[str, str | None]] = field(default_factory=list)
    every_kind_needed: bool = False
    cheapest: str = ""
    #: Per kind, the title its missing amount reaches where that is higher than ``title`` (DBf: Klubmester ★★
    #: is reached by BP alone, and 417 BP may reach Distriktsmester before 1,447 BP reach it).
    reaches: dict[str, str] = field(default_factory=dict)

    @property
    def rows(self) -> list[tuple[str, str | None, str]]:
        """``(kind, amount, reaches)``: ``reaches`` is empty where the amount reaches ``title`` itself."""
        return [(kind, amount, self.reaches.get(kind, "")) for kind, amount in self.missing]


@dataclass
class TitleStatus:
    title: str
    reached_on: datetime.date | None
    computed: str
    held_above_computed: bool
    next: NextStep | None
    #: What the holder of the title shown receives (§ 404A "Modtager", D-Q22); empty where none is named.
    etui: str = ""
    #: Why a rung above the computed one is shown, where the rule book says it otherwise than DBf's § 404 (HBS:
    #: transition rule 4 kept it, H-24); empty: the page's § 404 sentence.
    held_note: str = ""


def title_status(player: Player, standing: Standing | None, *, book: LadderBook | None = None) -> TitleStatus:
    """The title or category shown (the higher of computed and held: § 404, H-2) and what the next needs.

    DBf: for each kind alone, the least amount that reaches the next title (§ 404B revaluation included).
    HBS: every kind's missing points are needed (they never convert), and the cheapest higher row.
    ``book``: the federation's ladders, where the caller judges more than one player or title.
    """
    info = player.federation.scheme_info
    book = book or LadderBook(player.federation)
    ladder = book.on(standing.last_award_on if standing else None)
    balances = tuple(max(0, getattr(standing, k.lower(), 0) if standing else 0) for k in info.kinds)
    held = (
        standing.title_rung if standing else 0,
        title_label(standing.title, standing.stars) if standing else "",
        standing.title_reached_on if standing else None,
    )
    status = info.rung_status(info, ladder, balances, held)
    status.etui = rung_etui(book, held[0], held[2])
    return status


def rung_etui(book: LadderBook, rung: int, reached_on: datetime.date | None) -> str:
    """What the holder of ``rung`` receives (§ 404A "Modtager", D-Q22), by the ladder in force on the day it
    was reached; empty for no rung or where the rule set names nothing."""
    step = book.on(reached_on).rung_of(rung) if rung else None
    return step.etui if step is not None else ""


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
        step = NextStep(label, missing, reaches=reaches)
    return TitleStatus(title, reached, computed, shown > status.rank, step)


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
            cheapest=title_label(status.cheapest.category, 0) if status.cheapest else "",
        )
    computed = title_label(status.computed or "", 0)
    if ladder.rules.categories_kept == KEPT_TRANSITION_RULE_4:
        # H-24: "Igrači s kategorijama, koji ne budu zadovoljavali nove uvjete, zadržavaju svoje kategorije"
        # (transition rule 4): the only categories kept above the points; DBf's § 404 is no HBS rule.
        note = _("The points alone give %(computed)s today; the category was kept under transition rule 4 (H-24).")
    else:
        note = _("The points alone give %(computed)s today; a category once registered is kept (H-2).")
    held_above = (status.computed or None) != status.category
    return TitleStatus(title, reached, computed, held_above, step, held_note=note % {"computed": computed or "–"})


def _amount(units: int, kind: str) -> str:
    return format_units(units, KIND_DECIMALS[kind])
