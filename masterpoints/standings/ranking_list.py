"""DBf's ranking list ("ranglisten"), derived from the ledger: one step of every standings recomputation.

The figure (:mod:`masterpoints.engine.dbf.ranglist`) weights each MP by how long ago it was registered, so
it changes as days pass with no new award. How the stored list stays right (D-Q59): each row keeps the
exact figure for the day it was computed and the first later day on which that figure would change (an
award moving into an older period or out of the list). The incremental update and the full rebuild compute
the rows of their scope for today (:func:`ranking_list_refresh`); the daily roll after midnight
(``standings_ranking_roll``) recomputes just the rows whose day has come, and the whole list on the day a
figure of 0, which has no row, changes (:func:`ranking_list_rebuild` records that day). So the list is
right on every day at the cost of the few rows that change that day, instead of a whole recomputation each
night or a sum over three years of ledger for each page view; the nightly rebuild would repair a roll that
did not run.

What counts (DBf's explanation of the list, and the readings of this project):

- D-Q56: "MP" is every DBf kind converted exactly: 1 MP = 1 GP = 10 SP = 100 BP (§ 402), so each ledger
  unit (1 BP, 0.1 SP, 0.01 GP) is 0.01 MP and a day's MP is the sum of its units, in hundredths.
- D-Q57: an award is registered on the local date of ``Award.created_at``, the day it entered the ledger
  (the titles' day, D-Q21); the periods are calendar years back from today (see the engine module).
- D-Q58: MP from robot tournaments do not count (DBf's decision of March 2021). A robot tournament is one
  whose upload said everyone played alone against robots (``Tournament.robots``, § 405B6e: the flag the
  scale already uses). A reversal counts on the registration day of the award it reverses and only where
  that award counted, so it takes back exactly what the award gave, however late it comes (a re-upload a
  year on does not leave a negative remainder in the newer period); a correction or any other adjusting
  entry counts on its own registration day. Foreign points (§ 401B) are MP registered here and count on the
  day they were registered; an opening balance (a lifetime carried over in one entry) does not count: it
  was not earned on the day it was entered.
- D-Q60: the figure is stored exactly, as an integer: the hundredths of MP times the rule's denominator
  (DBf 11, so the figure in MP is ``score / 1100``); pages show it rounded half up to 2 decimals, the
  list is ordered by the exact figure and equal figures share a place.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.db import connection
from django.db.models import F, Q, Sum
from django.db.models.functions import Coalesce, TruncDate
from django.utils import timezone

from federation.models import Federation
from federation.schemes import scheme_of
from masterpoints.engine.dbf.ranglist import RankingListRule, figure_of_periods, period_bounds, years_before
from masterpoints.models import Award, RankingListEntry
from masterpoints.standings.sums import _as_date

#: Entries that are no MP registered on their day (D-Q58): an opening balance carries a lifetime over.
EXCLUDED_SOURCES = (Award.Source.TRANSITION,)


def _counted(prefix: str = "") -> Q:
    """The entries the list counts (D-Q58), by their own fields or, with ``prefix``, the reversed award's."""
    robots = Q(**{f"{prefix}tournament__isnull": True}) | Q(**{f"{prefix}tournament__robots": False})
    return ~Q(**{f"{prefix}source__in": EXCLUDED_SOURCES}) & robots


def _daily(federation: Federation, rule: RankingListRule, player_ids: Sequence[int] | None, today: datetime.date):
    """The scope's (player, registration day, hundredths of MP registered that day) of the days that may
    count on ``today``, leaving out the days whose entries cancel out: one GROUP BY (player, day) over the
    ledger rows written since the oldest period began (a reversal is never written before the award it
    reverses, so its original's day is in range too)."""
    oldest = years_before(today, len(rule.weights))
    since = timezone.make_aware(datetime.datetime.combine(oldest + datetime.timedelta(days=1), datetime.time.min))
    awards = Award.objects.filter(federation=federation, created_at__gte=since)
    if player_ids is not None:
        awards = awards.filter(player_id__in=list(player_ids))
    awards = awards.filter(_counted()).filter(Q(reverses__isnull=True) | _counted("reverses__"))
    return (
        awards.annotate(registered=TruncDate(Coalesce(F("reverses__created_at"), F("created_at"))))
        .values("player_id", "registered")
        .annotate(hundredths=Sum("units"))
        .exclude(hundredths=0)
        .order_by()
        .values_list("player_id", "registered", "hundredths")
    )


def _periods_sql(rule: RankingListRule, today: datetime.date, daily_sql: str) -> tuple[str, list]:
    """SQL summing each player's days (``daily_sql``: player, registered, hundredths) per period of
    ``today`` (a day after today counts as today), with each period's oldest day: player_id, the sums
    newest period first, then the oldest days."""
    bounds = period_bounds(today, len(rule.weights))
    conditions = ["d > %s" if period == 0 else "d > %s AND d <= %s" for period in range(len(bounds))]
    windows = [[bound] if period == 0 else [bound, bounds[period - 1]] for period, bound in enumerate(bounds)]
    sums = [f"SUM(CASE WHEN {condition} THEN h ELSE 0 END)" for condition in conditions]
    oldest = [f"MIN(CASE WHEN {condition} THEN d END)" for condition in conditions]
    params = [value for window in windows + windows for value in window]
    sql = (
        f"SELECT player_id, {', '.join(sums + oldest)} FROM ("  # noqa: S608 - our own SQL
        f"SELECT player_id, CASE WHEN registered > %s THEN %s ELSE registered END AS d, hundredths AS h "
        f"FROM ({daily_sql}) daily) days GROUP BY player_id"
    )
    return sql, params


