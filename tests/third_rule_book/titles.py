"""The table rule book's titles (rule 2): the ladder the standings judge a balance by, the player's title as the
pages show it and what the next title needs, and the list's order."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from django.utils.translation import gettext_lazy, gettext_noop

from federation.schemes import SchemeInfo
from masterpoints.engine.ladders import Rung
from masterpoints.standings.titles import NextStep, TitleStatus, title_label, translated_when_shown
from tests.third_rule_book.rules import TableRuleSet


class TableLadder:
    """Rule 2: the titles of one table rule set, lowest first; a balance reaches the highest whose threshold its
    total TP meets."""

    def __init__(self, rules: TableRuleSet) -> None:
        self.rules = rules
        self.rungs = tuple(Rung(number, title) for number, (title, _least) in enumerate(rules.titles, start=1))

    def rung_of(self, number: int) -> Rung | None:
        return self.rungs[number - 1] if 1 <= number <= len(self.rungs) else None

    def computed(self, balances: Sequence[int]) -> int:
        """Rule 2: the highest title (0 = none) whose least total TP ``(tp,)`` reaches; a negative balance is 0."""
        total = max(balances[0], 0)
        return sum(1 for _title, least in self.rules.titles if total >= least)

    def measures(self, number: int, balances: Sequence[int]) -> list[tuple[int, Fraction]]:
        """(have, needed) for title ``number``: the total TP against its threshold (rule 2)."""
        return [(balances[0], Fraction(self.rules.titles[number - 1][1]))]


def table_progress(info: SchemeInfo, ladder: TableLadder, balances: tuple[int, ...], held) -> TitleStatus:
    """Rule 2: the title shown and the TP still missing for the next one."""
    shown, title, reached = held
    (total,) = balances
    computed_rung = ladder.computed(balances)
    computed = title_label(ladder.rung_of(computed_rung).title, 0) if computed_rung else ""
    following = ladder.rung_of(max(shown, computed_rung) + 1)
    step = None
    if following is not None:
        least = ladder.rules.titles[following.rung - 1][1]
        step = NextStep(
            title_label(following.title, 0),
            [(kind, str(least - total)) for kind in info.kinds],
            intro=gettext_lazy("Still needed:"),
        )
    note = gettext_noop("The points alone give %(computed)s today; a title once reached is kept (rule 2).")
    held_note = translated_when_shown(note, {"computed": computed or "–"})
    return TitleStatus(title, reached, computed, shown > computed_rung, step, held_note=held_note)


def tp_sort_key(balances: tuple[int, ...], rung: int) -> int:
    """The list ranks by total TP (the title follows from it, rule 2)."""
    return balances[0]


def tp_season_key_sql(columns: tuple[str, ...]) -> str:
    """:func:`tp_sort_key` over a season's sum of TP in SQL."""
    return columns[0]
