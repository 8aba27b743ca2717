"""A whole HBS tournament to per-player awards: what the upload pipeline calls.

- H-1: a tournament awards one or more kinds (black, red, master), each with its own S (or fixed B, H-8);
  an event with no kinds given is an unlisted event and awards the rule set's ``unlisted_awards``.
- H-4: S is input; a computed S can later be plugged in through ``strength_for`` without changing this
  module (it is asked only for a kind that has neither S nor a fixed B).
- H-9: every player of a scoring unit gets the unit's points; in team events only with at least 33 % of
  the team's boards.
- H-10: a field below the minimum scores nothing; the reason is on every player's (zero) award.
- H-11: a compound event (qualification + final, sessions) is one tournament: N is the whole starting
  field ranked by the final result, D the boards of the winning unit's path through the stages.
- H-5 (provisional): a long-running team competition scores every won match of at least 16 boards
  (B with N = 2, T = 2, D = the match's boards, for every player with 33 % of the team's boards in the
  competition, H-28) and the final placing
  (the normal spread of one B, H-23: D = the competition's boards, else the winner's), as separate awards
  (``part``).

Keys of players and entries are the caller's opaque strings. Amounts are whole HBS points.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction

from masterpoints.engine.common import Explanation, PlayerAward, Reason, RequestError, parse_ranks
from masterpoints.engine.hbs.rules import FORMS, HBS_DRAFT, KINDS, SHARE_PER_MATCH, HbsRuleSet, number_text
from masterpoints.engine.hbs.scale import (
    EntryPoints,
    ScaleRequest,
    b_not_positive_reason,
    entry_points,
    fixed,
    formula_first_place,
    round_points,
    scale,
)

Amount = Decimal | Fraction | int

PART_PLACING = "final placing"


@dataclass(frozen=True)
class KindAward:
    """One kind a tournament awards (H-1) with its strength S (H-4) or a B fixed in advance (H-8)."""

    kind: str
    strength: Amount | None = None
    first_place: Amount | None = None
    bands: tuple[tuple[int, Amount], ...] = ()


@dataclass(frozen=True)
class Participant:
    """A player of a unit; ``boards`` = boards played (needed in team events for H-9 and H-5): a whole number,
    or in a match of a long-running competition the exact share estimated from the team's boards (H-18)."""

    player: str
    boards: int | Fraction | None = None


@dataclass(frozen=True)
class EventEntry:
    """A unit (player, pair or team) on places ``first…last`` (``last`` > ``first``: a tie, H-7).

    ``boards`` is the boards this unit played: the H-9 base of a team and its D in the final placing
    of a long-running competition (H-5). Absent: its path through the stages (H-11), else the event's D.
    """

    entry: str
    first: int
    players: tuple[Participant, ...]
    last: int | None = None
    boards: int | None = None

    @property
    def place_range(self) -> tuple[int, int]:
        return (self.first, self.first if self.last is None else self.last)


@dataclass(frozen=True)
class Stage:
    """One stage of a compound event (H-11): its boards and the entries that played it (``None`` = all)."""

    name: str
    boards: int
    entries: tuple[str, ...] | None = None


@dataclass(frozen=True)
class MatchSide:
    entry: str
    players: tuple[Participant, ...]


@dataclass(frozen=True)
class Match:
    """One match of a long-running team competition (H-5); ``winner`` is an entry key, ``None`` = drawn."""

    key: str
    boards: int
    home: MatchSide
    away: MatchSide
    winner: str | None


@dataclass(frozen=True)
class Event:
    """A tournament as the engine needs it.

    ``participants`` is N, the whole starting field with guests (H-10, H-11); absent, the number of
    ``entries``. ``boards`` is D; absent, the winner's path through ``stages`` (H-11). ``kinds`` empty =
    an unlisted event (H-1). ``long_running`` with ``matches`` is rule 8 / H-5 (teams only).
    """

    form: str
    entries: tuple[EventEntry, ...]
    kinds: tuple[KindAward, ...] = ()
    participants: int | None = None
    boards: int | None = None
    stages: tuple[Stage, ...] = ()
    long_running: bool = False
    matches: tuple[Match, ...] = ()


