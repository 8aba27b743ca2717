"""From a reader's draft to the frozen event: the entry and event checks all formats share.

Format readers fill a mutable :class:`~.draft.DraftEvent`; :func:`finalise` turns it into the frozen
:class:`~.model.ParsedEvent`, adding every issue it finds on the way (never stopping at the first).

The group decision lives in :mod:`.grouping`, places and ties of one group in :mod:`.places`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from django.utils.functional import Promise, lazy
from django.utils.translation import gettext_lazy as _

from tournaments.issues import IssueList, Location

from .draft import DraftEntry, DraftEvent
from .grouping import partition as decide_groups
from .matches import check_matches, team_boards_from_matches
from .model import Entry, Match, ParsedEvent, Participant, RankingGroup
from .places import rank_group
from .text import report_mojibake

FORM_LABELS = {"pairs": _("pairs"), "individual": _("individual"), "teams": _("teams")}
EXPECTED_PLAYERS = {"pairs": (2, 2), "individual": (1, 1), "teams": (4, 6)}

_PHANTOM_NAME = re.compile(
    r"^\s*(phantom|fantom|ghost|sit[\s_-]*out|bye|pause|pauza|oversidder|slobodan|-+|\?+)\s*(pair|par|team)?\s*$",
    re.IGNORECASE,
)


def _group_label_text(session: str | None, section: str | None, direction: str | None) -> str:
    parts = []
    if session:
        parts.append(str(_("session %(session)s") % {"session": session}))
    if section:
        parts.append(str(_("section %(section)s") % {"section": section}))
    if direction == "NS":
        parts.append(str(_("North-South")))
    elif direction == "EW":
        parts.append(str(_("East-West")))
    return ", ".join(parts) if parts else str(_("the whole field"))


group_label: Callable[..., Promise] = lazy(_group_label_text, str)


# --- entry checks ---------------------------------------------------------------------------------


def _phantom_reason(entry: DraftEntry) -> str | None:
    if entry.phantom_reason:
        return entry.phantom_reason
    if entry.players and all(
        p.national_id is None and (not p.name or _PHANTOM_NAME.match(p.name)) for p in entry.players
    ):
        names = [p.name for p in entry.players if p.name]
        if names:
            return names[0]
    if entry.name and _PHANTOM_NAME.match(entry.name) and all(p.national_id is None for p in entry.players):
        return entry.name
    if not entry.players and entry.boards_played == 0:
        return "0 boards"
    return None


def _check_players(draft: DraftEvent, entry: DraftEntry, issues: IssueList) -> None:
    if not entry.players:
        issues.add("ENTRY_NO_PLAYERS", entry.where, entry=entry.label)
        return
    low, high = EXPECTED_PLAYERS[draft.form]
    if not low <= len(entry.players) <= high:
        expected = str(low) if low == high else f"{low}-{high}"
        issues.add(
            "PLAYER_COUNT_UNUSUAL",
            entry.where,
            entry=entry.label,
            count=len(entry.players),
            form=FORM_LABELS[draft.form],
            expected=expected,
        )
    for player in entry.players:
        if not player.name:
            issues.add("NAME_MISSING", player.where, entry=entry.label)
        if draft.check_ids and player.national_id is None:
            issues.add("ID_MISSING", player.where, name=player.name or "?", entry=entry.label)


def _check_duplicate_ids(groups: list[tuple[tuple, list[DraftEntry]]], issues: IssueList) -> None:
    """``ID_DUPLICATE_IN_EVENT`` for a membership number used twice in one session (in any entries)."""
    seen: dict[tuple[str | None, str], tuple[Participant, DraftEntry]] = {}
    for (session, _section, _direction), entries in groups:
        for entry in entries:
            for player in entry.players:
                if player.national_id is None:
                    continue
                key = (session, player.national_id)
                if key in seen:
                    other, other_entry = seen[key]
                    issues.add(
                        "ID_DUPLICATE_IN_EVENT",
                        player.where,
                        national_id=player.national_id,
                        name=player.name,
                        entry=entry.label,
                        other_name=other.name,
                        other_entry=other_entry.label,
                    )
                else:
                    seen[key] = (player, entry)


def _natural(number: str) -> tuple[int, str]:
    return (int(number), "") if number.isdecimal() else (10**9, number)


# --- the whole event ------------------------------------------------------------------------------


def finalise(draft: DraftEvent, issues: IssueList) -> ParsedEvent | None:
    """Check ``draft`` and freeze it; ``None`` only when there are no entries at all (``NO_ENTRIES``).

    Guarantees: phantoms are left out (``ENTRY_PHANTOM``); entry keys are unique (later duplicates
    dropped with ``ENTRY_DUPLICATE``); every entry is in exactly one group; places cover ties; every
    shared check (ids, places, scores, ties, matches, boards, mojibake) has added its issues, in this
    order: numbers and phantoms, duplicates, players and event facts, groups and places, texts.
    """
    entries = _field_entries(draft, issues)
    if not entries:
        issues.add("NO_ENTRIES", draft.where)
        return None
    entries = _unique_entries(entries, issues)
    matches = _check_event(draft, entries, issues)
    groups, sessions = _ranked_groups(draft, entries, issues)
    _check_texts(draft, entries, issues)
    return _frozen_event(draft, groups, matches, sessions)


def _field_entries(draft: DraftEvent, issues: IssueList) -> list[DraftEntry]:
    """The draft's entries that count in the field, in file order.

    Guarantees: every entry of the draft has a number afterwards (a missing one becomes its position in
    the file, ``ENTRY_NUMBER_MISSING``); phantoms and sit-outs are reported (``ENTRY_PHANTOM``) and
    left out of the list; so are the entries the file does not rank, named in one ``ENTRIES_UNRANKED``.
    """
    entries: list[DraftEntry] = []
    unranked: list[DraftEntry] = []
    for position, entry in enumerate(draft.entries, start=1):
        if not entry.number:
            entry.number = str(position)
            issues.add("ENTRY_NUMBER_MISSING", entry.where, entry=entry.label)
        reason = _phantom_reason(entry)
        if reason:
            issues.add("ENTRY_PHANTOM", entry.where, entry=entry.label, reason=reason)
        elif entry.unranked:
            unranked.append(entry)
        else:
            entries.append(entry)
    if unranked:
        named = "; ".join(
            f"{e.label} ({' - '.join(p.name for p in e.players if p.name)})" if e.players else e.label for e in unranked
        )
        issues.add(
            "ENTRIES_UNRANKED",
            unranked[0].where,
            variant="moved" if draft.unranked_shifted else "",
            count=len(unranked),
            entries=named,
            numbers=", ".join(e.number or "" for e in unranked),
        )
    return entries


def _unique_entries(entries: list[DraftEntry], issues: IssueList) -> list[DraftEntry]:
    """``entries`` with unique keys: the first of each key is kept, every later one is reported
    (``ENTRY_DUPLICATE``) and dropped; the order is kept."""
    unique: list[DraftEntry] = []
    keys: set[str] = set()
    for entry in entries:
        if entry.key in keys:
            issues.add(
                "ENTRY_DUPLICATE",
                entry.where,
                entry=entry.label,
                group=group_label(entry.session, entry.section, entry.direction),
            )
            continue
        keys.add(entry.key)
        unique.append(entry)
    return unique


def _check_event(draft: DraftEvent, entries: list[DraftEntry], issues: IssueList) -> tuple[Match, ...]:
    """The matches to keep, after the checks of the players, the event's facts and the matches.

    Guarantees: every entry's players are checked (count, names, ids); a missing event name and declared
    boards that differ from the boards counted are reported; matches naming unknown teams or a team
    twice in a round are reported, and a match listed from both sides is kept once; in a team event, a
    team without boards played gets the boards of its matches when all of them are known.
    """
    for entry in entries:
        _check_players(draft, entry, issues)
    if not draft.name:
        issues.add("EVENT_NAME_MISSING", draft.where)
    declared, counted = draft.boards_declared, draft.boards_played
    if declared is not None and counted is not None and declared != counted:
        issues.add(
            "BOARDS_DECLARED_DIFFER",
            draft.where,
            variant=draft.boards_declared_from,
            declared=declared,
            counted=counted,
        )
    matches = check_matches(draft, entries, issues) if draft.matches else ()
    if draft.form == "teams" and matches:
        team_boards = team_boards_from_matches(matches)
        for entry in entries:
            if entry.boards_played is None and entry.number in team_boards:
                entry.boards_played = team_boards[entry.number]
    return matches


def _ranked_groups(
    draft: DraftEvent, entries: list[DraftEntry], issues: IssueList
) -> tuple[tuple[RankingGroup, ...], int]:
    """The frozen ranking groups in file order, and the number of sessions (at least 1).

    Guarantees: every entry is in exactly one group (:func:`~.grouping.partition`); a membership number
    used twice in one session is reported; each group is ranked by :func:`~.places.rank_group`, its
    entries ordered by place (unranked last), then by number; group names and labels name the session
    only when the event has more than one.
    """
    partition = decide_groups(draft, entries, issues)
    _check_duplicate_ids(partition, issues)
    sessions = {session for (session, _s, _d), _g in partition}
    multi_session = len(sessions) > 1
    groups: list[RankingGroup] = []
    for (session, section, direction), group_entries in partition:
        key = "/".join(part or "-" for part in (session, section, direction))
        label = group_label(session if multi_session else None, section, direction)
        ranges, ranked_by = rank_group(
            group_entries, handicap=draft.handicap, label=label, group_key=key, issues=issues
        )
        by_handicap = _file_ranges(group_entries) if draft.handicap and ranked_by == "score" else {}
        frozen = [_frozen_entry(e, ranges[id(e)], by_handicap.get(id(e), (None, None))) for e in group_entries]
        frozen.sort(key=lambda e: (e.place_first is None, e.place_first or 0, _natural(e.number)))
        name = " ".join(part for part in ((session if multi_session else None), section, direction) if part)
        groups.append(
            RankingGroup(
                key=key,
                name=name,
                session=session,
                section=section,
                direction=direction,
                entries=tuple(frozen),
                ranked_by=ranked_by,
            )
        )
    return tuple(groups), max(1, len(sessions))


def _file_ranges(entries: list[DraftEntry]) -> dict[int, tuple[int, int]]:
    """The file's own places of a handicap group (its handicap ranking) as ``id -> (first, last)``, ties
    covering the places they share; empty unless every entry has a place."""
    if any(e.place is None for e in entries):
        return {}
    counts = Counter(e.place for e in entries)
    return {id(e): (e.place, e.place + counts[e.place] - 1) for e in entries}


def _frozen_entry(
    entry: DraftEntry,
    places: tuple[int | None, int | None],
    handicap_places: tuple[int | None, int | None] = (None, None),
) -> Entry:
    """``entry`` as a frozen :class:`~.model.Entry` covering ``places`` (first, last), and in a handicap group
    the file's places as ``handicap_places``; values as read."""
    return Entry(
        key=entry.key,
        number=entry.number or "",
        place_first=places[0],
        place_last=places[1],
        score=entry.score,
        percentage=entry.percentage,
        boards_played=entry.boards_played,
        players=tuple(entry.players),
        supplied_awards=tuple(entry.awards),
        name=entry.name,
        session=entry.session,
        section=entry.section,
        direction=entry.direction,
        place_in_file=entry.place_text,
        handicap=entry.handicap,
        adjustment=entry.adjustment,
        where=entry.where,
        centre=entry.centre,
        handicap_first=handicap_places[0],
        handicap_last=handicap_places[1],
    )


