"""HBS transition to the new categorisation (``seeds/000_…``, "Prijelazne odredbe", rules 1–8; ``hbs.md``).

- Rule 1: opening black points from the existing list: :func:`transition_opening_import` (CSV
  ``number,black``).
- Rule 3: players who held a higher category in 1991 are credited half the points it requires:
  :func:`transition_held_1991_import` (CSV ``number,category``): half (the rule set's ``transition_1991_share``) of
  the category's master minimum, rounded up (H-21: "prema ovom kriteriju" is rule 2's criterion, the master
  points; red too only where the rule set's ``transition_1991_red`` says so); a category with none is not a
  higher one.
- Rule 4 with H-2: players whose old category the new rules would not give keep it, and their red and
  master points are topped up to its minimums (never reduced): :func:`transition_keep_categories`
  (CSV ``number,category``) records the category in the title register (never lost) and posts the top-ups.
- Rule 8: before the final proposal the parameters are checked against past results: the what-if run,
  reads only, is ``masterpoints.transition.what_if``.

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
import hashlib
import io
import math
from collections import defaultdict
from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.models import Federation, Player
from federation.refusals import refusals
from federation.rulesets import rules_for
from federation.services import audit_record
from masterpoints.engine.hbs.categories import category_for
from masterpoints.engine.hbs.rules import HbsRuleSet
from masterpoints.models import Award, TitleAchievement, TransitionCredit
from masterpoints.standings.services import standings_refresh_players
from masterpoints.transition.selectors import category_rank, ledger_balances

# Rule 8 (reads only) lives in ``what_if``; the command ``hbs_transition`` imports its names from here.
from masterpoints.transition.what_if import REFUSALS as WHAT_IF_REFUSALS
from office.access import is_secretariat

#: The ledger ``part`` of each kind of transition entry. Rules 1 and 3 find earlier credits by it (their
#: idempotency); rule 4 tops up from the balances instead.
PART_OPENING = "transition rule 1: opening black points"
PART_1991 = "transition rule 3: 1991 category"
PART_KEPT = "transition rule 4: kept category"

#: Every refusal of the transition (rules 1, 3, 4 here; rule 8's from ``what_if``): code → message.
REFUSALS = {
    **WHAT_IF_REFUSALS,
    "ENCODING": _("The file is not UTF-8 text."),
    "NOT_CSV": _("line %(line)s: the file cannot be read as CSV (%(error)s)."),
    "HEADER": _("The file needs the columns %(columns)s; its first line has %(found)s."),
    "EMPTY": _("The file has no rows after its header."),
    "UNKNOWN_PLAYER": _("line %(line)s: no player with the number %(number)s (an import never creates a player)."),
    "DUPLICATE": _("line %(line)s: the number %(number)s is already on line %(first)s."),
    "BAD_AMOUNT": _("line %(line)s: %(value)s is not a whole number of points from 0 to %(maximum)s."),
    "CONTROL_CHARACTER": _("line %(line)s: the file holds a NUL or another control character; export it again."),
    "UNKNOWN_CATEGORY": _("line %(line)s: %(value)s is not a category of the table (%(names)s)."),
    "NOT_HIGHER": _(
        "line %(line)s: %(category)s requires no %(kinds)s points, so it is not one of the higher categories of "
        "transition rule 3 (H-21: it credits the points of rule 2's criterion)."
    ),
}


refusal = refusals(REFUSALS)


def _check(actor, federation: Federation) -> None:
    """Refuse a federation without the HBS transition rules (rules 1–8), and an actor who is not its
    secretariat (``actor=None`` is the office's own shell, through the command)."""
    if not federation.scheme_info.transition:
        raise refusal("NOT_HBS", federation=str(federation))
    if actor is not None and not is_secretariat(actor, federation):
        raise PermissionDenied(_("Only the secretariat runs the transition."))


# --- reading the old lists --------------------------------------------------------------------------------


@dataclass
class Row:
    """One data row of an old list: its line in the file, its player, the value of its value column."""

    line: int
    player: Player
    value: str


def _rows(federation: Federation, data: bytes, value_column: str) -> list[Row]:
    """The rows of a ``number,<value_column>`` CSV (UTF-8, any column order, blank lines skipped) with their
    players, in file order. Refused, with every problem and its line in one refusal, when the file cannot be
    read, has no such columns or rows, or names a player twice or one who does not exist (an import never
    creates a player)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise refusal("ENCODING") from None
    for line, content in enumerate(text.splitlines(), start=1):
        if any(ord(char) < 32 and char != "\t" for char in content):
            raise refusal("CONTROL_CHARACTER", line=line)
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
    """What an import did: entries posted, categories kept (rule 4), players left alone because already
    credited (idempotency) and players with nothing to post."""

    posted: list[tuple[str, str, int]] = field(default_factory=list)  # (number, kind, units)
    already: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    kept: list[tuple[str, str]] = field(default_factory=list)  # rule 4: (number, category)

    @property
    def nothing_posted(self) -> bool:
        """Whether the import wrote no ledger row and kept no category."""
        return not self.posted and not self.kept


def _post(*, federation, player, kind, units, part, reason, on, actor, report) -> Award:
    """Post one transition entry (a new ledger row, never an edit) and note it in ``report``; ``part`` names
    the rule (``PART_*``) for the reader."""
    award = Award.objects.create(
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
    return award


def _credited(federation: Federation, rule: str) -> set[int]:
    """The players already credited under ``rule`` (rules 1 and 3 credit a player once)."""
    return set(TransitionCredit.objects.filter(federation=federation, rule=rule).values_list("player_id", flat=True))


def _credit(federation: Federation, player: Player, rule: str, awards: list[Award]) -> None:
    """Record that ``player`` was credited under ``rule``; the unique constraint refuses a second credit."""
    credit = TransitionCredit.objects.create(federation=federation, player=player, rule=rule)
    credit.awards.set(awards)


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
    """Audit the import (the file's SHA-256 and the report), recompute the standings of the players it
    credited, and register the categories the entries gave as announced (rule 7); returns ``report``."""
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
    """Transition rule 1: post each player's opening black points from the old list (CSV ``number,black``,
    whole numbers), dated ``on`` (default today), and return what was done.

    Posted once per player: a player who already has an opening balance is reported as ``already`` and
    gets nothing (a correction goes through the commission, rule 6); 0 posts nothing. A file with any bad
    row posts nothing. Secretariat only.
    """
    _check(actor, federation)
    _lock(federation)
    on = on or timezone.localdate()
    rows = _rows(federation, data, "black")
    errors = [
        refusal("BAD_AMOUNT", line=row.line, value=row.value[:20] or "–", maximum=MAX_POINTS)
        for row in rows
        if not _whole(row.value)
    ]
    if errors:
        raise ValidationError(errors)
    done = _credited(federation, TransitionCredit.Rule.OPENING)
    since = _settle(federation, rows)
    report = ImportReport()
    for row in rows:
        units = int(row.value)
        if row.player.pk in done:
            report.already.append(row.player.number)
        elif units == 0:
            report.unchanged.append(row.player.number)
        else:
            award = _post(
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
            _credit(federation, row.player, TransitionCredit.Rule.OPENING, [award])
    return _finish(
        actor=actor, federation=federation, action="transition.opening", data=data, report=report, since=since
    )


#: No player of the old lists holds anything near a million points of one kind: a larger number is a
#: mistake in the file (and would not fit the ledger's units).
MAX_POINTS = 1_000_000


def _whole(value: str) -> bool:
    """Whether ``value`` is a whole number of points from 0 to :data:`MAX_POINTS` (ASCII digits only)."""
    return value.isascii() and value.isdigit() and len(value) <= 7 and int(value) <= MAX_POINTS


# --- rule 3: 1991 category holders --------------------------------------------------------------------------


def _category_rows(rules: HbsRuleSet, rows: list[Row]) -> dict[str, tuple[int, str, int, int, int]]:
    """Category name (lower case) → (rung, name, black, red, master) of the table of ``rules`` (H-2; rung 1
    the lowest); refused, line by line, when a row names a category not in the table (any case is read)."""
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
    points it requires (CSV ``number,category``): the rule set's ``transition_1991_share`` (½) of its master
    minimum (H-21; and of its red minimum where ``transition_1991_red`` is set), each rounded up, dated ``on``
    (default today). Once per player (an earlier rule-3 credit is ``already``); a category requiring none of
    those points is not a higher one and is refused, and a file with any bad row posts nothing. Secretariat
    only."""
    _check(actor, federation)
    _lock(federation)
    on = on or timezone.localdate()
    rules = rules_for(federation, on)
    rows = _rows(federation, data, "category")
    table = _category_rows(rules, rows)
    credited_kinds = ("red", "master") if rules.transition_1991_red else ("master",)
    position = {"red": 3, "master": 4}
    errors = [
        refusal(
            "NOT_HIGHER",
            line=row.line,
            category=table[row.value.lower()][1],
            kinds=" or ".join(credited_kinds),
        )
        for row in rows
        if not any(table[row.value.lower()][position[kind]] for kind in credited_kinds)
    ]
    if errors:
        raise ValidationError(errors)
    share = rules.transition_1991_share
    done = _credited(federation, TransitionCredit.Rule.HELD_1991)
    since = _settle(federation, rows)
    report = ImportReport()
    for row in rows:
        _rung, name, _black, red, master = table[row.value.lower()]
        minimums = {"red": red, "master": master}
        if row.player.pk in done:
            report.already.append(row.player.number)
            continue
        awards = [
            _post(
                federation=federation,
                player=row.player,
                kind=kind,
                units=units,
                part=f"{PART_1991} {name}",
                reason=f"held {name} in 1991: {share} of {minimums[kind]} {kind} (H-21)",
                on=on,
                actor=actor,
                report=report,
            )
            for kind in credited_kinds
            if (units := math.ceil((minimums[kind] or 0) * share))
        ]
        _credit(federation, row.player, TransitionCredit.Rule.HELD_1991, awards)
    return _finish(
        actor=actor, federation=federation, action="transition.held_1991", data=data, report=report, since=since
    )


# --- rule 4: old categories are kept -----------------------------------------------------------------------


@transaction.atomic
def transition_keep_categories(
    *, actor, federation: Federation, data: bytes, on: datetime.date | None = None
) -> ImportReport:
    """Transition rule 4 (H-2): a player whose old category (CSV ``number,category``) the new rules would not
    give keeps it: it is registered in the title register (never lost, not announced as news) and their red
    and master points are topped up to its minimums. Players whose points already give it are unchanged;
    running it again posts only what is still missing (nothing). Posted and registered as of ``on`` (default
    today); a file with any bad row posts nothing. Secretariat only."""
    _check(actor, federation)
    _lock(federation)
    on = on or timezone.localdate()
    rules = rules_for(federation, on)
    rows = _rows(federation, data, "category")
    table = _category_rows(rules, rows)
    ids = [row.player.pk for row in rows]
    balances = ledger_balances(federation, ids)
    held = defaultdict(int)
    for player_id, rung in TitleAchievement.objects.filter(player_id__in=ids).values_list("player_id", "rung"):
        held[player_id] = max(held[player_id], rung)
    since = _settle(federation, rows)
    report = ImportReport()
    now = timezone.now()
    for row in rows:
        rung, name, _black, red, master = table[row.value.lower()]
        have = balances[row.player.pk]
        status = category_for(max(0, have["black"]), max(0, have["red"]), max(0, have["master"]), rules)
        if category_rank(rules, status.computed) >= rung:
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