StrengthSource = Callable[[Event, KindAward], Amount]
"""H-4: how a later version computes S from the field; called only for a kind without S or fixed B."""


def event_awards(
    event: Event, rules: HbsRuleSet = HBS_DRAFT, strength_for: StrengthSource | None = None
) -> list[PlayerAward]:
    """Every player's award from ``event``, per kind and scoring part, each with its explanation.

    A player of an entry that scores nothing (field below the minimum H-10, beyond the paid places H-3,
    under 33 % of the boards H-9, a match under 16 boards H-5) gets an award of 0 units whose explanation
    says why, so the preview can show it; the ledger keeps only awards with ``units > 0``.
    Raises :class:`RequestError` naming the offending input.
    """
    n_units, boards, path = _check(event)
    kinds = event.kinds or tuple(KindAward(kind, strength=s) for kind, s in rules.unlisted_awards)
    awards: list[PlayerAward] = []
    for index, award in enumerate(kinds):
        where = f"kinds[{index}]"
        if award.kind not in KINDS:
            raise RequestError(f"{where}.kind", f"unknown point kind {award.kind!r}: one of {', '.join(KINDS)}")
        strength = award.strength
        if strength is None and award.first_place is None and not award.bands:
            if strength_for is None:
                raise RequestError(f"{where}.strength", f"no strength S for the {award.kind} points (H-4)")
            strength = strength_for(event, award)
        context = _Context(event, rules, award, strength, n_units, path, listed=bool(event.kinds))
        if event.long_running:
            competition_boards = _competition_boards(event, boards, context)
            awards += _placing(context, where, boards=competition_boards)
            awards += _matches(context, where, competition_boards)
        else:
            awards += _placing(context, where, boards=boards)
    return awards


# --- internals ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Context:
    event: Event
    rules: HbsRuleSet
    award: KindAward
    strength: Amount | None
    n_units: int
    path: Callable[[EventEntry], int | None]
    listed: bool

    def base_rules(self) -> tuple[str, ...]:
        ids = ["H-1"]
        if self.event.stages:
            ids.append("H-11")
        if self.event.long_running:
            ids.append("H-5")
        return tuple(ids)

    def base_inputs(self) -> tuple[tuple[str, str], ...]:
        source = "list of recognised tournaments" if self.listed else "unlisted event default"
        inputs = [("kind", self.award.kind), ("kinds from", source)]
        if self.event.stages:
            stages = "; ".join(
                f"{s.name}: {s.boards} boards ({'all' if s.entries is None else len(s.entries)} entries)"
                for s in self.event.stages
            )
            inputs.append(("stages", stages))
        return tuple(inputs)


