"""The bridge between an uploaded event and the points engine of the federation's scheme: what every rule
book's scoring adapter returns (:class:`ScoringResult`) and shares.

Each ranking group of the file is scored as its own field (a row, a section, one direction of a
two-winner Mitchell). Player keys handed to the engine are the preview's line keys
(``entry key#n``), so every award maps back to a line of the file.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from masterpoints.engine.common import PlayerAward, Reason
from masterpoints.uploads.lines import Preview, group_label


@dataclass
class ScoringResult:
    """The awards, the groups that award nothing (and why), what the adapter has to say about how it read the
    event (issues shaped like the preview's) and, where a player's place in the tournament is not that of their
    line of the file (a compound event, H-16), the place by player key."""

    awards: list[PlayerAward] = field(default_factory=list)
    nothing_awarded: list[tuple[str, Reason | None]] = field(default_factory=list)
    issues: list = field(default_factory=list)
    places: dict[str, tuple[int, int]] = field(default_factory=dict)


def compute(preview: Preview) -> ScoringResult:
    """Every player's awards for the preview's event under the rule set valid on its date, by its rule book's
    scoring adapter (``SchemeInfo.scoring_adapter``, the plugin's: ``rulebooks.dbf.scoring``,
    ``rulebooks.hbs.scoring``), or by its office adapter for a form the secretariat entered
    (``facts["office_form"]``, § 451A, D-Q33)."""
    if preview.upload.facts.get("office_form"):
        return preview.scheme.office_scoring_adapter(preview)
    return preview.scheme.scoring_adapter(preview)


def event_boards(preview: Preview) -> int:
    """Boards of the event: the director's figure, else those counted in the file, else those it declares."""
    facts, event = preview.upload.facts, preview.event
    return int(facts.get("boards") or event.boards_played or event.boards_declared or 0)


def event_form(preview: Preview) -> str:
    """The form the director declared, else the file's; a file's team event whose matches make a mini-team event
    by the rule book's definition is one (DBf § 421A, D-Q61: :func:`form_by_matches`)."""
    declared = preview.upload.facts.get("form")
    if declared:
        return declared
    if preview.event.form == "teams" and form_by_matches(preview) == "minihold":
        return "minihold"
    return preview.event.form


def form_by_matches(preview: Preview) -> str | None:
    """The team form the file's matches make, where the rule book defines mini-teams (DBf § 421A; the scheme's
    rule set has ``minihold_match_boards``): ``"minihold"`` when in every session some team plays more than two
    matches and every match has 2–11 boards, ``"teams"`` otherwise, ``None`` when the file lists no matches with
    their boards or the rule book has no such definition.

    D-Q61 (§ 421A "En miniholdturnering defineres ved, at den opfylder følgende betingelser: 1. Turneringen
    indeholder flere end to kampe pr. sektion (spilledag). 2. Hver kamp indeholder mindst 2 spil og maksimalt 11
    spil."): the definition is a fact of the matches, not a label. A form left to the file follows it (the preview
    says so: MINIHOLD_BY_MATCHES); a form the director declared stands, and a contradiction is a warning naming
    § 421A (FORM_CONTRADICTS_MATCHES), as the director may know what the file does not (a session's matches
    missing from it)."""
    rules = preview.scheme.current_rules
    bounds = getattr(rules, "minihold_match_boards", None)
    played = [match for match in preview.event.matches if match.opponent is not None]
    if bounds is None or not played or any(match.boards is None for match in played):
        return None
    per_session: dict[str | None, dict[str, set]] = {}
    for match in played:
        when = match.round if match.start_board is None else (match.start_board, match.end_board)
        teams = per_session.setdefault(match.session, {})
        for team in (match.team, match.opponent):
            teams.setdefault(team, set()).add(when)
    enough = all(
        max(len(rounds) for rounds in teams.values()) >= rules.minihold_min_matches for teams in per_session.values()
    )
    short = all(bounds[0] <= match.boards <= bounds[1] for match in played)
    return "minihold" if enough and short else "teams"


def is_compound(preview: Preview) -> bool:
    """Whether the file's several session rankings are the stages of one compound tournament: a form of the
    scheme's ``compound_forms`` (HBS pairs, rule 7, H-16) in a file of more than one session."""
    event = preview.event
    return event is not None and event.sessions > 1 and event_form(preview) in preview.scheme.compound_forms


def note_groups_awarding_nothing(preview: Preview, result: ScoringResult) -> None:
    """Name each group whose every award is zero, with the engine's reason (a ``Reason``: code and parameters)
    from the awards' explanations, or ``None`` when none says why (every player ineligible, say)."""
    for group in preview.groups:
        keys = {player.key for line in group.entries for player in line.players}
        awards = [a for a in result.awards if a.player in keys]
        if awards and not any(a.units for a in awards):
            reason = next((a.explanation.reason for a in awards if a.explanation.reason is not None), None)
            result.nothing_awarded.append((group_label(group), reason))
