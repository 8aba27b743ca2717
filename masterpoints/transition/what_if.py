"""HBS transition rule 8: before the final proposal the parameters are checked against past results.

:func:`transition_what_if` replays the stored tournaments under other parameters (S, T, the share of places
paid, the rounding, any rule-set key) and reports how every player's points (each kind) and category would
change; :func:`what_if_parameters` reads the parameters as people write them and :func:`what_if_csv` writes
the report. With no parameter changed the report is the ledger, player by player and kind by kind (H-13).
Reads only: nothing here writes to the database.
"""

from __future__ import annotations

import csv
import datetime
import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.exports import csv_row
from federation.models import Federation, Player
from federation.refusals import refusals
from federation.rulesets import rules_for
from masterpoints.engine.hbs import events as hbs_events
from masterpoints.engine.hbs.categories import category_for
from masterpoints.engine.hbs.rules import KINDS, HbsRuleSet, number_text
from masterpoints.models import Award
from masterpoints.transition.selectors import category_rank, ledger_balances
from tournaments.models import Tournament

#: The refusals of the what-if run; ``services.REFUSALS`` is the whole transition's catalogue.
REFUSALS = {
    "NOT_HBS": _("The transition rules are HBS's; %(federation)s does not use them."),
    "BAD_PARAMETER": _("The what-if parameter is not valid: %(error)s"),
    "BAD_STRENGTH": _("S for %(kind)s must be a decimal number and the kind one of %(kinds)s."),
}

refusal = refusals(REFUSALS)


@dataclass
class WhatIfRow:
    """One player: balances (black, red, master) and category now and under the alternative."""

    player: Player
    current: tuple[int, int, int]
    alternative: tuple[int, int, int]
    current_category: str | None
    alternative_category: str | None
    move: int  # +1 up, -1 down, 0 same

    @property
    def changed(self) -> bool:
        """Whether the alternative gives the player other points of any kind."""
        return self.current != self.alternative


@dataclass
class WhatIf:
    """The what-if report: a row per player, the tournaments replayed, those kept at their ledger points
    because their stored results do not give them (H-13), and the parameters used."""

    rows: list[WhatIfRow]
    tournaments: int
    parameters: dict
    kept: list[Tournament] = field(default_factory=list)

    @property
    def changed(self) -> int:
        """Players the alternative gives other points (any kind), whether or not their category moves."""
        return sum(1 for row in self.rows if row.changed)

    @property
    def listed(self) -> list[WhatIfRow]:
        """The rows a report of the changes shows: other points or another category."""
        return [row for row in self.rows if row.changed or row.move]

    @property
    def up(self) -> int:
        """Players the alternative puts in a higher category."""
        return sum(1 for row in self.rows if row.move > 0)

    @property
    def down(self) -> int:
        """Players the alternative puts in a lower category."""
        return sum(1 for row in self.rows if row.move < 0)

    @property
    def same(self) -> int:
        """Players whose category the alternative leaves as it is."""
        return sum(1 for row in self.rows if row.move == 0)


# --- the parameters ---------------------------------------------------------------------------------------


def what_if_rules(base: HbsRuleSet, overrides: dict) -> HbsRuleSet:
    """``base`` with ``overrides`` (rule-set keys in :meth:`HbsRuleSet.to_dict` form, e.g.
    ``{"paid_share": "0.4", "paid_rounding": "down", "form_factors": {"pairs": "1.2", …}}``); a table is
    merged key by key. A value the rule set refuses is refused as ``BAD_PARAMETER`` (transition rule 8)."""
    merged = base.to_dict()
    for key, value in overrides.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = value
    try:
        return HbsRuleSet.from_dict(merged)
    except (ValueError, TypeError, AttributeError, KeyError, ArithmeticError) as exc:
        # A value of the wrong shape (a list where a table is due, a number too large …) is the user's.
        raise refusal("BAD_PARAMETER", error=f"{type(exc).__name__}: {exc}") from None


