"""The award ledger's writes: posting a confirmed tournament's awards and reversing them. Rows are only ever
added (design.md § Invariants); every write is audited by its caller's transaction."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from django.db import transaction

from federation.models import Player
from federation.services import audit_record
from masterpoints import explanation_store
from masterpoints.models import Award, AwardExplanation, AwardScale
from tournaments.models import Tournament


@dataclass(frozen=True)
class ResultEntry:
    """One award of a confirmed tournament: who, what kind, how many units, and the engine's explanation."""

    player: Player
    kind: str
    units: int
    part: str
    place_first: int | None
    place_last: int | None
    explanation: dict


def explanations_store(explanations: Sequence[tuple[Hashable, Mapping]]) -> list[int | None]:
    """The one writer of award explanations: each ``(group, explanation)`` stored as its group's shared
    scale and its own part (``masterpoints.explanation_store``); returns each one's
    ``Award.explanation_ref_id`` (``None`` for an empty explanation). Awards of one tournament part share a
    group; an award posted alone is a group of its own."""
    return explanation_store.store(AwardScale, AwardExplanation, explanations)


def explanation_ref(explanation: Mapping) -> int | None:
    """:func:`explanations_store` of one award's explanation, a group of its own."""
    return explanations_store([(None, explanation)])[0]


def _creator(actor):
    return actor if actor is not None and actor.is_authenticated else None


@transaction.atomic
def awards_post_results(*, actor, tournament: Tournament, entries: list[ResultEntry], reason: str = "") -> list[Award]:
    """Post the result awards of ``tournament``, dated by its date (the rule sets and seasons follow it);
    ``reason`` says where rows posted after the confirm come from (the upload a case of the office cites)."""
    refs = explanations_store([(entry.part[:100], entry.explanation) for entry in entries])
    return Award.objects.bulk_create(
        Award(
            federation_id=tournament.federation_id,
            player=entry.player,
            kind=entry.kind,
            units=entry.units,
            source=Award.Source.RESULT,
            tournament=tournament,
            part=entry.part[:100],
            place_first=entry.place_first,
            place_last=entry.place_last,
            explanation_ref_id=ref,
            reason=reason[:300],
            awarded_on=tournament.date,
            created_by=_creator(actor),
        )
        for entry, ref in zip(entries, refs, strict=True)
    )


@transaction.atomic
def awards_reverse_tournament(*, actor, tournament: Tournament, reason: str) -> int:
    """Post one reversing entry for every award of ``tournament`` not reversed yet; returns how many."""
    open_awards = Award.objects.filter(tournament=tournament, source=Award.Source.RESULT, reversed_by__isnull=True)
    reversals = [
        Award(
            federation_id=award.federation_id,
            player_id=award.player_id,
            kind=award.kind,
            units=-award.units,
            source=Award.Source.REVERSAL,
            tournament=tournament,
            part=award.part,
            place_first=award.place_first,
            place_last=award.place_last,
            reason=reason[:300],
            reverses=award,
            awarded_on=award.awarded_on,
            created_by=_creator(actor),
        )
        for award in open_awards
    ]
    Award.objects.bulk_create(reversals)
    audit_record(
        actor=actor,
        action="awards.reverse_tournament",
        target=tournament,
        payload={"count": len(reversals), "reason": reason},
    )
    return len(reversals)
