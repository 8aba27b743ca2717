"""HBS transition rule 8: before the final proposal the parameters are checked against past results.

:func:`transition_what_if` replays the stored tournaments under other parameters (S, T, the share of places
paid, the rounding, any rule-set key) and reports how categories would move; :func:`what_if_parameters`
reads the parameters as people write them and :func:`what_if_csv` writes the report. Reads only: nothing
here writes to the database.
"""

from __future__ import annotations

import csv
import datetime
import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
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


@dataclass
class WhatIf:
    """The what-if report: a row per player, the tournaments replayed and the parameters used."""

    rows: list[WhatIfRow]
    tournaments: int
    parameters: dict

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
    result: dict[tuple[int, str], int] = defaultdict(int)
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
                result[(int(award.player[1:]), award.kind)] += award.units
    return result


def _replay_all(
    federation: Federation, overrides: dict, strengths: dict[str, Decimal]
) -> tuple[dict[tuple[int, str], int], int]:
    """(player id, kind) → units of every current (not superseded) tournament of ``federation`` replayed
    under the rule set in force on its date with ``overrides``, and the number of tournaments replayed."""
    tournaments = (
        Tournament.objects.current()
        .filter(federation=federation)
        .prefetch_related("groups__entries__participations")
        .order_by("date", "pk")
    )
    alternative: dict[tuple[int, str], int] = defaultdict(int)
    cache: dict[datetime.date, HbsRuleSet] = {}
    count = 0
    for tournament in tournaments:
        base = rules_for(federation, tournament.date)
        if base.valid_from not in cache:
            cache[base.valid_from] = what_if_rules(base, overrides)
        for key, units in _replay(tournament, cache[base.valid_from], strengths).items():
            alternative[key] += units
        count += 1
    return alternative, count


def _result_points(federation: Federation) -> dict[tuple[int, str], int]:
    """(player id, kind) → the result points the ledger holds now: result awards and their reversals (a
    re-upload nets to 0). Transition, correction and other entries are not results."""
    results: dict[tuple[int, str], int] = defaultdict(int)
    for rows in (
        Award.objects.filter(federation=federation, source=Award.Source.RESULT),
        Award.objects.filter(federation=federation, source=Award.Source.REVERSAL, reverses__source=Award.Source.RESULT),
    ):
        for player_id, kind, total in (
            rows.values("player_id", "kind").annotate(total=Sum("units")).values_list("player_id", "kind", "total")
        ):
            results[(player_id, kind)] += total
    return results


def transition_what_if(
    *,
    federation: Federation,
    overrides: dict | None = None,
    strengths: dict[str, str] | None = None,
    on: datetime.date | None = None,
) -> WhatIf:
    """Transition rule 8: replay every current (not superseded) tournament of ``federation`` under the rules
    in force on its date with ``overrides``, and with S replaced per kind by ``strengths``; compare each
    player's category now (ledger balances, the rules in force ``on``) with the category the alternative
    would give (ledger balances with the tournaments' result points replaced by the replay's). Held
    categories (H-2) are left out on both sides: the report shows what the parameters do. Rows come moved up
    first, then unchanged, then down, by name. Bad parameters are refused before any work. Reads only."""
    if not federation.scheme_info.transition:
        raise refusal("NOT_HBS", federation=str(federation))
    overrides = overrides or {}
    parsed = _strengths(strengths)
    on = on or timezone.localdate()
    current_rules = rules_for(federation, on)
    alt_rules = what_if_rules(current_rules, overrides)  # refuse bad parameters before any work
    alternative, count = _replay_all(federation, overrides, parsed)
    ledger = ledger_balances(federation, Award.objects.filter(federation=federation).values("player_id"))
    results = _result_points(federation)
    players = Player.objects.in_bulk(set(ledger) | {pk for pk, _kind in alternative})
    rows = []
    for pk, player in players.items():
        have = ledger.get(pk, {})
        now = tuple(max(0, have.get(kind, 0)) for kind in KINDS)
        alt = tuple(max(0, have.get(kind, 0) - results[(pk, kind)] + alternative[(pk, kind)]) for kind in KINDS)
        before = category_for(*now, current_rules).computed
        after = category_for(*alt, alt_rules).computed
        rank_before, rank_after = category_rank(current_rules, before), category_rank(alt_rules, after)
        move = (rank_after > rank_before) - (rank_after < rank_before)
        rows.append(WhatIfRow(player, now, alt, before, after, move))
    rows.sort(key=lambda row: (-row.move, row.player.last_name, row.player.first_name, row.player.number))
    parameters = {**overrides, **({"strengths": {k: str(v) for k, v in parsed.items()}} if parsed else {})}
    return WhatIf(rows, count, parameters)


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
)
_MOVES = {1: "up", -1: "down", 0: "same"}


def what_if_csv(result: WhatIf, out, *, every: bool = False) -> None:
    """Write the what-if report (transition rule 8) to the text stream ``out`` as CSV: the players whose
    category moves (every player with ``every``), names safe from spreadsheet formulas, then a ``#`` line
    with the parameters and the counts."""
    writer = csv.writer(out)
    writer.writerow(WHAT_IF_COLUMNS)
    for row in result.rows:
        if row.move or every:
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
                    ]
                )
            )
    out.write(
        f"# {result.tournaments} tournaments replayed with {json.dumps(result.parameters)}: "
        f"{result.up} up, {result.down} down, {result.same} unchanged\n"
    )
