"""``history_import``: the history of a federation moving in, brought into the ledger.

Every amount is a new ledger row of ``source="opening"`` (``Award.Source.OPENING``): never an edit, never a
result. The standings count such rows in the career's balances and titles, in a season of their own
(``standings.sums.OPENING_SEASON``): they are never points won in a season, so no season figure or season
ranking moves. A historic award keeps its date and names its tournament in ``reason``; the balance of a kind
is brought to the old system's figure by one opening entry dated ``as_of`` (the balance less the historic
awards of that kind already brought in), so that after the import the standings equal the old system's totals.

Idempotent by what the ledger holds: a historic award already brought in (the same player, date, tournament,
kind and points, counted with repeats) is not posted again, and a balance entry posts only the difference, so a
second run of the same files posts nothing. Titles and categories are registered (``TitleAchievement``) on the
day the old system gave them, as announced (they are no news for the monthly title e-mail); a rung held already
is kept as it is. The whole import is one transaction under the federation's lock, audited
(``history.import``: the files' SHA-256 and the figures); a dry run writes nothing and returns the same figures.
"""

from __future__ import annotations

import datetime
import hashlib
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from federation.bulk import insert_many
from federation.models import Federation, Player
from federation.services import audit_record
from masterpoints.history.files import read_history
from masterpoints.models import Award, TitleAchievement
from masterpoints.standings.ladders import LadderBook
from masterpoints.standings.services import standings_rebuild, standings_refresh_players
from office.access import is_secretariat

#: The ``part`` of each kind of opening entry (the ledger's own words for the reader).
PART_AWARD = "history: historic award"
PART_BALANCE = "history: opening balance"
BATCH = 5000
#: Above this many players touched, the standings are rebuilt whole rather than refreshed player by player (the
#: same rows either way: a rebuild gives exactly what the incremental updates give).
REBUILD_FROM = 5000


@dataclass
class HistoryReport:
    """What the import posted (or, for a dry run, would post)."""

    dry_run: bool
    players: int = 0
    awards_posted: int = 0
    awards_already: int = 0
    balances_posted: int = 0
    balances_already: int = 0
    titles_registered: int = 0
    titles_already: int = 0
    units: dict[str, int] = field(default_factory=dict)

    def figures(self) -> dict[str, int]:
        figures = {name: value for name, value in vars(self).items() if isinstance(value, int) and name != "dry_run"}
        return {**figures, **{f"units_{kind}": units for kind, units in sorted(self.units.items())}}


def _players(federation: Federation, numbers: set[str], rows) -> dict[str, int]:
    known = dict(Player.objects.filter(federation=federation, number__in=numbers).values_list("number", "pk"))
    missing = sorted({(name, row.line, row.number) for name, row in rows if row.number not in known})
    if missing:
        raise ValidationError(
            [
                _("%(file)s, line %(line)s: no player of the register has the number %(number)s.")
                % {"file": name, "line": line, "number": number[:20]}
                for name, line, number in missing[:50]
            ]
        )
    return known


def _rung(book: LadderBook, row) -> tuple[int, str]:
    ladder = book.on(row.reached_on)
    for rung in ladder.rungs:
        if rung.title.casefold() == row.title.casefold() and rung.stars == row.stars:
            return rung.rung, rung.title
    names = ", ".join(f"{r.title}{' ' + '★' * r.stars if r.stars else ''}" for r in ladder.rungs)
    raise ValidationError(
        _("titles, line %(line)s: %(title)s is no title or category of the ladder (%(names)s).")
        % {"line": row.line, "title": row.title[:60], "names": names}
    )


def _check(actor, federation: Federation) -> None:
    if actor is not None and not is_secretariat(actor, federation):
        raise PermissionDenied(
            _("Only the secretariat of %(federation)s brings in its history.") % {"federation": federation}
        )


