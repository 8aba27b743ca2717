"""The table rule book's upload adapter (rule 1): every entry's place in its ranking group looked up in the table,
the same TP for each player of the pair or team."""

from __future__ import annotations

from fractions import Fraction

from federation.rulesets import rules_for
from masterpoints.engine.common import Explanation, PlayerAward, ceil_units, tie_share
from masterpoints.uploads.lines import Preview
from masterpoints.uploads.scoring import ScoringResult, note_groups_awarding_nothing
from tests.third_rule_book.rules import TP, TableRuleSet


def place_points(rules: TableRuleSet, first: int, last: int) -> int:
    """Rule 1: the TP each player of an entry placed ``first``…``last`` receives: the table's value of the place,
    or for a tie the table's values of the tied places shared equally, rounded up to a whole TP."""
    return ceil_units(tie_share(lambda place: Fraction(rules.points_for_place(place)), first, last))


def score_table(preview: Preview) -> ScoringResult:
    """Rule 1 over every ranking group of the file, under the rule set valid on the event's date."""
    rules = rules_for(preview.upload.federation, preview.event.date)
    result = ScoringResult()
    for group in preview.groups:
        for line in group.entries:
            entry = line.entry
            if entry.place_first is None:
                continue
            first, last = entry.place_first, entry.place_last or entry.place_first
            units = place_points(rules, first, last)
            place = str(first) if first == last else f"{first}–{last}"
            explanation = Explanation(rules=("table rule 1",), inputs=(("place", place), (TP, str(units))))
            result.awards += [PlayerAward(player.key, entry.key, TP, units, explanation) for player in line.players]
    note_groups_awarding_nothing(preview, result)
    return result
