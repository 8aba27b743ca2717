"""The bridge between an uploaded event and the points engine of the federation's scheme.

Each ranking group of the file is scored as its own field (a row, a section, one direction of a
two-winner Mitchell). Player keys handed to the engine are the preview's line keys
(``entry key#n``), so every award maps back to a line of the file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING

from masterpoints.engine.common import PlayerAward, RequestError
from masterpoints.engine.hbs import events as hbs_events
from masterpoints.engine.hbs.rules import ruleset_for as hbs_ruleset_for

if TYPE_CHECKING:
    from tournaments.preview import GroupLine, Preview


@dataclass
class ScoringResult:
    awards: list[PlayerAward] = field(default_factory=list)
    nothing_awarded: list[tuple[str, str]] = field(default_factory=list)


def compute(preview: Preview) -> ScoringResult:
    """Every player's awards for the preview's event under the rule set valid on its date."""
    if preview.scheme == "hbs":
        return _hbs(preview)
    return _dbf(preview)


def event_boards(preview: Preview) -> int:
    """Boards of the event: the director's figure, else those counted in the file, else those it declares."""
    facts, event = preview.upload.facts, preview.event
    return int(facts.get("boards") or event.boards_played or event.boards_declared or 0)


def event_form(preview: Preview) -> str:
    return preview.upload.facts.get("form") or preview.event.form


def group_label(group: GroupLine) -> str:
    return group.group.name or str(group.row_number)


# --- HBS ------------------------------------------------------------------------------------------------


def _hbs(preview: Preview) -> ScoringResult:
    """HBS: each group is a field of its own; the kind and S come from the upload's facts (H-1, H-4)."""
    facts = preview.upload.facts
    rules = hbs_ruleset_for(preview.event.date)
    strength = Decimal(facts["strength"]) if facts.get("strength") not in (None, "") else None
    kinds = (hbs_events.KindAward(kind=facts["category"], strength=strength),) if strength is not None else ()
    form = event_form(preview)
    boards = event_boards(preview)
    result = ScoringResult()
    for group in preview.groups:
        entries = tuple(
            hbs_events.EventEntry(
                entry=line.entry.key,
                first=line.entry.place_first,
                last=line.entry.place_last,
                boards=line.entry.boards_played,
                players=tuple(
                    hbs_events.Participant(player=player.key, boards=_team_boards(form, player, line.entry))
                    for player in line.players
                ),
            )
            for line in group.entries
        )
        event = hbs_events.Event(form=form, entries=entries, kinds=kinds, boards=boards)
        awards = hbs_events.event_awards(event, rules)
        if awards and not any(award.units for award in awards):
            reason = hbs_events.event_scale(event, kinds[0] if kinds else _unlisted(rules), rules).reason
            result.nothing_awarded.append((group_label(group), reason or ""))
        result.awards += awards
    return result


def _unlisted(rules) -> hbs_events.KindAward:
    kind, strength = rules.unlisted_awards[0]
    return hbs_events.KindAward(kind=kind, strength=strength)


def _team_boards(form: str, player, entry) -> int | None:
    """H-9 needs every team player's boards; a file that does not say counts them as the team's."""
    if player.boards_played is not None:
        return player.boards_played
    return entry.boards_played if form == "teams" else None


# --- DBf ------------------------------------------------------------------------------------------------


def _dbf(preview: Preview) -> ScoringResult:
    raise RequestError("form", "the DBf scoring adapter is not connected yet")