def what_if_parameters(settings_lines: Iterable[str], strength_lines: Iterable[str]) -> tuple[dict, dict[str, str]]:
    """The what-if parameters (transition rule 8) as people write them: ``KEY=VALUE`` per rule-set key (a
    JSON object or list after ``{``/``[``, ``true``/``false``, a whole number, else text) and ``KIND=S`` per
    point kind. Returns ``(overrides, strengths)`` for :func:`transition_what_if`; a line without ``=`` or
    bad JSON is refused."""
    overrides: dict = {}
    for line in settings_lines:
        key, sep, value = line.partition("=")
        if not sep or not key.strip():
            raise refusal("BAD_PARAMETER", error=_("write KEY=VALUE, not %(line)s") % {"line": line})
        value = value.strip()
        try:
            overrides[key.strip()] = json.loads(value) if value[:1] in "{[" else _plain(value)
        except json.JSONDecodeError as error:
            raise refusal("BAD_PARAMETER", error=f"{key.strip()}: {error}") from None
    strengths: dict[str, str] = {}
    for line in strength_lines:
        kind, sep, value = line.partition("=")
        if not sep:
            raise refusal("BAD_STRENGTH", kind=line, kinds=", ".join(KINDS))
        strengths[kind.strip()] = value.strip()
    return overrides, strengths


def _plain(value: str):
    """``true``/``false`` as a boolean, a whole number as an int, anything else as the text."""
    if value in ("true", "false"):
        return value == "true"
    if value.isascii() and value.lstrip("-").isdigit():
        return int(value)
    return value


def _strengths(strengths: dict[str, str] | None) -> dict[str, Decimal]:
    """S per kind as decimals; a kind not of HBS (H-1) or a value that is not a finite decimal is refused."""
    parsed: dict[str, Decimal] = {}
    for kind, value in (strengths or {}).items():
        try:
            parsed[kind] = Decimal(str(value))
        except InvalidOperation:
            raise refusal("BAD_STRENGTH", kind=kind, kinds=", ".join(KINDS)) from None
        if kind not in KINDS or not parsed[kind].is_finite():
            raise refusal("BAD_STRENGTH", kind=kind, kinds=", ".join(KINDS))
    return parsed


# --- the replay -------------------------------------------------------------------------------------------


def _replay(tournament: Tournament, rules: HbsRuleSet, strengths: dict[str, Decimal]) -> dict[tuple[int, str], int]:
    """(player id, kind) → units of one stored tournament under ``rules``, group by group as the upload
    scored it (``masterpoints.uploads.scoring``), with S replaced per kind by ``strengths`` for the kinds
    the tournament awards (H-1, H-4); guests count in the field but get nothing."""
    kinds = dict(tournament.strengths or {}) or {kind: number_text(s) for kind, s in rules.unlisted_awards}
    kinds.update({kind: str(s) for kind, s in strengths.items() if kind in kinds})
    awards = tuple(hbs_events.KindAward(kind=kind, strength=Decimal(str(s))) for kind, s in kinds.items())
    result: dict[tuple[int, str], int] = {}
    for group in tournament.groups.all():
        entries = []
        for entry in group.entries.all():
            participants = []
            for participation in entry.participations.all():
                boards = participation.boards_played
                key = f"p{participation.player_id}" if participation.player_id else f"guest{participation.pk}"
                participants.append(hbs_events.Participant(player=key, boards=boards))
            entries.append(
                hbs_events.EventEntry(
                    entry=entry.key, first=entry.place_first, last=entry.place_last, players=tuple(participants)
                )
            )
        if not entries:
            continue
        event = hbs_events.Event(form=tournament.form, entries=tuple(entries), kinds=awards, boards=tournament.boards)
        for award in hbs_events.event_awards(event, rules):
            if award.units and award.player.startswith("p"):
                key = (int(award.player[1:]), award.kind)
                result[key] = result.get(key, 0) + award.units
    return {key: units for key, units in result.items() if units}