def _figures(
    federation: Federation, player_ids: Sequence[int] | None, today: datetime.date
) -> dict[int, tuple[int, datetime.date | None]]:
    """player id → (exact stored score, the day it changes) for every player of the scope with a day that
    may count on ``today``, a figure of 0 included; empty for a scheme without a ranking list.

    The database sums the days per player and period (:func:`_daily`, :func:`_periods_sql`); the engine
    weights the sums and finds the day the figure changes (:func:`figure_of_periods`), as
    :func:`~masterpoints.engine.dbf.ranglist.ranking_figure` does day by day."""
    rule = scheme_of(federation).ranking_list
    if rule is None:
        return {}
    daily_sql, daily_params = _daily(federation, rule, player_ids, today).query.sql_with_params()
    sql, period_params = _periods_sql(rule, today, daily_sql)
    periods = len(rule.weights)
    # The period bounds come first in the outer SELECT, then the clamp to today, then the inner query's.
    params = [*period_params, today, today, *daily_params]
    figures = {}
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for player_id, *values in cursor.fetchall():
            sums = [int(value or 0) for value in values[:periods]]
            oldest = [_as_date(value) for value in values[periods:]]
            figure = figure_of_periods(sums, oldest, rule)
            score = figure.hundredths * rule.denominator
            if score.denominator != 1:
                raise ValueError(f"the ranking figure {figure.hundredths} is not a whole 1/{rule.denominator}")
            figures[player_id] = (int(score), figure.changes_on)
    return figures


def ranking_list_rows(
    federation: Federation, player_ids: Sequence[int] | None, today: datetime.date
) -> dict[int, tuple[int, datetime.date | None]]:
    """player id → (exact stored score, the day it changes) for every player of the scope whose figure on
    ``today`` is not 0 (D-Q60): the rows of the list."""
    return _listed(_figures(federation, player_ids, today))


def _listed(figures: dict[int, tuple[int, datetime.date | None]]) -> dict[int, tuple[int, datetime.date | None]]:
    """The rows of the list: a figure of 0 has none (D-Q60)."""
    return {pk: row for pk, row in figures.items() if row[0]}


def ranking_list_stored(federation: Federation, player_ids: Sequence[int] | None) -> dict:
    """The stored rows of the scope (``None``: the whole federation): player id → (score, changes on)."""
    scope = RankingListEntry.objects.filter(federation=federation)
    if player_ids is not None:
        scope = scope.filter(player_id__in=list(player_ids))
    return {pk: (score, changes) for pk, score, changes in scope.values_list("player_id", "score", "changes_on")}


def ranking_list_store(federation: Federation, player_ids: Sequence[int] | None, fresh: dict) -> bool:
    """Make the stored rows of the scope ``fresh``; only rows that differ are written. Returns whether any
    was. The caller holds the scope's players' row locks (:mod:`masterpoints.standings.rowlocks`)."""
    stored = ranking_list_stored(federation, player_ids)
    stale = [pk for pk, row in stored.items() if fresh.get(pk) != row]
    new = [pk for pk, row in fresh.items() if stored.get(pk) != row]
    for start in range(0, len(stale), 5000):
        RankingListEntry.objects.filter(player_id__in=stale[start : start + 5000]).delete()
    RankingListEntry.objects.bulk_create(
        [
            RankingListEntry(player_id=pk, federation_id=federation.pk, score=fresh[pk][0], changes_on=fresh[pk][1])
            for pk in new
        ],
        batch_size=2000,
    )
    return bool(stale or new)


def ranking_list_refresh(
    federation: Federation, player_ids: Sequence[int] | None, *, today: datetime.date | None = None
) -> bool:
    """Make the stored ranking list of the scope (``None``: the whole federation) what the ledger gives on
    ``today`` (default: the local date); only rows that differ are written. Returns whether any was.
    The caller holds the scope's players' row locks (:mod:`masterpoints.standings.rowlocks`) and reads the
    ledger here, after taking them."""
    rows = ranking_list_rows(federation, player_ids, today or timezone.localdate())
    return ranking_list_store(federation, player_ids, rows)


def ranking_list_rebuild(federation: Federation, today: datetime.date) -> tuple[dict, datetime.date | None]:
    """The rows of the whole list on ``today`` (as :func:`ranking_list_rows`), for the full rebuild, which
    writes them in batches under the players' row locks, and the first day on which a figure of 0 today (a
    player with no row, so none the daily roll would see) changes, or ``None``. The rebuild and the daily
    roll recompute the list on it (D-Q59: a figure follows the days, also one that is 0 today)."""
    figures = _figures(federation, None, today)
    due = min((changes for score, changes in figures.values() if not score and changes), default=None)
    return _listed(figures), due


def ranking_list_due(federation: Federation, today: datetime.date) -> list[int]:
    """The players whose stored figure changes on or before ``today`` (D-Q59), by the ``changes_on`` index."""
    due = RankingListEntry.objects.filter(federation=federation, changes_on__lte=today)
    return sorted(due.values_list("player_id", flat=True))
