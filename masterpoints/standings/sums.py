"""The sums the standings are made of: season sums from the ledger, careers from the seasons, and the
standing rows with their titles or categories.

Every path (the incremental update and both rebuilds) computes its rows with these functions, so that
they all agree. Balances are integer units (1 BP, 0.1 SP, 0.01 GP, 1 HBS point), each kind of the rule book
in its column (``SchemeInfo.column``), the columns it has no kind for 0. Seasons follow the scheme's first
day (DBf § 451C: 16 May to 15 May; HBS the calendar year), ranking keys its order (DBf the MP total, § 402;
HBS category, then master, red and black points, H-2).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from itertools import groupby

from django.db import connection
from django.db.models import Case, Count, IntegerField, Max, Min, Q, Sum, Value, When
from django.db.models.functions import Cast, Coalesce, ExtractYear, TruncDate

from federation.models import AuditEvent, Federation, Player
from federation.schemes import KIND_COLUMNS, TOTAL_COLUMN, Ladder, SchemeInfo, scheme_of
from masterpoints.engine.hbs.rules import KEPT_ALL, KEPT_TRANSITION_RULE_4
from masterpoints.models import Award, SeasonStanding, Standing, TitleAchievement
from masterpoints.standings.ladders import LadderBook

# --- seasons --------------------------------------------------------------------------------------------


def _season_expression(info: SchemeInfo, first: datetime.date | None = None, last: datetime.date | None = None):
    """The season of ``awarded_on`` as a database expression: the same rule as ``info.season_of``
    (§ 451C for DBf, the calendar year for HBS).

    For the seasons from ``first`` to ``last`` a chain of date comparisons (cheap on millions of rows);
    any other date falls through to the exact month-and-day rule, so every date gets its right season.
    """
    month, day = info.season_start
    # PostgreSQL's EXTRACT gives numeric: an integer keeps the grouping and the comparisons cheap.
    year = Cast(ExtractYear("awarded_on"), IntegerField())
    exact = (
        year
        if (month, day) == (1, 1)
        else Case(
            When(Q(awarded_on__month__gt=month) | Q(awarded_on__month=month, awarded_on__day__gte=day), then=year),
            default=year - Value(1),
            output_field=IntegerField(),
        )
    )
    if first is None or last is None:
        return exact
    newest, oldest = info.season_of(last), info.season_of(first)
    chain = [When(awarded_on__gt=info.season_dates(newest)[1], then=exact)]
    chain += [
        When(awarded_on__gte=info.season_dates(season)[0], then=Value(season, IntegerField()))
        for season in range(newest, oldest - 1, -1)
    ]
    return Case(*chain, default=exact, output_field=IntegerField())


#: The season row of the history brought in (``Award.Source.OPENING``): opening balances and
#: historic awards count in the career's balances and titles but were never points won in a season.
OPENING_SEASON = 0


def _opening_or(season):
    """``season``, except for the history brought in, which is :data:`OPENING_SEASON` whatever its date."""
    return Case(
        When(source=Award.Source.OPENING, then=Value(OPENING_SEASON, IntegerField())),
        default=season,
        output_field=IntegerField(),
    )


# --- columns ----------------------------------------------------------------------------------------------

#: The balances of a row: each kind's column, then the total.
_BALANCE_COLUMNS = (*KIND_COLUMNS, TOTAL_COLUMN)
_STANDING_COLUMNS = (
    "player_id",
    "federation_id",
    *_BALANCE_COLUMNS,
    "sort_key",
    "last_award_on",
    "award_count",
    "computed_rung",
    "title_rung",
    "title",
    "stars",
    "title_reached_on",
)
_SEASON_COLUMNS = (
    "player_id",
    "federation_id",
    "season",
    *_BALANCE_COLUMNS,
    "sort_key",
    "last_award_on",
    "award_count",
)
#: The temporary table a full rebuild on PostgreSQL computes the season sums into (dropped at commit).
_FRESH = "standings_fresh"
#: Up to this many players' title days are read by a list of ids (:func:`_reached_days`); more, by one pass.
_DAYS_PART = 5000


def _balances(info: SchemeInfo, own: Sequence[int]) -> tuple[int, ...]:
    """The values of :data:`_BALANCE_COLUMNS` from the balances of the rule book's kinds, in its order: the
    columns it has no kind for 0; the total the sum of the kinds' units where it has one (DBf § 402)."""
    padding = (0,) * (len(KIND_COLUMNS) - len(own))
    return (*own, *padding, sum(own) if info.total else 0)


# --- season sums ------------------------------------------------------------------------------------------


