"""The group decision: which entries are ranked against each other (formats.md § 1.5.2).

Groups never span sessions. Inside a section, North-South and East-West are ranked separately when the
file says two winners (``WINNER_TYPE=2``) - unless the places run across both directions - and together
otherwise, unless the places restart for each direction. Sections are ranked separately when each
section's places form a ranking of their own, and as one field when only the places across all sections
do (the NZ three-section file ranks 1..66 across the field). Every decision taken against a declaration,
or on no evidence, is reported as ``GROUP_AMBIGUOUS``; a decision the places bear out is said, with its
reason, as ``GROUPS_DECIDED`` (one field counts all its entries for masterpoints, separate sections
count each their own).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from tournaments.issues import IssueList, Location

from .draft import DraftEntry, DraftEvent
from .places import competition_ranking

#: ((session, section, direction), entries)
Partition = list[tuple[tuple[str | None, str | None, str | None], list[DraftEntry]]]


def places_ok(entries: list[DraftEntry]) -> bool | None:
    """Whether the entries' places form a ranking; ``None`` when some place is missing (no evidence)."""
    if not entries or any(e.place is None for e in entries):
        return None
    return competition_ranking(e.place for e in entries if e.place is not None) is None


def _split_directions(
    entries: list[DraftEntry], winner_type: int | None, issues: IssueList, where: Location
) -> list[tuple[str | None, list[DraftEntry]]]:
    whole: list[tuple[str | None, list[DraftEntry]]] = [(None, entries)]
    if not all(e.direction in ("NS", "EW") for e in entries):
        if winner_type == 2 and len(entries) > 1:
            issues.add("GROUP_AMBIGUOUS", where, variant="no_direction")
        return whole
    split: list[tuple[str | None, list[DraftEntry]]] = [
        (direction, [e for e in entries if e.direction == direction])
        for direction in ("NS", "EW")
        if any(e.direction == direction for e in entries)
    ]
    split_ok = _all_ok(group for _, group in split)
    whole_ok = places_ok(entries)
    if winner_type == 2:
        if split_ok is False and whole_ok is True:
            issues.add("GROUP_AMBIGUOUS", where, variant="joined_by_places")
            return whole
        return split
    if winner_type == 1:
        if whole_ok is False and split_ok is True:
            issues.add("GROUP_AMBIGUOUS", where, variant="split_by_places")
            return split
        return whole
    if whole_ok is False and split_ok is True:
        return split
    return whole


def _all_ok(groups: Iterable[list[DraftEntry]]) -> bool | None:
    results = [places_ok(group) for group in groups]
    if any(r is None for r in results):
        return None
    return all(results)


def _sizes_text(parts: tuple[tuple[str | None, str | None, int], ...]) -> str:
    words = {"NS": _("North-South"), "EW": _("East-West")}
    texts = []
    for section, direction, size in parts:
        label = " ".join(str(p) for p in (section, words.get(direction or "", "")) if p)
        texts.append(f"{label} {size}" if label else str(size))
    return ", ".join(texts)


sizes_text = lazy(_sizes_text, str)


def _decided(issues: IssueList, variant: str, sections: list[str | None], groups: Partition) -> None:
    parts = tuple((key[1], key[2], len(entries)) for key, entries in groups)
    names = ", ".join(section or "?" for section in sections)
    issues.add(
        "GROUPS_DECIDED",
        groups[0][1][0].where,
        variant=variant,
        count=len(sections),
        names=names,
        groups=sizes_text(parts),
    )


def partition(draft: DraftEvent, entries: list[DraftEntry], issues: IssueList) -> Partition:
    """[((session, section, direction), entries)] in file order."""
    by_session: dict[str | None, dict[str | None, list[DraftEntry]]] = {}
    for entry in entries:
        by_session.setdefault(entry.session, {}).setdefault(entry.section, []).append(entry)
    result: Partition = []
    for session, sections in by_session.items():
        per_section: dict[str | None, list[tuple[str | None, list[DraftEntry]]]] = {}
        for section, section_entries in sections.items():
            winner_type = (
                draft.winner_types.get((session, section))
                or draft.winner_types.get((session, None))
                or draft.winner_types.get((None, None))
            )
            per_section[section] = _split_directions(section_entries, winner_type, issues, section_entries[0].where)
        separate = [((session, section, d), group) for section, groups in per_section.items() for d, group in groups]
        if len(sections) > 1 and draft.merge_sections:
            all_split = all(len(groups) > 1 or groups[0][0] is not None for groups in per_section.values())
            if all_split:
                merged = [
                    ((session, None, d), [e for gs in per_section.values() for dd, g in gs if dd == d for e in g])
                    for d in ("NS", "EW")
                ]
                merged = [(k, g) for k, g in merged if g]
            else:
                merged = [((session, None, None), [e for group in sections.values() for e in group])]
            separate_ok = _all_ok(group for _, group in separate)
            merged_ok = _all_ok(group for _, group in merged)
            if merged_ok is True and separate_ok is not True:
                _decided(issues, "", list(sections), merged)
                result.extend(merged)
                continue
            if separate_ok is not True:
                issues.add("GROUP_AMBIGUOUS", separate[0][1][0].where)
            else:
                _decided(issues, "per_section", list(sections), separate)
        result.extend(separate)
    return result