@transaction.atomic
def history_import(
    *,
    actor,
    federation: Federation,
    as_of: datetime.date,
    balances: bytes | None = None,
    titles: bytes | None = None,
    awards: bytes | None = None,
    dry_run: bool = True,
) -> HistoryReport:
    """Bring the history files into ``federation``'s ledger as of ``as_of`` (see the module); refused, naming
    file and line and writing nothing, for a bad row, an unknown number or an unknown title."""
    _check(actor, federation)
    info = federation.scheme_info
    balance_rows, title_rows, award_rows = read_history(
        kinds=info.kinds, balances=balances, titles=titles, awards=awards
    )
    named = [("balances", r) for r in balance_rows] + [("titles", r) for r in title_rows]
    named += [("awards", r) for r in award_rows]
    players = _players(federation, {row.number for _name, row in named}, named)
    book = LadderBook(federation)
    rungs = [(players[row.number], *_rung(book, row), row) for row in title_rows]
    list(Federation.objects.select_for_update().filter(pk=federation.pk).values_list("pk"))  # one import at a time
    report = HistoryReport(dry_run=dry_run, players=len({players[row.number] for _name, row in named}))
    new_awards = _new_awards(federation, players, award_rows, report)
    new_balances = _new_balances(federation, players, balance_rows, new_awards, as_of, report)
    held = set(TitleAchievement.objects.filter(federation=federation).values_list("player_id", "rung"))
    new_titles = [(player, rung, title, row) for player, rung, title, row in rungs if (player, rung) not in held]
    report.titles_registered, report.titles_already = len(new_titles), len(rungs) - len(new_titles)
    if dry_run:
        return report
    since = TitleAchievement.objects.filter(federation=federation).aggregate(newest=Max("pk"))["newest"] or 0
    creator = actor.pk if actor is not None and actor.is_authenticated else None
    rows = [
        {"federation_id": federation.pk, "source": Award.Source.OPENING, "created_by_id": creator, **values}
        for values in [*new_awards, *new_balances]
    ]
    insert_many(Award, rows)  # COPY on PostgreSQL: a federation's history is hundreds of thousands of rows
    now = timezone.now()
    TitleAchievement.objects.bulk_create(
        [
            TitleAchievement(
                player_id=player, federation=federation, rung=rung, title=title, stars=row.stars,
                reached_on=row.reached_on, announced_at=now,
            )
            for player, rung, title, row in new_titles
        ],
        batch_size=BATCH,
        ignore_conflicts=True,
    )  # fmt: skip
    touched = {row["player_id"] for row in rows} | {player for player, *_rest in new_titles}
    if len(touched) > REBUILD_FROM:  # most of a federation: one rebuild from the ledger is several times faster
        standings_rebuild(actor=actor, federation=federation)
    elif touched:
        standings_refresh_players(federation=federation, player_ids=touched)
        # What the standings register from the history is the starting state, not news for the title e-mail.
        TitleAchievement.objects.filter(federation=federation, pk__gt=since, announced_at__isnull=True).update(
            announced_at=now
        )
    files = {"balances": balances, "titles": titles, "awards": awards}
    audit_record(
        actor=actor,
        action="history.import",
        target=federation,
        payload={
            "as_of": as_of.isoformat(),
            "sha256": {name: hashlib.sha256(data).hexdigest() for name, data in files.items() if data},
            **report.figures(),
        },
    )
    return report


def _new_awards(federation, players: dict[str, int], award_rows, report: HistoryReport) -> list[dict]:
    """The historic awards not brought in yet (counted with repeats: two equal awards in the file are two)."""
    existing = Counter(
        Award.objects.filter(federation=federation, source=Award.Source.OPENING, part=PART_AWARD).values_list(
            "player_id", "awarded_on", "reason", "kind", "units"
        )
    )
    new = []
    for row in award_rows:
        key = (players[row.number], row.day, row.tournament, row.kind, row.units)
        if existing[key] > 0:
            existing[key] -= 1
            report.awards_already += 1
            continue
        if row.units == 0:
            continue
        new.append(
            {"player_id": key[0], "awarded_on": row.day, "reason": row.tournament, "kind": row.kind,
             "units": row.units, "part": PART_AWARD}
        )  # fmt: skip
        report.units[row.kind] = report.units.get(row.kind, 0) + row.units
    report.awards_posted = len(new)
    return new


def _new_balances(federation, players, balance_rows, new_awards: list[dict], as_of, report) -> list[dict]:
    """One opening entry per player and kind whose opening entries (those in the ledger and the new historic
    awards) do not sum to the old system's balance: the difference, dated ``as_of``."""
    opened: dict[tuple[int, str], int] = defaultdict(int)
    rows = Award.objects.filter(federation=federation, source=Award.Source.OPENING).values_list(
        "player_id", "kind", "units"
    )
    for player, kind, units in rows.iterator(chunk_size=BATCH):
        opened[(player, kind)] += units
    for award in new_awards:
        opened[(award["player_id"], award["kind"])] += award["units"]
    new = []
    reason = _("opening balance as of %(day)s, from the old system") % {"day": as_of.isoformat()}
    for row in balance_rows:
        key = (players[row.number], row.kind)
        missing = row.units - opened[key]
        if missing == 0:
            report.balances_already += 1
            continue
        opened[key] += missing
        new.append(
            {"player_id": key[0], "awarded_on": as_of, "reason": reason[:300], "kind": row.kind, "units": missing,
             "part": PART_BALANCE}
        )  # fmt: skip
        report.units[row.kind] = report.units.get(row.kind, 0) + missing
    report.balances_posted = len(new)
    return new