def _season_sums(
    federation: Federation,
    player_ids: Sequence[int] | None,
    players: tuple[int | None, int | None] = (None, None),
    seasons: Sequence[int] | None = None,
) -> tuple[str, list]:
    """SQL of the season sums of the scope, in one GROUP BY over the ledger: ``player_id, season``, one
    column per point kind of the scheme (its column's name: ``kind1`` …), ``last_award_on`` and
    ``award_count``. The incremental update and both rebuild paths all start from this query.

    The scope is ``player_ids`` (``None``: everyone), narrowed to the player ids from ``players[0]``
    (inclusive) to ``players[1]`` (exclusive) where those are given (a part of the rebuild), and to the
    awards dated in ``seasons`` where those are given (the seasons a rebuild could not prove right)."""
    info = scheme_of(federation)
    awards = Award.objects.filter(federation=federation)
    bounds = awards.aggregate(first=Min("awarded_on"), last=Max("awarded_on"))  # two probes of the date index
    if player_ids is not None:
        awards = awards.filter(player_id__in=player_ids)
    awards = _between(awards, players)
    if seasons is not None:
        dated = Q(pk__in=[])
        for season in seasons:
            if season == OPENING_SEASON:
                dated |= Q(source=Award.Source.OPENING)
            else:
                dated |= Q(awarded_on__range=info.season_dates(season)) & ~Q(source=Award.Source.OPENING)
        awards = awards.filter(dated)
    sums = {info.column(kind): Coalesce(Sum("units", filter=Q(kind=kind)), 0) for kind in info.kinds}
    grouped = (
        awards.annotate(season=_opening_or(_season_expression(info, bounds["first"], bounds["last"])))
        .values("player_id", "season")
        .annotate(**sums, last_award_on=Max("awarded_on"), award_count=Count("*"))
        .order_by()
    )
    sql, params = grouped.query.sql_with_params()
    return sql, list(params)


def _between(queryset, players: tuple[int | None, int | None]):
    """``queryset`` narrowed to the player ids from ``players[0]`` (inclusive) to ``players[1]`` (exclusive);
    ``None`` leaves that side open."""
    low, high = players
    if low is not None:
        queryset = queryset.filter(player_id__gte=low)
    if high is not None:
        queryset = queryset.filter(player_id__lt=high)
    return queryset


def _season_row_sql(federation: Federation, source: str) -> str:
    """The columns of :data:`_SEASON_COLUMNS` projected from season sums in ``source`` (aliased ``agg``):
    the columns the scheme has no kind for 0; the total the sum of the kinds where the scheme has one (DBf's
    MP, § 402; else 0); ``sort_key`` the scheme's order over the season's sums (``season_key_sql``)."""
    info = scheme_of(federation)
    own = tuple(f"agg.{column}" for column in info.kind_columns)
    balances = [*own, *(f"0 AS {column}" for column in KIND_COLUMNS[len(own) :])]
    total = " + ".join(own) if info.total else "0"
    key = info.season_key_sql(own)
    return (
        f"SELECT agg.player_id, {int(federation.pk)} AS federation_id, agg.season, {', '.join(balances)}, "  # noqa: S608 - our own SQL
        f"{total} AS {TOTAL_COLUMN}, {key} AS sort_key, agg.last_award_on, agg.award_count FROM {source} agg"
    )


def _season_rows(federation: Federation, player_ids: Sequence[int] | None) -> None:
    """Replace the season rows of the scope with fresh sums from the ledger: one INSERT … SELECT."""
    scope = SeasonStanding.objects.filter(federation=federation)
    if player_ids is not None:
        scope = scope.filter(player_id__in=player_ids)
    scope.delete()
    sums, params = _season_sums(federation, player_ids)
    table = connection.ops.quote_name(SeasonStanding._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({', '.join(_SEASON_COLUMNS)}) {_season_row_sql(federation, f'({sums})')}", params
        )


# --- careers and standings --------------------------------------------------------------------------------


def _careers(table: str, federation: Federation, player_ids: Sequence[int] | None = None):
    """(player_id, balances, last award, awards) per player, summed over the season rows or season sums in
    ``table`` (the season table, or the rebuild's temporary one); the balances in the order of the
    scheme's kinds."""
    info = scheme_of(federation)
    own = info.kind_columns
    # A sum of bigints is numeric in PostgreSQL: cast back, so that no Decimal is made per value.
    sums = ", ".join(f"CAST(SUM({field}) AS BIGINT)" for field in [*own, "award_count"])
    sql = f"SELECT player_id, {sums}, MAX(last_award_on) FROM {table}"  # noqa: S608 - our own SQL
    params: list = []
    if table != _FRESH:
        sql += " WHERE federation_id = %s"
        params.append(federation.pk)
    if player_ids is not None:
        sql += f" AND player_id IN ({', '.join(['%s'] * len(player_ids))})"
        params += list(player_ids)
    with connection.cursor() as cursor:
        cursor.execute(sql + " GROUP BY player_id", params)
        rows = cursor.fetchall()
    width = len(own)
    # Raw SQL on SQLite returns dates as text.
    return [(row[0], tuple(row[1 : width + 1]), _as_date(row[width + 2]), row[width + 1]) for row in rows]


