"""Reads the HBS transition's imports (rule 4) and its what-if run (rule 8) share: ledger balances and the
rank of a category in the table (H-2)."""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Sum

from federation.models import Federation
from masterpoints.engine.hbs.rules import KINDS, HbsRuleSet
from masterpoints.models import Award


def ledger_balances(federation: Federation, player_ids) -> dict[int, dict[str, int]]:
    """Player id → kind → the sum of the player's ledger rows (every source, reversals included) for the
    HBS kinds; a player without rows reads as 0 of each kind. ``player_ids`` may be a list or a subquery."""
    sums: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(KINDS, 0))
    for player_id, kind, total in (
        Award.objects.filter(federation=federation, player_id__in=player_ids)
        .values("player_id", "kind")
        .annotate(total=Sum("units"))
        .values_list("player_id", "kind", "total")
    ):
        if kind in KINDS:
            sums[player_id][kind] = total
    return sums


def category_rank(rules: HbsRuleSet, name: str | None) -> int:
    """The rung of category ``name`` in the table of ``rules`` (H-2), 1 the lowest; 0 for no category."""
    names = [row[0] for row in rules.category_minimums()]
    return names.index(name) + 1 if name in names else 0