def _check(event: Event) -> tuple[int, int | None, Callable[[EventEntry], int | None]]:
    """Validate the event; return N, D (or ``None`` when only per-team D is needed) and the path function."""
    if event.form not in FORMS:
        raise RequestError("form", f"'form' must be one of {', '.join(FORMS)}, not {event.form!r}")
    if event.long_running and event.form != "teams":
        raise RequestError("long_running", "only team competitions are long-running (rule 8, H-5)")
    keys = [e.entry for e in event.entries]
    if len(set(keys)) != len(keys):
        duplicate = next(k for k in keys if keys.count(k) > 1)
        raise RequestError("entries", f"entry {duplicate!r} appears twice")
    seen: dict[str, str] = {}
    for i, entry in enumerate(event.entries):
        for j, p in enumerate(entry.players):
            if p.player in seen:
                raise RequestError(
                    f"entries[{i}].players[{j}]",
                    f"player {p.player!r} plays for both {seen[p.player]!r} and {entry.entry!r}",
                )
            seen[p.player] = entry.entry
    n_units = event.participants if event.participants is not None else len(event.entries)
    if isinstance(n_units, bool) or not isinstance(n_units, int) or n_units < 1:
        raise RequestError("participants", "'participants' (N) must be a whole number of at least 1")
    parse_ranks([list(e.place_range) for e in event.entries], field_size=n_units, name="entries")

    for i, stage in enumerate(event.stages):
        if stage.boards < 0:
            raise RequestError(f"stages[{i}].boards", "boards must not be negative")
        for key in stage.entries or ():
            if key not in keys:
                raise RequestError(f"stages[{i}].entries", f"unknown entry {key!r}")

    def path(entry: EventEntry) -> int | None:
        """H-11: boards of this unit's path through the stages (``None`` without stages)."""
        if not event.stages:
            return None
        return sum(s.boards for s in event.stages if s.entries is None or entry.entry in s.entries)

    boards = event.boards
    if boards is None and event.stages:
        winners = [e for e in event.entries if e.place_range[0] == 1]
        if not winners:
            raise RequestError("entries", "a compound event needs its winner (place 1) to know D (H-11)")
        boards = max(path(e) or 0 for e in winners)
    if boards is None and not event.long_running:
        raise RequestError("boards", "'boards' (D) is required, or the stages of a compound event (H-11)")
    if boards is not None and (isinstance(boards, bool) or not isinstance(boards, int) or boards < 0):
        raise RequestError("boards", "'boards' (D) must be a whole number of at least 0")
    return n_units, boards, path


def _placing(context: _Context, where: str, *, boards: int | None = None) -> list[PlayerAward]:
    """Points for the placing: the spread over the whole field (HBS formula, H-3, H-6, H-7, H-8, H-10), one
    scale for every entry: one B for first place, every other place proportional to it (Način 3–4; H-23 for
    the final placing of a long-running competition)."""
    event, rules, award = context.event, context.rules, context.award
    request = ScaleRequest(event.form, context.n_units, boards, context.strength, award.first_place, tuple(award.bands))
    try:
        the_scale = scale(request, rules)
    except RequestError as exc:
        raise RequestError(f"{where}.{exc.field}", exc.message) from None
    out: list[PlayerAward] = []
    for i, entry in enumerate(event.entries):
        team_boards = _team_boards(entry, context, boards)
        first, last = entry.place_range
        points = entry_points(the_scale, first, last, rules)
        if event.long_running:
            rule_ids = (*points.explanation.rules, "H-23")
            points = replace(points, explanation=replace(points.explanation, rules=rule_ids))
        part = PART_PLACING if event.long_running else ""
        out += _players(context, points, entry, team_boards, part, f"entries[{i}]")
    return out


def _competition_boards(event: Event, boards: int | None, context: _Context) -> int | None:
    """H-23, D of the final placing of a long-running competition (rule 8 with Način 3–4).

    Način 3: "Bodovi B za prvo mjesto određuju se formulom" (the points B for first place are set by the
    formula); Način 4: "Ostali nagrađeni bodove dobivaju bodove proporcionalno" (the others awarded get points in
    proportion). There is one B, the first place's, and every other place is a share of it: a team that played
    fewer boards (byes, a withdrawal) is paid its place's share of that B, not a B of its own. D is the
    competition's boards (the director's or the file's figure), else the boards the winning team played (as
    H-11 takes the winner's path). Replaces H-5's provisional "D = the boards each team played"."""
    if boards is not None:
        return boards
    winners = [e for e in event.entries if e.place_range[0] == 1]
    played = [_team_boards(e, context, None) for e in winners]
    if not winners or any(d is None for d in played):
        raise RequestError("boards", "the boards of the competition, or those the winner played, are needed (H-23)")
    return max(played)


def _team_boards(entry: EventEntry, context: _Context, boards: int | None) -> int | None:
    if entry.boards is not None:
        return entry.boards
    path = context.path(entry)
    return path if path is not None else boards