@dataclass
class _Replayed:
    """The replay of a federation's current tournaments: (player id, kind) → units as the ledger holds them
    (``before``) and under the alternative (``after``) for the tournaments replayed, and those kept."""

    before: dict[tuple[int, str], int] = field(default_factory=lambda: defaultdict(int))
    after: dict[tuple[int, str], int] = field(default_factory=lambda: defaultdict(int))
    count: int = 0
    kept: list[Tournament] = field(default_factory=list)


def _ledger_results(federation: Federation) -> tuple[dict[int, dict[tuple[int, str], int]], dict[int, set]]:
    """For each current (not superseded) tournament, by id: (player id, kind) → the result points the ledger
    holds, and the (player id, kind) whose result the commission reversed (a correction, rule 6).

    A superseded version's results and their reversals net to 0 and stay as they are on both sides of the
    report, like corrections and transition entries."""
    results: dict[int, dict[tuple[int, str], int]] = defaultdict(dict)
    for tournament_id, player_id, kind, total in (
        Award.objects.filter(federation=federation, source=Award.Source.RESULT, tournament__is_current=True)
        .values("tournament_id", "player_id", "kind")
        .annotate(total=Sum("units"))
        .values_list("tournament_id", "player_id", "kind", "total")
    ):
        if total:
            results[tournament_id][(player_id, kind)] = total
    reversed_by_commission: dict[int, set] = defaultdict(set)
    for tournament_id, player_id, kind in Award.objects.filter(
        federation=federation,
        source=Award.Source.REVERSAL,
        correction__isnull=False,
        reverses__source=Award.Source.RESULT,
        reverses__tournament__is_current=True,
    ).values_list("reverses__tournament_id", "player_id", "kind"):
        reversed_by_commission[tournament_id].add((player_id, kind))
    return results, reversed_by_commission


def _replay_all(federation: Federation, overrides: dict, strengths: dict[str, Decimal]) -> _Replayed:
    """Every current (not superseded) tournament of ``federation`` replayed under the rule set in force on
    its date, as the ledger holds it and with ``overrides`` and ``strengths``.

    H-13, on transition rule 8 ("… provjerit će se svi parametri na temelju rezultata iz prethodnih
    godina"): a what-if only shows what the parameters do when the replay under the rules in force gives
    the ledger's points. A tournament whose stored results do not (its ranking or players not stored, as
    in a version written without them, or facts the store does not keep) is kept at its ledger points on
    both sides and named in the report, never replayed from what is missing. A player's result the
    commission reversed (rule 6) stays reversed under any parameters: its points are not varied."""
    ledger, reversed_by_commission = _ledger_results(federation)
    tournaments = (
        Tournament.objects.current()
        .filter(federation=federation)
        .prefetch_related("groups__entries__participations")
        .order_by("date", "pk")
    )
    changed = bool(overrides or strengths)
    replayed = _Replayed()
    cache: dict[datetime.date, HbsRuleSet] = {}
    for tournament in tournaments:
        base = rules_for(federation, tournament.date)
        as_ledger = _replay(tournament, base, {})
        if as_ledger != ledger.get(tournament.pk, {}):
            replayed.kept.append(tournament)
            continue
        if base.valid_from not in cache:
            cache[base.valid_from] = what_if_rules(base, overrides)
        alternative = _replay(tournament, cache[base.valid_from], strengths) if changed else as_ledger
        for key in reversed_by_commission.get(tournament.pk, ()):
            alternative = {**alternative, key: as_ledger.get(key, 0)}
        for key, units in as_ledger.items():
            replayed.before[key] += units
        for key, units in alternative.items():
            replayed.after[key] += units
        replayed.count += 1
    return replayed


