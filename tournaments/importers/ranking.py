"""From draft entries to ranking groups: places and ties, and the checks all formats share.

Format readers fill a mutable :class:`DraftEvent`; :func:`finalise` turns it into the frozen
:class:`~.model.ParsedEvent`, adding every issue it finds on the way (never stopping at the first).

The group decision lives in :mod:`.grouping`.

Places: competition ranking ("1, 2, 3, 3, 5"); an entry tied on place *p* with *k - 1* others covers
places *p* .. *p + k - 1*. The ranking key is the percentage when every entry of a group has one (MP
pairs with unequal board counts are ranked on it), otherwise the score (IMPs may be negative); higher is
better in every scoring we read.
"""

from __future__ import annotations

import datetime
import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.functional import Promise, lazy
from django.utils.translation import gettext_lazy as _

from .grouping import competition_ranking
from .grouping import partition as decide_groups
from .issues import IssueList, Location
from .model import EncodingDecision, Entry, Match, ParsedEvent, Participant, RankingGroup, SuppliedAward
from .text import report_mojibake

FORM_LABELS = {"pairs": _("pairs"), "individual": _("individual"), "teams": _("teams")}
EXPECTED_PLAYERS = {"pairs": (2, 2), "individual": (1, 1), "teams": (4, 6)}

_PHANTOM_NAME = re.compile(
    r"^\s*(phantom|fantom|ghost|sit[\s_-]*out|bye|pause|pauza|oversidder|slobodan|-+|\?+)\s*(pair|par|team)?\s*$",
    re.IGNORECASE,
)


@dataclass
class DraftEntry:
    """An entry as read, before the group decision and the ranking."""

    number: str | None
    where: Location
    session: str | None = None
    section: str | None = None
    direction: str | None = None
    place_text: str | None = None
    place: int | None = None
    tie_mark: bool = False
    place_bad: bool = False  # unparseable; already reported
    score: Decimal | None = None
    percentage: Decimal | None = None
    boards_played: int | None = None
    players: list[Participant] = field(default_factory=list)
    awards: list[SuppliedAward] = field(default_factory=list)
    name: str | None = None
    handicap: Decimal | None = None
    adjustment: Decimal | None = None
    phantom_reason: str | None = None

    @property
    def key(self) -> str:
        return "/".join(part or "-" for part in (self.session, self.section, self.direction, self.number))

    @property
    def label(self) -> str:
        """How messages name the entry: ``7 NS``, ``A 3``, ``4 (Team Smith)``."""
        text = " ".join(part for part in (self.section, self.number, self.direction) if part)
        return f"{text} ({self.name})" if self.name else text


@dataclass
class DraftEvent:
    """Everything a format reader found; :func:`finalise` checks it and freezes it."""

    format: str
    encoding: EncodingDecision
    form: str
    scoring: str
    version: str | None = None
    dialect: str = "generic"
    program: str | None = None
    event_id: str | None = None
    name: str | None = None
    date: datetime.date | None = None
    club_number: str | None = None
    club_name: str | None = None
    event_type: str | None = None
    boards_played: int | None = None
    boards_declared: int | None = None
    awards_supplied: bool = False
    handicap: bool = False
    rating: str | None = None
    entries: list[DraftEntry] = field(default_factory=list)
    matches: list[Match] = field(default_factory=list)
    #: WINNER_TYPE hints: (session, section) -> 1 or 2; (session, None) and (None, None) are defaults.
    winner_types: dict[tuple[str | None, str | None], int] = field(default_factory=dict)
    merge_sections: bool = True
    check_ids: bool = True
    where: Location = field(default_factory=Location)


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
    if entries and all(e.percentage is not None for e in entries):
        return "percentage", lambda e: e.percentage  # type: ignore[return-value]
    if entries and all(e.score is not None for e in entries):
        return "score", lambda e: e.score  # type: ignore[return-value]
    return None, None


# --- ranking one group ----------------------------------------------------------------------------


def _rank_group(
    entries: list[DraftEntry], *, handicap: bool, label: Promise, group_key: str, issues: IssueList
) -> tuple[dict[int, tuple[int | None, int | None]], str]:
    """Places per entry (``id -> (first, last)``) and how they were found (``place`` or ``score``)."""
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


