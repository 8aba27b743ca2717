"""What a preview is made of: each player, entry and group of the file as the upload will treat them, the
differences from the version a re-upload replaces, and the preview itself (built by
:mod:`masterpoints.uploads.preview`, scored by :mod:`masterpoints.uploads.scoring`)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from clubs.models import PlayingTime
from federation.models import Player
from federation.schemes import SchemeInfo, decimals_of
from masterpoints.engine.common import PlayerAward, format_units
from tournaments.importers.model import Entry, ParsedEvent, RankingGroup
from tournaments.issues import Location, Severity
from tournaments.models import ResultUpload, Sanction, SimultaneousEvent, Tournament


@dataclass
class PlayerLine:
    """One player of the file and how they are treated; ``awards`` are this player's computed awards."""

    key: str
    name: str
    id_in_file: str | None
    boards_played: int | None
    player: Player | None
    resolution: str
    where: Location
    place_first: int | None = None
    place_last: int | None = None
    group: str = ""
    awards: list[PlayerAward] = field(default_factory=list)
    #: The number's member has clearly another name than the file's (``NAME_MISMATCH``).
    name_mismatch: bool = False
    #: The file gives no name (``name`` is then a placeholder): nothing to compare or remember.
    unnamed: bool = False
    #: Taken from the club's remembered resolution of this name and number (``RESOLUTION_REMEMBERED``).
    remembered: bool = False
    #: Members this player may be, best first (:func:`masterpoints.uploads.names.suggestions_for`).
    suggestions: list = field(default_factory=list)
    #: "Accept all suggestions" takes the first (:func:`masterpoints.uploads.names.is_certain`, N-1).
    certain: bool = False

    @property
    def needs_resolution(self) -> bool:
        return self.resolution == "unresolved"

    @property
    def receives_points(self) -> bool:
        return self.resolution == "member" and self.player is not None


@dataclass
class EntryLine:
    entry: Entry
    players: list[PlayerLine]

    @property
    def awards(self) -> list[tuple[str, str]]:
        """The entry's award per player by kind, as amounts, for the results table."""
        best: dict[str, int] = {}
        for line in self.players:
            for award in line.awards:
                best[award.kind] = max(best.get(award.kind, 0), award.units)
        return [(kind, format_units(units, decimals_of(kind))) for kind, units in best.items() if units]


@dataclass
class GroupLine:
    group: RankingGroup
    row_number: int
    entries: list[EntryLine]


def group_label(group: GroupLine) -> str:
    """The group's name for the preview's lines, else its row number."""
    return group.group.name or str(group.row_number)


@dataclass
class Difference:
    """How a re-upload changes one player's points of one kind."""

    player: Player
    kind: str
    before: int
    after: int

    @property
    def before_amount(self) -> str:
        return format_units(self.before, decimals_of(self.kind))

    @property
    def after_amount(self) -> str:
        return format_units(self.after, decimals_of(self.kind))

    @property
    def change(self) -> str:
        return format_units(self.after - self.before, decimals_of(self.kind))


@dataclass
class Preview:
    upload: ResultUpload
    event: ParsedEvent | None
    issues: list = field(default_factory=list)
    groups: list[GroupLine] = field(default_factory=list)
    previous: Tournament | None = None
    differences: list[Difference] = field(default_factory=list)
    #: The engine's ``sanction`` for a club's SP/GP (§ 403A–B) and the granted sanction it comes from, which
    #: confirming records on the upload and the tournament (one tournament per sanction, D-Q24).
    sanction: str = "none"
    sanction_row: Sanction | None = None
    #: The club's playing time the tournament was played in (§ 452A), and how it was found: ``"chosen"`` by
    #: the director, ``"default"`` from the weekday and start time (D-Q27), ``""`` none found.
    playing_time: PlayingTime | None = None
    playing_time_source: str = ""
    #: The simultaneous event DBf announced that the club claims (§ 403A1).
    simultaneous_event: SimultaneousEvent | None = None

    @property
    def has_errors(self) -> bool:
        return any(issue.severity == Severity.ERROR for issue in self.issues)

    @property
    def has_warnings(self) -> bool:
        return any(issue.severity == Severity.WARNING for issue in self.issues)

    @property
    def player_lines(self) -> list[PlayerLine]:
        return [line for group in self.groups for entry in group.entries for line in entry.players]

    @property
    def unresolved(self) -> list[PlayerLine]:
        """Players the director must still resolve: unidentified, unknown, or resolved to a wrong number."""
        bad = self._bad  # once, not per line: a large file has thousands of lines and issues
        return [line for line in self.player_lines if line.needs_resolution or line.key in bad]

    @property
    def to_resolve(self) -> list[PlayerLine]:
        """The players the page lists to resolve: those above, and those whose name does not fit their
        number's member (``NAME_MISMATCH``: a warning, but most often a mistyped number)."""
        bad = self._bad
        return [line for line in self.player_lines if line.needs_resolution or line.key in bad or line.name_mismatch]

    @property
    def _bad(self) -> set[str]:
        return {
            issue.params.get("key")
            for issue in self.issues
            if getattr(issue, "code", "") in ("RESOLUTION_NUMBER_UNKNOWN", "PLAYER_TWICE")
        }

    @property
    def ledger_awards(self) -> list[tuple[PlayerLine, PlayerAward]]:
        """What confirming writes: positive awards of players resolved to members."""
        return [
            (line, award)
            for line in self.player_lines
            if line.receives_points
            for award in line.awards
            if award.units > 0
        ]

    @property
    def event_key(self) -> str:
        return event_key(self.upload, self.event)

    @property
    def event_keys(self) -> list[str]:
        return event_keys(self.upload, self.event)

    @property
    def scheme(self) -> SchemeInfo:
        return self.upload.federation.scheme_info


#: ``Tournament.event_key``'s column; a longer key keeps its start and ends in its SHA-256 (:func:`event_key`).
EVENT_KEY_LENGTH = Tournament._meta.get_field("event_key").max_length
_DIGEST = "|sha256:"


def _full_key(upload: ResultUpload, event: ParsedEvent) -> str:
    organiser = (
        f"club:{upload.club.number}"
        if upload.club_id
        else (f"region:{upload.region.code}" if upload.region_id else "federation")
    )
    label = (event.event_id or event.name or "").strip().lower()
    return f"{organiser}|{event.date.isoformat() if event.date else '?'}|{label}"


def event_key(upload: ResultUpload, event: ParsedEvent | None) -> str:
    """The re-upload key (formats.md § 1.3): organiser, date and the file's event id or description.

    A key longer than its column keeps its start and ends in the SHA-256 of the whole key, so two events whose
    keys differ only past the column's length never supersede each other (as they did when a key was cut
    at 300 characters); a key that fits is the key itself, as before."""
    if event is None:
        return ""
    full = _full_key(upload, event)
    if len(full) <= EVENT_KEY_LENGTH:
        return full
    digest = hashlib.sha256(full.encode()).hexdigest()
    return f"{full[: EVENT_KEY_LENGTH - len(_DIGEST) - len(digest)]}{_DIGEST}{digest}"


def event_keys(upload: ResultUpload, event: ParsedEvent | None) -> list[str]:
    """The keys the current version of the event may carry: :func:`event_key`, and for a key longer than its
    column the first 300 characters a version confirmed before long keys ended in their hash was stored
    under, so a re-upload of such a version still supersedes it (and stores the new key)."""
    key = event_key(upload, event)
    if _DIGEST not in key:
        return [key]
    return [key, _full_key(upload, event)[:EVENT_KEY_LENGTH]]