def transition_what_if(
    *,
    federation: Federation,
    overrides: dict | None = None,
    strengths: dict[str, str] | None = None,
    on: datetime.date | None = None,
) -> WhatIf:
    """Transition rule 8: replay every current (not superseded) tournament of ``federation`` under the rules
    in force on its date with ``overrides``, and with S replaced per kind by ``strengths``; compare each
    player's points of every kind and category now (ledger balances, the rules in force ``on``) with those
    the alternative would give (ledger balances with the replayed tournaments' result points replaced by
    the replay's). With no parameter changed the alternative is the ledger, for every player and kind
    (H-13: a tournament the replay cannot reproduce is kept at its ledger points and listed). Held
    categories (H-2) are left out on both sides: the report shows what the parameters do. Rows come moved up
    first, then unchanged, then down, by name. Bad parameters are refused before any work. Reads only."""
    if not federation.scheme_info.transition:
        raise refusal("NOT_HBS", federation=str(federation))
    overrides = overrides or {}
    parsed = _strengths(strengths)
    on = on or timezone.localdate()
    current_rules = rules_for(federation, on)
    alt_rules = what_if_rules(current_rules, overrides)  # refuse bad parameters before any work
    replayed = _replay_all(federation, overrides, parsed)
    ledger = ledger_balances(federation, Award.objects.filter(federation=federation).values("player_id"))
    players = Player.objects.in_bulk(set(ledger) | {pk for pk, _kind in replayed.after})
    rows = []
    for pk, player in players.items():
        have = ledger.get(pk, {})
        now = tuple(max(0, have.get(kind, 0)) for kind in KINDS)
        alt = tuple(
            max(0, have.get(kind, 0) - replayed.before[(pk, kind)] + replayed.after[(pk, kind)]) for kind in KINDS
        )
        before = category_for(*now, current_rules).computed
        after = category_for(*alt, alt_rules).computed
        rank_before, rank_after = category_rank(current_rules, before), category_rank(alt_rules, after)
        move = (rank_after > rank_before) - (rank_after < rank_before)
        rows.append(WhatIfRow(player, now, alt, before, after, move))
    rows.sort(key=lambda row: (-row.move, row.player.last_name, row.player.first_name, row.player.number))
    parameters = {**overrides, **({"strengths": {k: str(v) for k, v in parsed.items()}} if parsed else {})}
    return WhatIf(rows, replayed.count, parameters, replayed.kept)


# --- the report as CSV ------------------------------------------------------------------------------------


#: The columns of :func:`what_if_csv`.
WHAT_IF_COLUMNS = (
    "number",
    "name",
    "black",
    "red",
    "master",
    "category",
    "alt black",
    "alt red",
    "alt master",
    "alt category",
    "move",
    "points",
)
_MOVES = {1: "up", -1: "down", 0: "same"}


def what_if_csv(result: WhatIf, out, *, every: bool = False) -> None:
    """Write the what-if report (transition rule 8) to the text stream ``out`` as CSV: the players whose
    points (any kind) or category change (every player with ``every``), names safe from spreadsheet
    formulas, then ``#`` lines with the parameters and the counts, and the tournaments kept at their ledger
    points (H-13)."""
    writer = csv.writer(out)
    writer.writerow(WHAT_IF_COLUMNS)
    for row in result.rows if every else result.listed:
        writer.writerow(
            csv_row(
                [
                    row.player.number,
                    row.player.full_name,
                    *row.current,
                    row.current_category or "-",
                    *row.alternative,
                    row.alternative_category or "-",
                    _MOVES[row.move],
                    "changed" if row.changed else "same",
                ]
            )
        )
    out.write(
        f"# {result.tournaments} tournaments replayed with {json.dumps(result.parameters)}: "
        f"{result.up} up, {result.down} down, {result.same} in the same category; "
        f"{result.changed} with other points\n"
    )
    if result.kept:
        names = "; ".join(f"#{t.pk} {' '.join(t.name.split())} ({t.date:%Y-%m-%d})" for t in result.kept)
        out.write(
            f"# {len(result.kept)} tournaments kept at their ledger points, their stored results do not give "
            f"them (H-13): {names}\n"
        )
