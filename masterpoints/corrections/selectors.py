"""What the commission's decide page reads: the player's awards in the request's tournament, and a key of the
ledger entries a grant would post."""

from __future__ import annotations

import hashlib
import json

from django.db.models import QuerySet

from masterpoints.models import Award, CorrectionRequest


def tournament_awards(correction: CorrectionRequest) -> QuerySet[Award] | list[Award]:
    """The player's ledger rows of the request's tournament (results, reversals, corrections), oldest first;
    the request's award alone when it names no tournament."""
    rows = Award.objects.filter(player=correction.player_id).select_related("reverses").order_by("awarded_on", "pk")
    if correction.tournament_id is not None:
        return rows.filter(tournament=correction.tournament_id)
    return rows.filter(pk=correction.award_id) if correction.award_id else []


def plan_key(rows: list[Award]) -> str:
    """A key of the entries a grant would post (kind, units, source, what each reverses): the page sends it
    back with the decision, which is recorded only while the entries are still these (D-Q47)."""
    if not rows:
        return ""
    shape = [[row.kind, row.units, row.source, row.reverses_id] for row in rows]
    return hashlib.sha256(json.dumps(shape).encode()).hexdigest()[:32]