def _as_date(value) -> datetime.date | None:
    return datetime.date.fromisoformat(value) if isinstance(value, str) else value


def _register_rows(federation: Federation, player_ids: Sequence[int] | None) -> dict[int, list[tuple]]:
    """Every registered rung of each player of the scope: [(rung, title, stars, reached_on), …]."""
    table = connection.ops.quote_name(TitleAchievement._meta.db_table)
    sql = f"SELECT player_id, rung, title, stars, reached_on FROM {table} WHERE federation_id = %s"  # noqa: S608
    params: list = [federation.pk]
    if player_ids is not None:
        sql += f" AND player_id IN ({', '.join(['%s'] * len(player_ids))})"
        params += list(player_ids)
    register: dict[int, list[tuple[int, str, int, datetime.date]]] = {}
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for player_id, rung, title, stars, reached_on in cursor.fetchall():
            register.setdefault(player_id, []).append((rung, title, stars, _as_date(reached_on)))
    return register


def _follows_points(ladder: Ladder) -> bool:
    """Whether the ladder's rule set keeps only transition rule 4's categories (H-24: HBS), rather than every
    rung once registered (DBf § 404, whose rule set has no such setting)."""
    return getattr(ladder.rules, "categories_kept", KEPT_ALL) == KEPT_TRANSITION_RULE_4


#: The audit action of transition rule 4's import (``masterpoints.transition.services``), whose payload names
#: the categories it kept: ``"kept": [[number, category], …]``.
KEEP_CATEGORIES_ACTION = "transition.keep_categories"


def _kept_by_transition(federation: Federation, register: dict[int, list[tuple]]) -> dict[int, tuple]:
    """H-24: each player's highest registered rung that transition rule 4 kept (its audited import names the
    player's number and the category), from the players of ``register`` (rung rows by player)."""
    named: set[tuple[str, str]] = set()
    events = AuditEvent.objects.filter(
        action=KEEP_CATEGORIES_ACTION, target_type="federation.federation", target_id=str(federation.pk)
    )
    for payload in events.values_list("payload", flat=True):
        named.update((str(number), str(category)) for number, category in payload.get("kept", ()))
    if not named:
        return {}
    numbers = dict(Player.objects.filter(pk__in=list(register)).values_list("pk", "number"))
    kept: dict[int, tuple] = {}
    for player_id, rows in register.items():
        for row in rows:
            if (numbers.get(player_id), row[1]) in named and (player_id not in kept or row[0] > kept[player_id][0]):
                kept[player_id] = row
    return kept


def _shown_rung(rows: list[tuple], computed: int, ladder: Ladder) -> tuple | None:
    """H-24: the rung a player whose categories follow the points is shown at: the computed rung, dated by the
    register (its own row, else the lowest registered rung above it: the day the points first reached it)."""
    if not computed:
        return None
    dated = [row for row in rows if row[0] >= computed]
    if not dated:
        return None
    step = ladder.rung_of(computed)
    return (computed, step.title, step.stars, min(dated, key=lambda row: row[0])[3])


