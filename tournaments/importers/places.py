"""Places and ties of one ranking group, and the checks of places against scores.

Places: competition ranking ("1, 2, 3, 3, 5"); an entry tied on place *p* with *k - 1* others covers
places *p* .. *p + k - 1* (formats.md § 1.5.1). The ranking key is the percentage when every entry of
a group has one (MP pairs with unequal board counts are ranked on it), otherwise the score (IMPs may be
negative, formats.md § 1.5.6); higher is better in every scoring we read. A file without places is
ranked on that key, and so is a handicap event, on the scratch result.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from decimal import Decimal

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from tournaments.issues import IssueList

from .draft import DraftEntry


def competition_ranking(places: Iterable[int]) -> tuple[int, int, int] | None:
    """``None`` when the places form a competition ranking (1, 2, 3, 3, 5), else the first break as
    (previous place or 0, expected place, found place)."""
    ordered = sorted(places)
    for index, place in enumerate(ordered):
        if place == index + 1:
            continue
        if index and place == ordered[index - 1]:
            continue
        return (ordered[index - 1] if index else 0), index + 1, place
    return None


def places_from_keys(entries: list[DraftEntry], key: Callable[[DraftEntry], Decimal]) -> dict[int, int]:
    """Competition ranking by ``key`` (higher is better), as ``id(entry) -> place``."""
    ordered = sorted(entries, key=key, reverse=True)
    places: dict[int, int] = {}
    for index, entry in enumerate(ordered):
        if index and key(entry) == key(ordered[index - 1]):
            places[id(entry)] = places[id(ordered[index - 1])]
        else:
            places[id(entry)] = index + 1
    return places


def _ranking_key(entries: list[DraftEntry]) -> tuple[str | None, Callable[[DraftEntry], Decimal] | None]:
    """(``percentage`` or ``score``, the key) when every entry has that value, else ``(None, None)``."""
    if entries and all(e.percentage is not None for e in entries):
        return "percentage", lambda e: e.percentage  # type: ignore[return-value]
    if entries and all(e.score is not None for e in entries):
        return "score", lambda e: e.score  # type: ignore[return-value]
    return None, None


def rank_group(
    entries: list[DraftEntry], *, handicap: bool, label: Promise, group_key: str, issues: IssueList
) -> tuple[dict[int, tuple[int | None, int | None]], str]:
    """Places per entry (``id -> (first, last)``) and how they were found (``place`` or ``score``).

    Guarantees: a handicap group with a ranking key is ranked on it (``HANDICAP_RANKED_ON_SCRATCH``);
    a group without any place is ranked on its key (``PLACE_MISSING``) or left unranked when it has none
    (``PLACE_MISSING`` / ``no_score``, every place ``None``); otherwise the file's places are kept and
    checked (missing places, the ranking sequence, tie marks, places against scores). Tied entries cover
    the places they share: ``(p, p + k - 1)``.
    """
    basis, key = _ranking_key(entries)
    ranked_by = "place"
    where = entries[0].where
    places: dict[int, int | None]
    if handicap and key is not None:
        computed = places_from_keys(entries, key)
        changed = sum(1 for e in entries if e.place is not None and e.place != computed[id(e)])
        issues.add("HANDICAP_RANKED_ON_SCRATCH", where, group=label, group_key=group_key, changed=changed)
        places = dict(computed)
        ranked_by = "score"
    elif all(e.place is None for e in entries) and not any(e.place_bad for e in entries):
        if key is not None:
            places = dict(places_from_keys(entries, key))
            basis_label = _("percentages") if basis == "percentage" else _("scores")
            issues.add("PLACE_MISSING", where, group=label, group_key=group_key, basis=basis_label)
            ranked_by = "score"
        else:
            issues.add("PLACE_MISSING", where, variant="no_score", group=label, group_key=group_key)
            places = {id(e): None for e in entries}
    else:
        places = {id(e): e.place for e in entries}
        missing = [e for e in entries if e.place is None and not e.place_bad]
        for entry in missing:
            issues.add(
                "PLACE_MISSING", entry.where, variant="partial", entry=entry.label, group=label, group_key=group_key
            )
        if not missing and not any(e.place_bad for e in entries):
            broken = competition_ranking(e.place for e in entries if e.place is not None)
            if broken is not None:
                after, expected, found = broken
                issues.add(
                    "PLACE_SEQUENCE_INCONSISTENT",
                    where,
                    group=label,
                    group_key=group_key,
                    after=after if after else _("the start"),
                    expected=expected,
                    found=found,
                )
        _check_tie_marks(entries, label, group_key, issues)
        if key is not None:
            _check_against_scores(entries, key, issues)
    counts = Counter(p for p in places.values() if p is not None)
    ranges: dict[int, tuple[int | None, int | None]] = {}
    for entry in entries:
        place = places[id(entry)]
        ranges[id(entry)] = (place, place + counts[place] - 1) if place is not None else (None, None)
    return ranges, ranked_by


def _check_tie_marks(entries: list[DraftEntry], label: Promise, group_key: str, issues: IssueList) -> None:
    counts = Counter(e.place for e in entries if e.place is not None)
    for entry in entries:
        if entry.tie_mark and entry.place is not None and counts[entry.place] == 1:
            issues.add(
                "TIE_MARK_UNMATCHED",
                entry.where,
                entry=entry.label,
                value=entry.place_text,
                group=label,
                group_key=group_key,
            )


def _check_against_scores(entries: list[DraftEntry], key: Callable[[DraftEntry], Decimal], issues: IssueList) -> None:
    placed = sorted((e for e in entries if e.place is not None), key=lambda e: e.place)  # type: ignore[arg-type,return-value]
    levels: dict[int, list[DraftEntry]] = defaultdict(list)
    for entry in placed:
        levels[entry.place].append(entry)  # type: ignore[index]
    lowest_better: DraftEntry | None = None
    for place in sorted(levels):
        level = levels[place]
        for entry in level:
            if lowest_better is not None and key(entry) > key(lowest_better):
                issues.add(
                    "PLACES_CONTRADICT_SCORES",
                    entry.where,
                    entry=entry.label,
                    place=entry.place,
                    score=str(key(entry)),
                    other_entry=lowest_better.label,
                    other_place=lowest_better.place,
                    other_score=str(key(lowest_better)),
                )
        first = level[0]
        for other in level[1:]:
            if key(other) != key(first):
                issues.add(
                    "TIE_SCORES_DIFFER",
                    other.where,
                    entry=first.label,
                    other_entry=other.label,
                    place=place,
                    score=str(key(first)),
                    other_score=str(key(other)),
                )
        level_lowest = min(level, key=key)
        if lowest_better is None or key(level_lowest) < key(lowest_better):
            lowest_better = level_lowest
    seen: dict[Decimal, DraftEntry] = {}
    for entry in placed:
        earlier = seen.setdefault(key(entry), entry)
        if earlier is not entry and earlier.place != entry.place:
            issues.add(
                "TIE_NOT_SHARED",
                entry.where,
                entry=earlier.label,
                other_entry=entry.label,
                score=str(key(entry)),
                place=earlier.place,
                other_place=entry.place,
            )