def _check_matches(draft: DraftEvent, entries: list[DraftEntry], issues: IssueList) -> tuple[Match, ...]:
    numbers = {e.number for e in entries}
    kept: list[Match] = []
    opponents: dict[tuple[str | None, str, str], str | None] = {}
    for match in draft.matches:
        unknown = [t for t in (match.team, match.opponent) if t is not None and t not in numbers]
        for team in unknown:
            issues.add("MATCH_TEAM_UNKNOWN", match.where, round=match.round, team=team)
        duplicate = False
        for team, opponent in ((match.team, match.opponent), (match.opponent, match.team)):
            if team is None:
                continue
            slot = (match.session, match.round, team)
            if slot in opponents:
                if opponents[slot] == opponent:
                    duplicate = True  # the same match listed from the other side
                else:
                    issues.add("MATCH_DUPLICATE", match.where, round=match.round, team=team)
                    duplicate = True
            else:
                opponents[slot] = opponent
        if not duplicate:
            kept.append(match)
    return tuple(kept)


def _team_boards_from_matches(matches: tuple[Match, ...]) -> dict[str, int]:
    totals: dict[str, int] = defaultdict(int)
    unknown: set[str] = set()
    for match in matches:
        for team in (match.team, match.opponent):
            if team is None:
                continue
            if match.boards is None:
                unknown.add(team)
            else:
                totals[team] += match.boards
    return {team: boards for team, boards in totals.items() if team not in unknown}


def _natural(number: str) -> tuple[int, str]:
    return (int(number), "") if number.isdecimal() else (10**9, number)


# --- the whole event ------------------------------------------------------------------------------


def finalise(draft: DraftEvent, issues: IssueList) -> ParsedEvent | None:
    """Check ``draft`` and freeze it; ``None`` only when there are no entries at all (``NO_ENTRIES``).

    Guarantees: phantoms are left out (``ENTRY_PHANTOM``); entry keys are unique (later duplicates
    dropped with ``ENTRY_DUPLICATE``); every entry is in exactly one group; places cover ties; every
    shared check (ids, places, scores, ties, matches, boards, mojibake) has added its issues.
    """
    entries: list[DraftEntry] = []
    for position, entry in enumerate(draft.entries, start=1):
        if not entry.number:
            entry.number = str(position)
            issues.add("ENTRY_NUMBER_MISSING", entry.where, entry=entry.number)
        reason = _phantom_reason(entry)
        if reason:
            issues.add("ENTRY_PHANTOM", entry.where, entry=entry.label, reason=reason)
            continue
        entries.append(entry)
    if not entries:
        issues.add("NO_ENTRIES", draft.where)
        return None
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
    entries = unique
    for entry in entries:
        _check_players(draft, entry, issues)
    if not draft.name:
        issues.add("EVENT_NAME_MISSING", draft.where)
    declared, counted = draft.boards_declared, draft.boards_played
    if declared is not None and counted is not None and declared != counted:
        issues.add("BOARDS_DECLARED_DIFFER", draft.where, declared=declared, counted=counted)
    matches = _check_matches(draft, entries, issues) if draft.matches else ()
    if draft.form == "teams" and matches:
        team_boards = _team_boards_from_matches(matches)
        for entry in entries:
            if entry.boards_played is None and entry.number in team_boards:
                entry.boards_played = team_boards[entry.number]

    partition = decide_groups(draft, entries, issues)
    _check_duplicate_ids(partition, issues)
    sessions = {session for (session, _s, _d), _g in partition}
    multi_session = len(sessions) > 1
    groups: list[RankingGroup] = []
    for (session, section, direction), group_entries in partition:
        key = "/".join(part or "-" for part in (session, section, direction))
        label = group_label(session if multi_session else None, section, direction)
        ranges, ranked_by = _rank_group(
            group_entries, handicap=draft.handicap, label=label, group_key=key, issues=issues
        )
        frozen = [
            Entry(
                key=e.key,
                number=e.number or "",
                place_first=ranges[id(e)][0],
                place_last=ranges[id(e)][1],
                score=e.score,
                percentage=e.percentage,
                boards_played=e.boards_played,
                players=tuple(e.players),
                supplied_awards=tuple(e.awards),
                name=e.name,
                session=e.session,
                section=e.section,
                direction=e.direction,
                place_in_file=e.place_text,
                handicap=e.handicap,
                adjustment=e.adjustment,
                where=e.where,
            )
            for e in group_entries
        ]
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

    texts: list[tuple[str | None, Location]] = [(draft.name, draft.where), (draft.club_name, draft.where)]
    for entry in entries:
        texts.append((entry.name, entry.where))
        texts.extend((p.name, p.where) for p in entry.players)
    report_mojibake(texts, issues)

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
        sessions=max(1, len(sessions)),
        groups=tuple(groups),
        matches=matches,
        encoding=draft.encoding,
        awards_supplied=draft.awards_supplied,
        handicap=draft.handicap,
        rating=draft.rating,
    )