def _standing_rows(federation: Federation, player_ids: Sequence[int] | None, careers):
    """Standing rows (:data:`_STANDING_COLUMNS`) from the career sums, and the new achievements:
    (rows, achievements).

    The rung is judged by the ladder of the rule set valid on the player's latest award; the rung shown is
    the higher of the computed and the registered one, so no title is lost (§ 404); where the rule set keeps
    only transition rule 4's categories (HBS, H-24), the higher of the computed and the rung rule 4 kept. A
    computed rung above every registered one is a new achievement, reached on the day the registration made the balances
    reach it (§ 404A "efter registrering", D-Q21: :func:`_reached_days`)."""
    info = scheme_of(federation)
    rows_of = _register_rows(federation, player_ids)
    register = {player_id: max(rows) for player_id, rows in rows_of.items()}
    kept = None  # read once, when a rule set keeps only transition rule 4's categories (H-24)
    book = LadderBook(federation)
    ladders: dict[datetime.date | None, Ladder] = {}  # many players share the date of their latest award
    judged, rising = [], {}
    for player_id, balances, last, count in careers:
        ladder = ladders.get(last)
        if ladder is None:
            ladder = ladders[last] = book.on(last)
        computed = ladder.computed(balances)
        held = register.get(player_id)
        if held is not None and computed < held[0] and _follows_points(ladder):
            # H-24: below a registered rung the points give, only a rung transition rule 4 kept stays.
            if kept is None:
                kept = _kept_by_transition(federation, rows_of)
            candidates = [
                row for row in (kept.get(player_id), _shown_rung(rows_of[player_id], computed, ladder)) if row
            ]
            held = max(candidates, default=None)
        if computed and (player_id not in register or computed > register[player_id][0]):
            rising[player_id] = (computed, ladder.rung_of(computed))
        judged.append((player_id, balances, last, count, computed, held))
    reached = _reached_days(federation, {player_id: rung for player_id, (rung, _step) in rising.items()}, book)
    rows, achievements = [], []
    for player_id, balances, last, count, computed, held in judged:
        shown = held
        if player_id in rising:
            rung, step = rising[player_id]
            # The latest award, should an award written since the sums were read have changed the days.
            shown = (rung, step.title, step.stars, reached.get(player_id, last))
            achievements.append(
                TitleAchievement(
                    player_id=player_id,
                    federation_id=federation.pk,
                    rung=rung,
                    title=step.title,
                    stars=step.stars,
                    reached_on=shown[3],
                )
            )
        rung, title, stars, reached_on = shown or (0, "", 0, None)
        key = info.sort_key(balances, rung)
        judged_row = (key, last, count, computed, rung, title, stars, reached_on)
        rows.append((player_id, federation.pk, *_balances(info, balances), *judged_row))
    return rows, achievements


def _reached_days(federation: Federation, rungs: dict[int, int], book: LadderBook) -> dict[int, datetime.date]:
    """For each player in ``rungs`` (player id → the rung just reached), the day it was reached: the first
    registration day whose balances reach it (D-Q21, :meth:`LadderBook.first_day_reaching`).

    § 404A "opnår en mestertitel efter registrering": the day an entry is registered is the day it was
    written to the ledger (``created_at``, in the site's time zone), not the tournament's date: results
    uploaded on 3 February for a tournament of 10 January make a title of 3 February. A reversal or a
    correction counts on the day it was registered, so the days only ever grow and the rebuild finds the day
    the incremental update recorded. One GROUP BY (player, day) over the players whose rung rises, which
    after the first build are the few who just reached a title."""
    if not rungs:
        return {}
    info = scheme_of(federation)
    awards = Award.objects.filter(federation=federation)
    if len(rungs) <= _DAYS_PART:
        awards = awards.filter(player_id__in=list(rungs))
    # Else (a first build) one pass over the federation's ledger, without a list of ids.
    daily = (
        awards.annotate(registered=TruncDate("created_at"))
        .values("player_id", "registered")
        .annotate(**{info.column(kind): Coalesce(Sum("units", filter=Q(kind=kind)), 0) for kind in info.kinds})
        .order_by("player_id", "registered")
    )
    reached: dict[int, datetime.date] = {}
    for player_id, days in groupby(daily.iterator(), key=lambda row: row["player_id"]):
        if player_id in rungs:
            day = book.first_day_reaching(_running(days, info.kind_columns), rungs[player_id])
            if day is not None:
                reached[player_id] = day
    return reached


def _running(days, columns: Sequence[str]):
    """(registration day, balances after that day) from one player's rows of daily sums (the kinds' sums
    in ``columns``) in date order."""
    totals = [0] * len(columns)
    for row in days:
        totals = [total + row[column] for total, column in zip(totals, columns, strict=True)]
        yield row["registered"], tuple(totals)


def _stored_standings(federation: Federation) -> dict[int, tuple]:
    """The federation's stored standings as rows of :data:`_STANDING_COLUMNS` (the rows the rebuilds
    compute), by player: what a rebuild compares its rows with."""
    stored = Standing.objects.filter(federation=federation).order_by().values_list(*_STANDING_COLUMNS)
    return {row[0]: row for row in stored}


def _write(model, columns: Sequence[str], rows: list[tuple]) -> None:
    """Insert many rows: PostgreSQL's COPY for large sets, ``bulk_create`` otherwise."""
    if not rows:
        return
    if connection.vendor == "postgresql" and len(rows) > 500:
        table = connection.ops.quote_name(model._meta.db_table)
        names = ", ".join(connection.ops.quote_name(c) for c in columns)
        with connection.cursor() as cursor, cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        return
    model.objects.bulk_create([model(**dict(zip(columns, row, strict=True))) for row in rows], batch_size=2000)
