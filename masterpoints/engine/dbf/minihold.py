"""The placing of a mini-team row with byes (§ 421B; ``dbf.md`` § 2.8).

§ 421B: "Ved et ulige antal hold kan der af hensyn til MP-uddelingen gives en erstatningsscore (fx 13 KP
ved 20/0-skalaen (§ 202A)) til oversidderhold." A team sitting out a round scores nothing in it, so a row
with byes is ranked for the § 406B award on each team's VP with every bye counted as a substitute score
(D-Q23): the score the results file gives the bye, or else the rule set's ``minihold_bye_vp`` (13 VP of the
20/0 scale, the example of § 421B). Equal totals share their places (§ 405B3). A row without a bye, or a
rule set without a bye score, keeps the places the file gives.

D-Q23 (revised): § 421B says a substitute score "kan" (may) be given: it is the organiser's
choice, not a rule of the rule book. The caller passes ``bye_vp`` (the score the organiser gave byes) or leaves
the row's rounds out, and the file's places stand; the rule set's ``minihold_bye_vp`` (13 VP, § 421B's own
example) is only the score a request that gives rounds without a ``bye_vp`` counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from masterpoints.engine.common import RequestError
from masterpoints.engine.dbf.rules import DBF_2023, DbfRuleSet
from masterpoints.engine.dbf.scale import fmt


@dataclass(frozen=True)
class TeamRound:
    """One mini-team's score in one round: ``vp`` of the 20/0 scale for a match played; for a bye
    (``bye``), the substitute score the file gives it, or ``None`` when it gives none."""

    entry: str
    round: str
    vp: Fraction | None
    bye: bool = False


@dataclass(frozen=True)
class ByeRanking:
    """The row's places by VP with the byes' substitute scores: ``places`` (first, last) per entry key;
    ``totals`` the VP counted and ``byes`` the rounds sat out, per entry; ``bye_vp`` the rule set's score."""

    places: dict[str, tuple[int, int]]
    totals: dict[str, Fraction]
    byes: dict[str, int]
    bye_vp: Fraction

    def inputs(self, entry: str) -> tuple[tuple[str, str], ...]:
        """The explanation's inputs for ``entry``: its VP with the byes, the byes and the bye score."""
        return (("VP", fmt(self.totals[entry])), ("byes", str(self.byes[entry])), ("bye_VP", fmt(self.bye_vp)))


def bye_ranking(
    entries: Sequence[str],
    rounds: Sequence[TeamRound],
    rules: DbfRuleSet = DBF_2023,
    *,
    at: str = "rounds",
    bye_vp: Fraction | None = None,
) -> ByeRanking | None:
    """The row ``entries`` (entry keys) ranked on VP with a substitute score for every bye (§ 421B, D-Q23):
    ``bye_vp``, the organiser's, else the rule set's; ``None`` when no round is a bye or there is no bye score
    (the file's places stand)."""
    if bye_vp is None:
        bye_vp = rules.minihold_bye_vp
    elif not 0 <= bye_vp <= rules.vp_scale_max:
        raise RequestError("bye_vp", f"a bye score lies on the 0–{fmt(rules.vp_scale_max)} VP scale (§ 421B)")
    if bye_vp is None or not any(item.bye for item in rounds):
        return None
    totals = {entry: Fraction(0) for entry in entries}
    byes = dict.fromkeys(entries, 0)
    for i, item in enumerate(rounds):
        where = f"{at}[{i}]"
        if item.entry not in totals:
            raise RequestError(where, f"round {item.round}: {item.entry} is not a team of this row")
        vp = item.vp
        if vp is None and not item.bye:
            raise RequestError(
                where,
                f"round {item.round}: {item.entry} has no VP; a row with a bye is ranked on VP with "
                f"{fmt(bye_vp)} VP for each bye (§ 421B, D-Q23): give the VP of every match",
            )
        if vp is not None and not 0 <= vp <= rules.vp_scale_max:
            raise RequestError(
                where, f"round {item.round}: {fmt(vp)} VP lies outside the 0–{fmt(rules.vp_scale_max)} scale (§ 421B)"
            )
        totals[item.entry] += bye_vp if vp is None else vp
        byes[item.entry] += 1 if item.bye else 0
    order = sorted(totals.values(), reverse=True)
    places = {}
    for entry, total in totals.items():
        first = order.index(total) + 1
        places[entry] = (first, first + order.count(total) - 1)
    return ByeRanking(places, totals, byes, bye_vp)