def _players(
    context: _Context,
    points: EntryPoints,
    entry: EventEntry,
    unit_boards: int | None,
    part: str,
    where: str,
) -> list[PlayerAward]:
    """Every player of the unit gets the unit's points; a team player needs 33 % of the boards (H-9)."""
    rules = context.rules
    rule_ids = (*context.base_rules(), *points.explanation.rules)
    base_inputs = (*context.base_inputs(), ("entry", entry.entry), *points.explanation.inputs)
    out = []
    for j, p in enumerate(entry.players):
        units = points.units
        explanation = Explanation(rule_ids, base_inputs, points.explanation.reason)
        if context.event.form == "teams":
            ok, text = _board_share(p, unit_boards, rules, f"{where}.players[{j}].boards")
            explanation = Explanation((*rule_ids, "H-9"), (*base_inputs, ("boards played", text)), explanation.reason)
            if not ok:
                units = 0
                explanation = explanation.because(
                    Reason.of("TEAM_SHARE_TOO_SMALL", share=_percent(rules.team_board_share))
                )
        out.append(PlayerAward(p.player, entry.entry, context.award.kind, units, explanation, part))
    return out


def _board_share(p: Participant, unit_boards: int | None, rules: HbsRuleSet, where: str) -> tuple[bool, str]:
    """H-9: at least ``team_board_share`` (0.33) of the unit's boards, compared exactly."""
    if p.boards is None:
        raise RequestError(where, f"boards played by {p.player!r} are needed in a team event (rule 6, H-9)")
    if isinstance(p.boards, bool) or not isinstance(p.boards, int | Fraction) or p.boards < 0:
        raise RequestError(where, "boards played must be a whole number of at least 0")
    # H-18: a share of a match estimated from the player's share of the team's boards is an exact fraction.
    played = str(p.boards) if isinstance(p.boards, int) or p.boards.denominator == 1 else fixed(p.boards, 2)
    if not unit_boards:
        return True, f"{played} (the unit played no boards)"
    share = Fraction(p.boards) / unit_boards
    return share >= rules.team_board_share, f"{played} of {unit_boards} ({fixed(share * 100, 2)} %)"


def _matches(context: _Context, where: str, competition_boards: int | None) -> list[PlayerAward]:
    """H-5 (provisional): every won match of at least ``win_min_boards`` boards scores B with N = 2, T = 2
    and D = the match's boards, rounded up (H-6), for each player of the team with 33 % of the team's boards in
    the competition (rule 6, H-28; with the rule set's ``team_share_basis`` "match", of the match's boards).
    A drawn match scores ``draw_share`` of that (0 by default: the text names only wins)."""
    event, rules, award = context.event, context.rules, context.award
    entries = {e.entry: (i, e) for i, e in enumerate(event.entries)}
    out: list[PlayerAward] = []
    for m_index, match in enumerate(event.matches):
        m_where = f"matches[{m_index}]"
        for side in (match.home, match.away):
            if side.entry not in entries:
                raise RequestError(f"{m_where}", f"unknown entry {side.entry!r} in match {match.key!r}")
        if match.winner not in (None, match.home.entry, match.away.entry):
            raise RequestError(f"{m_where}.winner", f"the winner {match.winner!r} did not play match {match.key!r}")
        if isinstance(match.boards, bool) or not isinstance(match.boards, int) or match.boards < 1:
            raise RequestError(f"{m_where}.boards", "a match has a whole number of boards, at least 1")
        if match.winner is None and rules.draw_share == 0:
            continue
        if context.strength is None:
            raise RequestError(
                f"{where}.strength", f"the points per won match need S for the {award.kind} points (H-5)"
            )
        refused = rules.strength_refusal(Fraction(context.strength))
        if refused:
            raise RequestError(f"{where}.strength", refused)
        sides = [s for s in (match.home, match.away) if match.winner in (None, s.entry)]
        b = formula_first_place(rules.win_field, rules.win_form_factor, match.boards, context.strength, rules)
        share = Fraction(1) if match.winner is not None else rules.draw_share
        inputs = [
            ("match", match.key),
            ("result", "won" if match.winner is not None else "drawn"),
            ("N", str(rules.win_field)),
            ("T", number_text(rules.win_form_factor)),
            ("S", number_text(Fraction(context.strength))),
            ("D", str(match.boards)),
            ("B", fixed(b, 4)),
        ]
        if share != 1:
            inputs.append(("draw share", number_text(share)))
        reason = b_not_positive_reason(b, rules)
        if match.boards < rules.win_min_boards:
            reason = Reason.of("MATCH_TOO_SHORT_FOR_WIN", boards=match.boards, need=rules.win_min_boards)
        explanation = Explanation(("H-1", "H-5", "HBS formula", "H-6"), (*context.base_inputs(), *inputs))
        units = 0 if reason else round_points(b * share, rules)
        if reason:
            explanation = explanation.because(reason)
        else:
            explanation = Explanation(explanation.rules, (*explanation.inputs, ("points", str(units))))
        points = EntryPoints(1, 1, b * share, units, explanation)
        for side in sides:
            e_index, entry = entries[side.entry]
            if rules.team_share_basis == SHARE_PER_MATCH:
                out += _match_players(context, points, entry, side, match, f"{m_where}.{_side_name(match, side)}")
            else:
                team_boards = _team_boards(entry, context, competition_boards)
                out += _winners(context, points, entry, team_boards, match, f"entries[{e_index}]")
    return out