def _check_texts(draft: DraftEvent, entries: list[DraftEntry], issues: IssueList) -> None:
    """At most one ``ENCODING_SUSPECT`` for the first garbled text among the event's name, the club's
    name, the entries' names and the players' names (in that order)."""
    texts: list[tuple[str | None, Location]] = [(draft.name, draft.where), (draft.club_name, draft.where)]
    for entry in entries:
        texts.append((entry.name, entry.where))
        texts.extend((p.name, p.where) for p in entry.players)
    report_mojibake(texts, issues)


def _frozen_event(
    draft: DraftEvent, groups: tuple[RankingGroup, ...], matches: tuple[Match, ...], sessions: int
) -> ParsedEvent:
    """The frozen :class:`~.model.ParsedEvent`: the draft's event facts with the checked groups and matches."""
    return ParsedEvent(
        format=draft.format,
        version=draft.version,
        dialect=draft.dialect,
        program=draft.program,
        event_id=draft.event_id,
        name=draft.name,
        date=draft.date,
        club_number=draft.club_number,
        club_name=draft.club_name,
        form=draft.form,
        scoring=draft.scoring,
        event_type=draft.event_type,
        boards_played=draft.boards_played,
        boards_declared=draft.boards_declared,
        sessions=sessions,
        groups=groups,
        matches=matches,
        encoding=draft.encoding,
        awards_supplied=draft.awards_supplied,
        handicap=draft.handicap,
        rating=draft.rating,
        board_scoring=draft.board_scoring,
        match_scoring=draft.match_scoring,
        start_time=draft.start_time,
    )
