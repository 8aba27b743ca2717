"""HBS transition to the new categorisation (``seeds/000_…``, "Prijelazne odredbe", rules 1–8; ``hbs.md``).

- Rule 1: opening black points from the existing list: :func:`transition_opening_import` (CSV
  ``number,black``).
- Rule 3: players who held a higher category in 1991 are credited half the points it requires:
  :func:`transition_held_1991_import` (CSV ``number,category``): half (``HBS_TRANSITION_1991_SHARE``) of
  the category's red and master minimums, rounded up; a category with neither is not a higher one.
- Rule 4 with H-2: players whose old category the new rules would not give keep it, and their red and
  master points are topped up to its minimums (never reduced): :func:`transition_keep_categories`
  (CSV ``number,category``) records the category in the title register (never lost) and posts the top-ups.
- Rule 8: before the final proposal the parameters are checked against past results:
  :func:`transition_what_if` replays the stored tournaments under other parameters (S, T, the share of
  places paid, the rounding, any rule-set key) and reports how categories would move. It writes nothing.

After each import the players' standings are recomputed in the same transaction, and the categories the
entries give are registered as announced: they are the lists' starting state (rule 7), not news for the
monthly title e-mail.

Every amount is a new ledger row with ``source="transition"`` (never an edit), audited; each import is
idempotent: a player's rule-1 or rule-3 credit is posted once (a second import of the same file posts
nothing and says so), and rule-4 top-ups post only what is still missing. A file with any bad row posts
nothing; every problem is named with its line.
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max, Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.models import Federation, Player
from federation.refusals import refusals
from federation.rulesets import rules_for
from federation.services import audit_record
from masterpoints.engine.hbs import events as hbs_events
from masterpoints.engine.hbs.categories import category_for
from masterpoints.engine.hbs.rules import KINDS, HbsRuleSet, number_text
from masterpoints.models import Award, TitleAchievement
from masterpoints.standings.services import standings_refresh_players
from office.access import is_secretariat
from tournaments.models import Tournament

#: The ledger ``part`` of each kind of transition entry: how idempotency finds earlier ones.
PART_OPENING = "transition rule 1: opening black points"
PART_1991 = "transition rule 3: 1991 category"
PART_KEPT = "transition rule 4: kept category"

REFUSALS = {
    "NOT_HBS": _("The transition rules are HBS's; %(federation)s does not use them."),
    "ENCODING": _("The file is not UTF-8 text."),
    "NOT_CSV": _("line %(line)s: the file cannot be read as CSV (%(error)s)."),
    "HEADER": _("The file needs the columns %(columns)s; its first line has %(found)s."),
    "EMPTY": _("The file has no rows after its header."),
    "UNKNOWN_PLAYER": _("line %(line)s: no player with the number %(number)s (an import never creates a player)."),
    "DUPLICATE": _("line %(line)s: the number %(number)s is already on line %(first)s."),
    "BAD_AMOUNT": _("line %(line)s: %(value)s is not a whole number of points, 0 or more."),
    "UNKNOWN_CATEGORY": _("line %(line)s: %(value)s is not a category of the table (%(names)s)."),
    "NOT_HIGHER": _(
        "line %(line)s: %(category)s requires no red or master points, so it is not one of the higher "
        "categories of transition rule 3."
    ),
    "BAD_PARAMETER": _("The what-if parameter is not valid: %(error)s"),
    "BAD_STRENGTH": _("S for %(kind)s must be a decimal number and the kind one of %(kinds)s."),
}


refusal = refusals(REFUSALS)


def _check(actor, federation: Federation) -> None:
    """HBS only; the secretariat (``actor=None``: the office's own shell, through the command)."""
    if federation.scheme != "hbs":
        raise refusal("NOT_HBS", federation=str(federation))
    if actor is not None and not is_secretariat(actor, federation):
        raise PermissionDenied(_("Only the secretariat runs the transition."))


# --- reading the old lists --------------------------------------------------------------------------------


@dataclass
class Row:
    line: int
    player: Player
    value: str


def _rows(federation: Federation, data: bytes, value_column: str) -> list[Row]:
    """``number,<value_column>`` rows with their players; every problem of the file in one refusal."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise refusal("ENCODING") from None
    reader = csv.reader(io.StringIO(text))
    try:
        header = [cell.strip().lower() for cell in next(reader, [])]
        if "number" not in header or value_column not in header:
            raise refusal("HEADER", columns=f"number, {value_column}", found=", ".join(header) or "–")
        number_at, value_at = header.index("number"), header.index(value_column)
        raw = [(index, row) for index, row in enumerate(reader, start=2) if any(cell.strip() for cell in row)]
    except csv.Error as exc:
        raise refusal("NOT_CSV", line=reader.line_num, error=str(exc)) from None
    if not raw:
        raise refusal("EMPTY")
    numbers = [row[number_at].strip() if len(row) > number_at else "" for _i, row in raw]
    players = {p.number: p for p in Player.objects.filter(federation=federation, number__in=numbers)}
    errors: list[ValidationError] = []
    seen: dict[str, int] = {}
    rows = []
    for (line, row), number in zip(raw, numbers, strict=True):
        value = row[value_at].strip() if len(row) > value_at else ""
        if number in seen:
            errors.append(refusal("DUPLICATE", line=line, number=number, first=seen[number]))
            continue
        seen[number] = line
        if number not in players:
            errors.append(refusal("UNKNOWN_PLAYER", line=line, number=number or "–"))
            continue
        rows.append(Row(line, players[number], value))
    if errors:
        raise ValidationError(errors)
    return rows


@dataclass
class ImportReport:
    """What an import did: players credited, players left alone because already credited (idempotency)."""

    posted: list[tuple[str, str, int]] = field(default_factory=list)  # (number, kind, units)
    already: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    kept: list[tuple[str, str]] = field(default_factory=list)  # rule 4: (number, category)

    @property
    def nothing_posted(self) -> bool:
        return not self.posted and not self.kept


def _post(*, federation, player, kind, units, part, reason, on, actor, report) -> None:
    Award.objects.create(
        federation=federation,
        player=player,
        kind=kind,
        units=units,
        source=Award.Source.TRANSITION,
        part=part[:100],
        reason=reason[:300],
        awarded_on=on,
        created_by=actor if actor is not None and actor.is_authenticated else None,
    )
    report.posted.append((player.number, kind, units))


def _lock(federation: Federation) -> None:
    """One transition import of a federation at a time: the idempotency checks then see every earlier one."""
    list(Federation.objects.select_for_update().filter(pk=federation.pk).values_list("pk"))


def _settle(federation: Federation, rows: list[Row]) -> int:
    """Bring the file's players' standings up to date before anything is posted, so that a category one of
    them reached by a result (its update may still be queued) is registered now and stays news for the
    title e-mail. Returns the newest title achievement's id: those written after it are the import's."""
    standings_refresh_players(federation=federation, player_ids=[row.player.pk for row in rows])
    return TitleAchievement.objects.filter(federation=federation).aggregate(newest=Max("pk"))["newest"] or 0


def _finish(*, actor, federation, action: str, data: bytes, report: ImportReport, since: int) -> ImportReport:
    import hashlib

    audit_record(
        actor=actor,
        action=action,
        target=federation,
        payload={
            "sha256": hashlib.sha256(data).hexdigest(),
            "posted": [list(item) for item in report.posted],
            "kept": [list(item) for item in report.kept],
            "already": report.already,
            "unchanged": report.unchanged,
        },
    )
    players = sorted(
        {p.pk for p in Player.objects.filter(federation=federation, number__in=[n for n, *_r in report.posted])}
        | {p.pk for p in Player.objects.filter(federation=federation, number__in=[n for n, _c in report.kept])}
    )
    if players:
        # The standings follow at once, in this transaction (the federation stays locked). The categories
        # these entries give (written after ``since``, see :func:`_settle`) are the starting state of the
        # new lists (rule 7), not news: they are registered as announced, so that the monthly title e-mail
        # (H-2) does not report every player of the federation as newly categorised.
        standings_refresh_players(federation=federation, player_ids=players)
        TitleAchievement.objects.filter(federation=federation, pk__gt=since, announced_at__isnull=True).update(
            announced_at=timezone.now()
        )
    return report


# --- rule 1: opening black points --------------------------------------------------------------------------


@transaction.atomic
def transition_opening_import(
    *, actor, federation: Federation, data: bytes, on: datetime.date | None = None
) -> ImportReport:
    """Transition rule 1: each player's opening black points from the old list (CSV ``number,black``).

    Posted once per player: a player who already has an opening balance is reported as ``already`` and
    gets nothing (a correction goes through the commission, rule 6). 0 posts nothing.
    """
    _check(actor, federation)
    _lock(federation)
    on = on or timezone.localdate()
    rows = _rows(federation, data, "black")
    errors = [refusal("BAD_AMOUNT", line=row.line, value=row.value or "–") for row in rows if not _whole(row.value)]
    if errors:
        raise ValidationError(errors)
    done = set(
        Award.objects.filter(federation=federation, source=Award.Source.TRANSITION, part=PART_OPENING).values_list(
            "player_id", flat=True
        )
    )
    since = _settle(federation, rows)
    report = ImportReport()
    for row in rows:
        units = int(row.value)
        if row.player.pk in done:
            report.already.append(row.player.number)
        elif units == 0:
            report.unchanged.append(row.player.number)
        else:
            _post(
                federation=federation,
                player=row.player,
                kind="black",
                units=units,
                part=PART_OPENING,
                reason=f"old list, line {row.line}",
                on=on,
                actor=actor,
                report=report,
            )
    return _finish(
        actor=actor, federation=federation, action="transition.opening", data=data, report=report, since=since
    )


def _whole(value: str) -> bool:
    return value.isascii() and value.isdigit()


# --- rule 3: 1991 category holders --------------------------------------------------------------------------


def _category_rows(rules: HbsRuleSet, rows: list[Row]) -> dict[str, tuple[int, str, int, int, int]]:
    """Category name (any case) → (rung, name, black, red, master) for the categories the rows name."""
    table = {name.lower(): (index, name, *mins) for index, (name, *mins) in enumerate(rules.category_minimums(), 1)}
    names = ", ".join(name for _i, name, *_m in table.values())
    errors = [
        refusal("UNKNOWN_CATEGORY", line=row.line, value=row.value or "–", names=names)
        for row in rows
        if row.value.lower() not in table
    ]
    if errors:
        raise ValidationError(errors)
    return table


@transaction.atomic
def transition_held_1991_import(
    *, actor, federation: Federation, data: bytes, on: datetime.date | None = None
) -> ImportReport:
    """Transition rule 3: a player who held a higher category in 1991 is credited at the start with half the
    points it requires (CSV ``number,category``): ``HBS_TRANSITION_1991_SHARE`` (½) of its red and master
    minimums, each rounded up. Once per player; a category requiring no red or master points is refused."""
    _check(actor, federation)
    _lock(federation)
    on = on or timezone.localdate()
    rules = rules_for(federation, on)
    rows = _rows(federation, data, "category")
    table = _category_rows(rules, rows)
    errors = [
        refusal("NOT_HIGHER", line=row.line, category=table[row.value.lower()][1])
        for row in rows
        if not any(table[row.value.lower()][3:])
    ]
    if errors:
        raise ValidationError(errors)
    share = Fraction(str(getattr(settings, "HBS_TRANSITION_1991_SHARE", "1/2")))
    done = set(
        Award.objects.filter(
            federation=federation, source=Award.Source.TRANSITION, part__startswith=PART_1991
        ).values_list("player_id", flat=True)
    )
    since = _settle(federation, rows)
    report = ImportReport()
    for row in rows:
        _rung, name, _black, red, master = table[row.value.lower()]
        if row.player.pk in done:
            report.already.append(row.player.number)
            continue
        for kind, minimum in (("red", red), ("master", master)):
            units = math.ceil(minimum * share)
            if units:
                _post(
                    federation=federation,
                    player=row.player,
                    kind=kind,
                    units=units,
                    part=f"{PART_1991} {name}",
                    reason=f"held {name} in 1991: {share} of {minimum} {kind}",
                    on=on,
                    actor=actor,
                    report=report,
                )
    return _finish(
        actor=actor, federation=federation, action="transition.held_1991", data=data, report=report, since=since
    )


# --- rule 4: old categories are kept -----------------------------------------------------------------------


def _balances(federation: Federation, player_ids) -> dict[int, dict[str, int]]:
    sums: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(KINDS, 0))
    for player_id, kind, total in (
        Award.objects.filter(federation=federation, player_id__in=player_ids)
        .values("player_id", "kind")
        .annotate(total=Sum("units"))
        .values_list("player_id", "kind", "total")
    ):
        if kind in KINDS:
            sums[player_id][kind] = total
    return sums


@transaction.atomic
def transition_keep_categories(
    *, actor, federation: Federation, data: bytes, on: datetime.date | None = None
) -> ImportReport:
    """Transition rule 4 (H-2): a player whose old category (CSV ``number,category``) the new rules would not
    give keeps it: it is registered in the title register (never lost, not announced as news) and their red
    and master points are topped up to its minimums. Players whose points already give it are unchanged;
    running it again posts only what is still missing (nothing)."""
    _check(actor, federation)
    _lock(federation)
    on = on or timezone.localdate()
    rules = rules_for(federation, on)
    rows = _rows(federation, data, "category")
    table = _category_rows(rules, rows)
    ids = [row.player.pk for row in rows]
    balances = _balances(federation, ids)
    held = defaultdict(int)
    for player_id, rung in TitleAchievement.objects.filter(player_id__in=ids).values_list("player_id", "rung"):
        held[player_id] = max(held[player_id], rung)
    names = [entry[0] for entry in rules.category_minimums()]
    since = _settle(federation, rows)
    report = ImportReport()
    now = timezone.now()
    for row in rows:
        rung, name, _black, red, master = table[row.value.lower()]
        have = balances[row.player.pk]
        status = category_for(max(0, have["black"]), max(0, have["red"]), max(0, have["master"]), rules)
        computed = names.index(status.computed) + 1 if status.computed else 0
        if computed >= rung:
            report.unchanged.append(row.player.number)
            continue
        posted_before = len(report.posted)
        for kind, minimum in (("red", red), ("master", master)):
            short = minimum - max(0, have[kind])
            if short > 0:
                _post(
                    federation=federation,
                    player=row.player,
                    kind=kind,
                    units=short,
                    part=f"{PART_KEPT} {name}",
                    reason=f"kept {name}: {kind} topped up to {minimum}",
                    on=on,
                    actor=actor,
                    report=report,
                )
        if held[row.player.pk] < rung:
            TitleAchievement.objects.create(
                player=row.player, federation=federation, rung=rung, title=name, reached_on=on, announced_at=now
            )
            report.kept.append((row.player.number, name))
        elif len(report.posted) == posted_before:
            report.already.append(row.player.number)
    return _finish(
        actor=actor, federation=federation, action="transition.keep_categories", data=data, report=report, since=since
    )


#: The imports by the name the command and the page use.
IMPORTS = {
    "opening": transition_opening_import,
    "held-1991": transition_held_1991_import,
    "keep-categories": transition_keep_categories,
}


# --- rule 8: what if ----------------------------------------------------------------------------------------


@dataclass
class WhatIfRow:
    player: Player
    current: tuple[int, int, int]
    alternative: tuple[int, int, int]
    current_category: str | None
    alternative_category: str | None
    move: int  # +1 up, -1 down, 0 same


@dataclass
class WhatIf:
    rows: list[WhatIfRow]
    tournaments: int
    parameters: dict

    @property
    def up(self) -> int:
        return sum(1 for row in self.rows if row.move > 0)

    @property
    def down(self) -> int:
        return sum(1 for row in self.rows if row.move < 0)

    @property
    def same(self) -> int:
        return sum(1 for row in self.rows if row.move == 0)


def what_if_rules(base: HbsRuleSet, overrides: dict) -> HbsRuleSet:
    """``base`` with ``overrides`` (rule-set keys in :meth:`HbsRuleSet.to_dict` form, e.g.
    ``{"paid_share": "0.4", "paid_rounding": "down", "form_factors": {"pairs": "1.2", …}}``)."""
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


def _replay(tournament: Tournament, rules: HbsRuleSet, strengths: dict[str, Decimal]) -> dict[tuple[int, str], int]:
    """(player id, kind) → units of one stored tournament under ``rules``, group by group as the upload
    scored it (``tournaments.scoring``); guests count in the field but get nothing."""
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


def transition_what_if(
    *,
    federation: Federation,
    overrides: dict | None = None,
    strengths: dict[str, str] | None = None,
    on: datetime.date | None = None,
) -> WhatIf:
    """Transition rule 8: replay every current (not superseded) tournament of ``federation`` under the rules
    in force on its date with ``overrides``, and with S replaced per kind by ``strengths``; compare each
    player's category now (ledger balances) with the category the alternative would give (ledger balances
    with the tournaments' result points replaced by the replay's). Held categories (H-2) are left out on
    both sides: the report shows what the parameters do. Reads only."""
    if federation.scheme != "hbs":
        raise refusal("NOT_HBS", federation=str(federation))
    overrides = overrides or {}
    parsed: dict[str, Decimal] = {}
    for kind, value in (strengths or {}).items():
        try:
            parsed[kind] = Decimal(str(value))
        except InvalidOperation:
            raise refusal("BAD_STRENGTH", kind=kind, kinds=", ".join(KINDS)) from None
        if kind not in KINDS or not parsed[kind].is_finite():
            raise refusal("BAD_STRENGTH", kind=kind, kinds=", ".join(KINDS))
    on = on or timezone.localdate()
    what_if_rules(rules_for(federation, on), overrides)  # refuse bad parameters before any work
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
        for key, units in _replay(tournament, cache[base.valid_from], parsed).items():
            alternative[key] += units
        count += 1
    ledger = _balances(federation, Award.objects.filter(federation=federation).values("player_id"))
    # The result points the ledger holds now: result awards and their reversals (a re-upload nets to 0).
    results: dict[tuple[int, str], int] = defaultdict(int)
    for player_id, kind, total in (
        Award.objects.filter(federation=federation, source=Award.Source.RESULT)
        .values("player_id", "kind")
        .annotate(total=Sum("units"))
        .values_list("player_id", "kind", "total")
    ):
        results[(player_id, kind)] += total
    for player_id, kind, total in (
        Award.objects.filter(federation=federation, source=Award.Source.REVERSAL, reverses__source=Award.Source.RESULT)
        .values("player_id", "kind")
        .annotate(total=Sum("units"))
        .values_list("player_id", "kind", "total")
    ):
        results[(player_id, kind)] += total
    current_rules = rules_for(federation, on)
    alt_rules = what_if_rules(current_rules, overrides)
    players = Player.objects.in_bulk(set(ledger) | {pk for pk, _kind in alternative})
    rows = []
    for pk, player in players.items():
        now = tuple(max(0, ledger.get(pk, {}).get(kind, 0)) for kind in KINDS)
        alt = tuple(
            max(0, ledger.get(pk, {}).get(kind, 0) - results[(pk, kind)] + alternative[(pk, kind)]) for kind in KINDS
        )
        before = category_for(*now, current_rules).computed
        after = category_for(*alt, alt_rules).computed
        rank_before = _rank(current_rules, before)
        rank_after = _rank(alt_rules, after)
        move = (rank_after > rank_before) - (rank_after < rank_before)
        rows.append(WhatIfRow(player, now, alt, before, after, move))
    rows.sort(key=lambda row: (-row.move, row.player.last_name, row.player.first_name, row.player.number))
    parameters = {**overrides, **({"strengths": {k: str(v) for k, v in parsed.items()}} if parsed else {})}
    return WhatIf(rows, count, parameters)


def _rank(rules: HbsRuleSet, name: str | None) -> int:
    names = [row[0] for row in rules.category_minimums()]
    return names.index(name) + 1 if name in names else 0


__all__ = [
    "ImportReport",
    "WhatIf",
    "WhatIfRow",
    "transition_held_1991_import",
    "transition_keep_categories",
    "transition_opening_import",
    "transition_what_if",
    "what_if_rules",
]


def what_if_parameters(settings_lines: Iterable[str], strength_lines: Iterable[str]) -> tuple[dict, dict[str, str]]:
    """The what-if parameters as people write them: ``KEY=VALUE`` per rule-set key (a JSON object or list
    after ``{``/``[``, ``true``/``false``, a whole number, else text) and ``KIND=S`` per point kind.
    Returns ``(overrides, strengths)`` for :func:`transition_what_if`; a line without ``=`` is refused."""
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
    if value in ("true", "false"):
        return value == "true"
    if value.isascii() and value.lstrip("-").isdigit():
        return int(value)
    return value


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


def _cell(text: str) -> str:
    """Text a spreadsheet would take for a formula (``=``, ``+``, ``-``, ``@`` first) kept as text."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@") else text


def what_if_csv(result: WhatIf, out, *, every: bool = False) -> None:
    """Write the what-if result to the text stream ``out`` as CSV: the players whose category moves (every
    player with ``every``), then a ``#`` line with the parameters and the counts."""
    writer = csv.writer(out)
    writer.writerow(WHAT_IF_COLUMNS)
    for row in result.rows:
        if row.move or every:
            writer.writerow(
                [
                    row.player.number,
                    _cell(row.player.full_name),
                    *row.current,
                    row.current_category or "-",
                    *row.alternative,
                    row.alternative_category or "-",
                    _MOVES[row.move],
                ]
            )
    out.write(
        f"# {result.tournaments} tournaments replayed with {json.dumps(result.parameters)}: "
        f"{result.up} up, {result.down} down, {result.same} unchanged\n"
    )