def _winners(
    context: _Context, points: EntryPoints, entry: EventEntry, team_boards: int | None, match: Match, where: str
) -> list[PlayerAward]:
    """H-28, rule 6: "Da bi ostvario pravo na bodovanje u timskim natjecanjima, igrač mora sudjelovati u barem 33%
    djeljenja" (to earn the right to be scored in team competitions a player must take part in at least 33 % of
    the boards). The right is to be scored in the competition, and its boards are the competition's: the share is
    judged once, over the boards the team played in it (as the final placing's H-9), not match by match. A
    player who has it scores every win of the team (rule 8 "boduje se svaka pobjeda"; H-9: every player of a
    scoring unit gets the unit's points), also a match they sat out; one who has it not scores no win, also a
    match they played whole. Who sat in the match (H-18's line-up) therefore does not matter here."""
    rules = context.rules
    out = []
    for j, p in enumerate(entry.players):
        ok, text = _board_share(p, team_boards, rules, f"{where}.players[{j}].boards")
        inputs = (*points.explanation.inputs, ("entry", entry.entry), ("boards played in the competition", text))
        explanation = Explanation((*points.explanation.rules, "H-9", "H-28"), inputs, points.explanation.reason)
        units = points.units
        if not ok:
            units = 0
            explanation = explanation.because(Reason.of("TEAM_SHARE_TOO_SMALL", share=_percent(rules.team_board_share)))
        out.append(PlayerAward(p.player, entry.entry, context.award.kind, units, explanation, f"match {match.key}"))
    return out


def _match_players(
    context: _Context, points: EntryPoints, entry: EventEntry, side: MatchSide, match: Match, where: str
) -> list[PlayerAward]:
    """The former reading of rule 6 (``team_share_basis`` "match"): each player with 33 % of the match's boards."""
    rules = context.rules
    out = []
    for j, p in enumerate(side.players):
        ok, text = _board_share(p, match.boards, rules, f"{where}.players[{j}].boards")
        inputs = (*points.explanation.inputs, ("entry", entry.entry), ("boards played", text))
        units = points.units
        explanation = Explanation((*points.explanation.rules, "H-9"), inputs, points.explanation.reason)
        if not ok:
            units = 0
            explanation = explanation.because(
                Reason.of("MATCH_SHARE_TOO_SMALL", share=_percent(rules.team_board_share))
            )
        out.append(PlayerAward(p.player, entry.entry, context.award.kind, units, explanation, f"match {match.key}"))
    return out


def _side_name(match: Match, side: MatchSide) -> str:
    return "home" if side is match.home else "away"


def _percent(share: Fraction) -> str:
    return f"{number_text(share * 100)} %"
