"""A player's title or category as the pages show it, and what the next one needs (§ 404, H-2): the player's
page, the API, the monthly statement and the title letter read it here."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.utils.functional import lazy
from django.utils.translation import gettext

from federation.models import Player
from masterpoints.models import Standing
from masterpoints.standings.ladders import LadderBook


def title_label(title: str, stars: int) -> str:
    """``Kredsmester ★★``; an HBS category as it is written (``tref ekspert``)."""
    if not title:
        return ""
    return f"{title[0].upper()}{title[1:]}" + (f" {'★' * stars}" if stars else "")


def _translate(msgid: str, values: dict) -> str:
    return gettext(msgid) % values


#: ``gettext(msgid) % values`` in the language active where the text is shown (a page, or a mail rendered under
#: the reader's language), not the one active when the status was built; ``msgid`` marked by ``gettext_noop``.
translated_when_shown = lazy(_translate, str)


@dataclass
class NextStep:
    """The next title or category and what is still missing for it, per kind (amounts as shown)."""

    title: str
    missing: list[tuple[str, str | None]] = field(default_factory=list)
    every_kind_needed: bool = False
    #: How a page introduces the missing amounts (the rule book's words: any one kind alone, or all).
    intro: str = ""
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
    #: Why a rung above the computed one is shown, in the rule book's words (DBf § 404; HBS H-2, or transition
    #: rule 4 with H-24).
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
    balances = tuple(max(0, standing.points(k) if standing else 0) for k in info.kinds)
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
