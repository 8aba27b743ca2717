"""Standings: every player's balances, title or category and season figures, derived from the award ledger.

Writes only (reads are in ``masterpoints.selectors``). Two entry points share one code path, so a full
rebuild gives exactly what the incremental updates gave (tested):

- :func:`standings_refresh_players` (and :func:`standings_refresh_tournament`): after an upload or a
  correction, recompute the affected players' rows from the ledger;
- :func:`standings_rebuild`: recompute every row of a federation from the ledger (nightly, on demand).

Both replace the derived rows of their scope inside one transaction that first locks the federation row
(``FOR NO KEY UPDATE``: award inserts are not blocked), so two updates never interleave and none is lost;
each reads the ledger after taking the lock and therefore sees every award committed before it.

Titles and categories once registered are never lost (DBf § 404, HBS H-2 with transition rule 4): the
:class:`~masterpoints.models.TitleAchievement` register is append-only and is not derived data; a standing
shows the higher of the computed and the held rung. A new row is written when the computed rung rises
above every held rung, with ``reached_on`` = the date of the player's latest award at that moment.
"""

from __future__ import annotations

import bisect
import concurrent.futures
import datetime
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from django.db import OperationalError, connection, transaction
from django.db.models import Case, Count, F, IntegerField, Max, Min, Q, Sum, Value, When
from django.db.models.functions import Cast, Coalesce, ExtractYear
from django.utils import timezone

from federation.models import Federation, Player
from federation.rulesets import rules_for
from federation.services import audit_record
from masterpoints.engine.dbf import rules as dbf_rules
from masterpoints.engine.dbf.titles import Balance, holds
from masterpoints.engine.hbs import rules as hbs_rules
from masterpoints.models import Award, SeasonStanding, Standing, StandingsVersion, TitleAchievement
from tournaments.models import Tournament

logger = logging.getLogger(__name__)

# --- seasons --------------------------------------------------------------------------------------------

#: (month, day) a points season starts: DBf on 16 May, running to 15 May (§ 451C); HBS the calendar year.
SEASON_START: dict[str, tuple[int, int]] = {"dbf": (5, 16), "hbs": (1, 1)}
#: Point kinds per scheme, in the order the pages show them.
SCHEME_KINDS: dict[str, tuple[str, ...]] = {"dbf": ("BP", "SP", "GP"), "hbs": ("black", "red", "master")}


def season_of(scheme: str, day: datetime.date) -> int:
    """The season ``day`` falls in, named by the year it starts in (§ 451C for DBf; HBS calendar year)."""
    month, first = SEASON_START[scheme]
    return day.year if (day.month, day.day) >= (month, first) else day.year - 1


def season_dates(scheme: str, season: int) -> tuple[datetime.date, datetime.date]:
    """First and last day of ``season`` (both inclusive)."""
    month, first = SEASON_START[scheme]
    start = datetime.date(season, month, first)
    end = datetime.date(season + 1, month, first) - datetime.timedelta(days=1)
    return start, end


def season_label(scheme: str, season: int) -> str:
    """``2024/25`` for a season across the new year (DBf), ``2024`` for a calendar year (HBS)."""
    return str(season) if SEASON_START[scheme] == (1, 1) else f"{season}/{(season + 1) % 100:02d}"


def _season_expression(scheme: str, first: datetime.date | None = None, last: datetime.date | None = None):
    """The season of ``awarded_on`` as a database expression: the same rule as :func:`season_of`.

    For the seasons from ``first`` to ``last`` a chain of date comparisons (cheap on millions of rows);
    any other date falls through to the exact month-and-day rule, so every date gets its right season.
    """
    month, day = SEASON_START[scheme]
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
    newest, oldest = season_of(scheme, last), season_of(scheme, first)
    chain = [When(awarded_on__gt=season_dates(scheme, newest)[1], then=exact)]
    chain += [
        When(awarded_on__gte=season_dates(scheme, season)[0], then=Value(season, IntegerField()))
        for season in range(newest, oldest - 1, -1)
    ]
    return Case(*chain, default=exact, output_field=IntegerField())


# --- ranking keys ---------------------------------------------------------------------------------------

#: Each HBS balance takes 19 bits of the packed key (up to 524,287 points; more is clamped for the order).
_HBS_BITS = 19
_HBS_MAX = (1 << _HBS_BITS) - 1


def _clamp(value: int) -> int:
    return 0 if value < 0 else min(value, _HBS_MAX)


def hbs_sort_key(rung: int, master: int, red: int, black: int) -> int:
    """The HBS order as one integer: by category rung, then master, red and black points."""
    return (rung << (3 * _HBS_BITS)) | (_clamp(master) << (2 * _HBS_BITS)) | (_clamp(red) << _HBS_BITS) | _clamp(black)


def _hbs_season_key_sql(alias: str) -> str:
    """SQL of :func:`hbs_sort_key` without a rung (season figures have no category), over ``alias``."""

    def clamp(column: str) -> str:
        col = f"{alias}.{column}"
        return f"(CASE WHEN {col} < 0 THEN 0 WHEN {col} > {_HBS_MAX} THEN {_HBS_MAX} ELSE {col} END)"

    return f"({clamp('master')} * {1 << (2 * _HBS_BITS)} + {clamp('red')} * {1 << _HBS_BITS} + {clamp('black')})"


# --- the ladders: titles (DBf § 404) and categories (HBS H-2) --------------------------------------------


@dataclass(frozen=True)
class Rung:
    """One step of a federation's ladder: ``rung`` 1 is the lowest; ``title`` the title or category name."""

    rung: int
    title: str
    stars: int = 0


class Ladder:
    """The ladder of one rule set, with the rung a player's balances reach.

    DBf: the highest § 404A title whose condition holds, evaluated in whole hundredths of MP (see
    :func:`_dbf_checks`); a property test pins it to the engine's ``title_rank``. HBS: the highest row of
    the category table whose every minimum is met (H-2), the engine's ``category_minimums`` table.
    """

    def __init__(self, scheme: str, rules) -> None:
        self.scheme = scheme
        self.rules = rules
        if scheme == "dbf":
            self.rungs = tuple(Rung(i, r.title, r.stars) for i, r in enumerate(rules.titles, start=1))
            self._checks = [_dbf_check(rung, rules) for rung in rules.titles]
            floors = [floor for floor, _check in self._checks]
            # Rungs with a floor above T can never hold (§ 404C3): the search starts at the highest rung whose
            # floor T reaches (when floors rise up the ladder, as in every rule set; else at the top).
            self._floors = floors if floors == sorted(floors) else None
        else:
            self._table = rules.category_minimums()
            self.rungs = tuple(Rung(i, row[0]) for i, row in enumerate(self._table, start=1))

    def rung_of(self, number: int) -> Rung | None:
        return self.rungs[number - 1] if 1 <= number <= len(self.rungs) else None

    def computed(self, balances: Sequence[int]) -> int:
        """The rung (0 = none) of ``balances`` = (bp, sp, gp) or (black, red, master); negatives count as 0."""
        a, b, c = balances
        a, b, c = max(a, 0), max(b, 0), max(c, 0)
        if self.scheme == "dbf":
            total = a + b + c
            # The title is the highest rung whose condition holds (§ 404A): try from the top. Every rung needs
            # T ≥ its total (§ 404C3), a cheap test that spares most players the revaluation checks.
            top = len(self._checks) if self._floors is None else bisect.bisect_right(self._floors, total)
            for index in range(top - 1, -1, -1):
                floor, check = self._checks[index]
                if floor <= total and check(a, b, c):
                    return index + 1
            return 0
        found = 0
        for index, (_name, black, red, master) in enumerate(self._table, start=1):
            if a >= black and b >= red and c >= master:
                found = index
        return found


def _units(value: Fraction) -> int | None:
    """MP as whole hundredths, or ``None`` when the amount is not a whole number of hundredths."""
    scaled = Fraction(value) * 100
    return scaled.numerator if scaled.denominator == 1 else None


def _dbf_check(rung, rules):
    """(least total in hundredths of MP, check(bp, sp, gp)) of one § 404A rung, in integer arithmetic.

    Units: bp whole BP, sp tenths of SP, gp hundredths of GP, so each unit is 0.01 MP (§ 402) and
    T = bp + sp + gp. SGcheck and Gcheck (§ 404B–C) multiplied out so no fraction remains; a rung whose
    amounts are not whole hundredths of MP falls back to the engine's own ``holds``.
    """
    x, m = _units(rung.total), _units(rung.minimum)
    alt = None if rung.alternative_total is None else _units(rung.alternative_total)
    a, b = rules.bp_per_sp, rules.sp_per_gp
    whole = (
        x is not None
        and m is not None
        and (rung.alternative_total is None or alt is not None)
        and isinstance(a, int)
        and isinstance(b, int)
    )
    if not whole:
        floor = int(Fraction(rung.total) * 100)
        return floor, lambda bp, sp, gp: holds(rung, Balance(bp, sp, gp), rules)
    if rung.basis == "total":
        return x, lambda bp, sp, gp: bp + sp + gp >= x
    if rung.basis == "bp_only":
        if rules.kun_bp_literal:
            return x, lambda bp, sp, gp: bp >= x  # D-Q11: only BP count
        return x, lambda bp, sp, gp: bp + sp + gp >= x
    if rung.basis == "sp_gp_or_total":
        return x, lambda bp, sp, gp: bp + sp + gp >= x and (sp + gp >= m or (alt is not None and bp + sp + gp >= alt))
    if rung.basis == "sp_gp":

        def sg_check(bp: int, sp: int, gp: int) -> bool:
            need = max(0, m - (sp + gp))  # MP missing in SP+GP, in hundredths
            # BP used = need/10 SP × a; loss = need × (a − 10)/10 hundredths of MP.
            return need * a <= 10 * bp and 10 * (bp + sp + gp) - need * (a - 10) >= 10 * x

        return x, sg_check
    if rung.basis == "gp":

        def g_check(bp: int, sp: int, gp: int) -> bool:
            g_need = max(0, m - gp)  # GP missing, in hundredths
            short = max(0, g_need * b - 10 * sp)  # SP missing for that, in hundredths of SP
            # BP used = short/100 × a; losses: g_need × (b − 10)/10 and short × (a − 10)/100 hundredths of MP.
            return short * a <= 100 * bp and 100 * (bp + sp + gp) - 10 * g_need * (b - 10) - short * (a - 10) >= 100 * x

        return x, g_check
    raise ValueError(f"unknown title basis {rung.basis!r}")


_BUILT_IN = {"dbf": dbf_rules.DEFAULT_RULE_SETS, "hbs": (hbs_rules.HBS_DRAFT,)}


class LadderBook:
    """The ladder in force on any date for one federation, resolved once per rule-set period.

    A player's title is judged by the rule set valid on the date of their latest award: fixed by the
    ledger, so every recomputation agrees. History older than the first rule set is judged by the first.
    """

    def __init__(self, federation: Federation) -> None:
        self.federation = federation
        starts = {s.valid_from for s in _BUILT_IN[federation.scheme]}
        starts |= set(federation.rule_sets.values_list("valid_from", flat=True))
        self._starts = sorted(starts)
        self._ladders: dict[datetime.date, Ladder] = {}

    def on(self, day: datetime.date | None) -> Ladder:
        index = bisect.bisect_right(self._starts, day) - 1 if day is not None else -1
        start = self._starts[max(index, 0)]
        if start not in self._ladders:
            self._ladders[start] = Ladder(self.federation.scheme, rules_for(self.federation, start))
        return self._ladders[start]


# --- the recomputation ------------------------------------------------------------------------------------

_BALANCE_FIELDS = ("bp", "sp", "gp", "black", "red", "master")
_STANDING_COLUMNS = (
    "player_id",
    "federation_id",
    "bp",
    "sp",
    "gp",
    "mp",
    "black",
    "red",
    "master",
    "sort_key",
    "last_award_on",
    "award_count",
    "computed_rung",
    "title_rung",
    "title",
    "stars",
    "title_reached_on",
)


def _lock(federation: Federation) -> None:
    """Serialise every standings write of one federation (award inserts only take KEY SHARE: not blocked)."""
    list(Federation.objects.select_for_update(no_key=True).filter(pk=federation.pk).values_list("pk"))


_SEASON_COLUMNS = (
    "player_id",
    "federation_id",
    "season",
    "bp",
    "sp",
    "gp",
    "mp",
    "black",
    "red",
    "master",
    "sort_key",
    "last_award_on",
    "award_count",
)
#: The temporary table a full rebuild on PostgreSQL computes the season sums into (dropped at commit).
_FRESH = "standings_fresh"


def _season_sums(
    federation: Federation, player_ids: Sequence[int] | None, players: tuple[int | None, int | None] = (None, None)
) -> tuple[str, list]:
    """SQL of the season sums of the scope, in one GROUP BY over the ledger: ``player_id, season``, one
    column per point kind of the scheme (``bp, sp, gp`` or ``black, red, master``), ``last_award_on`` and
    ``award_count``. The incremental update and both rebuild paths all start from this query.

    The scope is ``player_ids`` (``None``: everyone), narrowed to the player ids from ``players[0]``
    (inclusive) to ``players[1]`` (exclusive) where those are given (a part of the rebuild)."""
    awards = Award.objects.filter(federation=federation)
    bounds = awards.aggregate(first=Min("awarded_on"), last=Max("awarded_on"))  # two probes of the date index
    if player_ids is not None:
        awards = awards.filter(player_id__in=player_ids)
    awards = _between(awards, players)
    sums = {kind.lower(): Coalesce(Sum("units", filter=Q(kind=kind)), 0) for kind in SCHEME_KINDS[federation.scheme]}
    grouped = (
        awards.annotate(season=_season_expression(federation.scheme, bounds["first"], bounds["last"]))
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
    """The columns of :data:`_SEASON_COLUMNS` projected from season sums in ``source`` (aliased ``agg``)."""
    own = {kind.lower() for kind in SCHEME_KINDS[federation.scheme]}
    balances = [f"agg.{field}" if field in own else f"0 AS {field}" for field in _BALANCE_FIELDS]
    bp, sp, gp, black, red, master = balances
    mp = "agg.bp + agg.sp + agg.gp" if federation.scheme == "dbf" else "0"
    key = mp if federation.scheme == "dbf" else _hbs_season_key_sql("agg")
    return (
        f"SELECT agg.player_id, {int(federation.pk)} AS federation_id, agg.season, {bp}, {sp}, {gp}, {mp} AS mp, "  # noqa: S608 - our own SQL
        f"{black}, {red}, {master}, {key} AS sort_key, agg.last_award_on, agg.award_count FROM {source} agg"
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


def _careers(table: str, federation: Federation, player_ids: Sequence[int] | None = None):
    """(player_id, bp, sp, gp, black, red, master, last award, awards) per player, summed over the season
    rows or season sums in ``table`` (the season table, or the rebuild's temporary one)."""
    own = [kind.lower() for kind in SCHEME_KINDS[federation.scheme]]
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
    dbf = federation.scheme == "dbf"
    careers = []
    for player_id, a, b, c, count, last in rows:
        balances = (a, b, c, 0, 0, 0) if dbf else (0, 0, 0, a, b, c)
        # Raw SQL on SQLite returns dates as text.
        careers.append((player_id, *balances, _as_date(last), count))
    return careers


def _as_date(value) -> datetime.date | None:
    return datetime.date.fromisoformat(value) if isinstance(value, str) else value


def _standing_rows(federation: Federation, player_ids: Sequence[int] | None, careers):
    """Standing rows with titles from the career sums, and the new achievements: (rows, achievements)."""
    table = connection.ops.quote_name(TitleAchievement._meta.db_table)
    sql = f"SELECT player_id, rung, title, stars, reached_on FROM {table} WHERE federation_id = %s"  # noqa: S608
    params: list = [federation.pk]
    if player_ids is not None:
        sql += f" AND player_id IN ({', '.join(['%s'] * len(player_ids))})"
        params += list(player_ids)
    register: dict[int, tuple[int, str, int, datetime.date]] = {}
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for player_id, rung, title, stars, reached_on in cursor.fetchall():
            if player_id not in register or rung > register[player_id][0]:
                register[player_id] = (rung, title, stars, _as_date(reached_on))
    book = LadderBook(federation)
    ladders: dict[datetime.date | None, Ladder] = {}  # many players share the date of their latest award
    dbf = federation.scheme == "dbf"
    rows, achievements = [], []
    for player_id, bp, sp, gp, black, red, master, last, count in careers:
        ladder = ladders.get(last)
        if ladder is None:
            ladder = ladders[last] = book.on(last)
        computed = ladder.computed((bp, sp, gp) if dbf else (black, red, master))
        shown = register.get(player_id)
        if computed and (shown is None or computed > shown[0]):
            step = ladder.rung_of(computed)
            shown = (computed, step.title, step.stars, last)
            achievements.append(
                TitleAchievement(
                    player_id=player_id,
                    federation_id=federation.pk,
                    rung=computed,
                    title=step.title,
                    stars=step.stars,
                    reached_on=last,
                )
            )
        rung, title, stars, reached_on = shown or (0, "", 0, None)
        mp = bp + sp + gp
        key = mp if dbf else hbs_sort_key(rung, master, red, black)
        balances = (bp, sp, gp, mp, black, red, master)
        rows.append((player_id, federation.pk, *balances, key, last, count, computed, rung, title, stars, reached_on))
    return rows, achievements


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


def _bump(federation: Federation) -> None:
    """Raise the federation's standings version (cached pages key on it); called under the lock."""
    if not StandingsVersion.objects.filter(federation=federation).update(
        version=F("version") + 1, changed_at=timezone.now()
    ):
        StandingsVersion.objects.create(federation=federation, version=1)


def _recompute(federation: Federation, player_ids: Sequence[int] | None, *, apart: bool = False) -> int:
    """Replace the standings of ``player_ids`` (``None``: the whole federation) from the ledger.

    ``apart``: a full rebuild may read half of the ledger on a second connection (see
    :func:`_rebuild_postgresql`)."""
    _lock(federation)
    if player_ids is None and connection.vendor == "postgresql":
        written, changed = _rebuild_postgresql(federation, apart=apart)
        if changed:
            _bump(federation)
        return written
    _season_rows(federation, player_ids)
    table = connection.ops.quote_name(SeasonStanding._meta.db_table)
    rows, achievements = _standing_rows(federation, player_ids, _careers(table, federation, player_ids))
    scope = Standing.objects.filter(federation=federation)
    if player_ids is not None:
        scope = scope.filter(player_id__in=player_ids)
    scope.delete()
    _write(Standing, _STANDING_COLUMNS, rows)
    # The register is append-only; ON CONFLICT DO NOTHING keeps a rung recorded once.
    TitleAchievement.objects.bulk_create(achievements, ignore_conflicts=True, batch_size=2000)
    _bump(federation)
    return len(rows)


_DIFF = "standings_season_diff"
#: Players recomputed per part by :func:`standings_refresh_players`.
_PART = 5000
#: A federation with at least this many players is rebuilt in two halves at once (PostgreSQL, see
#: :func:`_rebuild_postgresql`); below it, the second connection costs more than it saves.
SPLIT_PLAYERS = 20_000


def _nothing_written() -> bool:
    """True when the current PostgreSQL transaction has written nothing yet (it has no transaction id), so
    that another connection reads the same ledger as this one."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_current_xact_id_if_assigned() IS NULL")
        return cursor.fetchone()[0]


def _halfway(federation: Federation) -> int | None:
    """The median player id of a federation of at least :data:`SPLIT_PLAYERS` players (``None`` below)."""
    players = Player.objects.filter(federation=federation).order_by("pk").values_list("pk", flat=True)
    count = players.count()
    return players[count // 2] if count >= SPLIT_PLAYERS else None


def _rebuild_part(federation: Federation, players: tuple[int | None, int | None]):
    """The season sums of the players with ids in ``players`` (from, below; ``None``: open) into the
    temporary table :data:`_FRESH`, and their differences from the stored season rows into :data:`_DIFF`,
    on this thread's connection, in its transaction. Returns their career sums (see :func:`_careers`)."""
    sums, params = _season_sums(federation, None, players)
    values = _SEASON_COLUMNS[3:]
    differs = " OR ".join(f"s.{c} IS DISTINCT FROM f.{c}" for c in values)
    stored_rows = _between(SeasonStanding.objects.filter(federation=federation).order_by(), players)
    stored, stored_params = stored_rows.query.sql_with_params()
    part = players != (None, None)
    with connection.cursor() as cursor:
        # A million groups stay in memory instead of spilling to disk; compiling these one-pass queries to
        # machine code costs more than it saves; a nested loop over a million index probes loses to one
        # hash join; parallel partial sums of a million groups, merged again, cost more than one pass.
        # For half of the players, the whole ledger is read in one pass: a bitmap of half the awards
        # touches every page too, and in a worse order. This transaction only.
        cursor.execute("SET LOCAL work_mem = '256MB'")
        cursor.execute("SET LOCAL jit = off")
        cursor.execute("SET LOCAL enable_nestloop = off")
        cursor.execute("SET LOCAL max_parallel_workers_per_gather = 0")
        cursor.execute(f"SET LOCAL enable_bitmapscan = {'off' if part else 'on'}")
        cursor.execute(f"DROP TABLE IF EXISTS {_FRESH}, {_DIFF}")
        cursor.execute(f"CREATE TEMPORARY TABLE {_FRESH} ON COMMIT DROP AS {sums}", params)
        cursor.execute("SET LOCAL enable_bitmapscan = on")
        cursor.execute(
            f"CREATE TEMPORARY TABLE {_DIFF} ON COMMIT DROP AS SELECT s.id AS stored, f.* "  # noqa: S608 - our SQL
            f"FROM ({_season_row_sql(federation, _FRESH)}) f "
            f"FULL JOIN ({stored}) s "
            f"ON s.player_id = f.player_id AND s.season = f.season "
            f"WHERE s.id IS NULL OR f.player_id IS NULL OR {differs}",
            list(stored_params),
        )
    return _careers(_FRESH, federation)


def _rebuild_part_apart(federation: Federation, players: tuple[int | None, int | None]):
    """:func:`_rebuild_part` in a thread of its own, on that thread's own connection (closed after). Returns
    the career sums and the differences, the latter as the blocks of a binary COPY of :data:`_DIFF`."""
    try:
        with transaction.atomic():
            careers = _rebuild_part(federation, players)
            with connection.cursor() as cursor, cursor.copy(f"COPY {_DIFF} TO STDOUT (FORMAT BINARY)") as copy:
                blocks = [bytes(block) for block in copy]
        return careers, blocks
    finally:
        connection.close()


def _rebuild_postgresql(federation: Federation, *, apart: bool = False) -> tuple[int, bool]:
    """The full rebuild on PostgreSQL: the same sums and titles as :func:`_recompute`, but rows that are
    already right are left alone, so a nightly rebuild of a consistent database writes (almost) nothing.

    1. One GROUP BY over the ledger into a temporary table, and one hash full join of those sums with the
       stored season rows, which gives the rows to delete, update and insert (:func:`_rebuild_part`).
       With ``apart`` (nothing written yet in this transaction) and a large federation, the players are cut
       in two halves by id, and the second half is summed and compared on a second connection at the same
       time, as a second process on the database server; its differences come back by binary COPY (when no
       second connection can be opened, this one reads the whole ledger after all). Every
       player's figures come from one read of the ledger either way; an award committed meanwhile is
       counted by its own upload's update, which waits for this one's lock.
    2. Only the differing season rows are written.
    3. Career sums from the temporary tables; titles in Python; only changed standings are rewritten.
    """
    halfway = _halfway(federation) if apart else None
    other = None
    if halfway is not None:
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
            future = pool.submit(_rebuild_part_apart, federation, (halfway, None))
            careers = _rebuild_part(federation, (None, halfway))
            try:
                other = future.result()
            except OperationalError as error:
                # No second connection to be had (the server's or a pool's limit): one pass on this one.
                logger.warning("standings rebuild of %s in one pass: no second connection (%s)", federation, error)
    if other is None:
        careers = _rebuild_part(federation, (None, None))
    else:
        other_careers, blocks = other
        careers += other_careers
        with connection.cursor() as cursor, cursor.copy(f"COPY {_DIFF} FROM STDIN (FORMAT BINARY)") as copy:
            for block in blocks:
                copy.write(block)
    seasons = connection.ops.quote_name(SeasonStanding._meta.db_table)
    values = _SEASON_COLUMNS[3:]
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {seasons} WHERE id IN (SELECT stored FROM {_DIFF} WHERE player_id IS NULL)")  # noqa: S608
        updates = ", ".join(f"{c} = d.{c}" for c in values)
        cursor.execute(
            f"UPDATE {seasons} s SET {updates} FROM {_DIFF} d WHERE s.id = d.stored AND d.player_id IS NOT NULL"  # noqa: S608
        )
        columns = ", ".join(_SEASON_COLUMNS)
        cursor.execute(
            f"INSERT INTO {seasons} ({columns}) SELECT {columns} FROM {_DIFF} WHERE stored IS NULL"  # noqa: S608
        )
        cursor.execute(f"SELECT EXISTS (SELECT 1 FROM {_DIFF})")  # noqa: S608
        seasons_changed = cursor.fetchone()[0]
    rows, achievements = _standing_rows(federation, None, careers)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {', '.join(_STANDING_COLUMNS)} FROM {connection.ops.quote_name(Standing._meta.db_table)} "  # noqa: S608
            "WHERE federation_id = %s",
            [federation.pk],
        )
        stored = {row[0]: row for row in cursor.fetchall()}
    changed = [row for row in rows if stored.get(row[0]) != row]
    gone = set(stored) - {row[0] for row in rows}
    stale = [row[0] for row in changed if row[0] in stored] + sorted(gone)
    for start in range(0, len(stale), 10000):
        Standing.objects.filter(player_id__in=stale[start : start + 10000]).delete()
    _write(Standing, _STANDING_COLUMNS, changed)
    TitleAchievement.objects.bulk_create(achievements, ignore_conflicts=True, batch_size=2000)
    return len(rows), bool(seasons_changed or stale or changed or achievements)


# --- services ---------------------------------------------------------------------------------------------


@transaction.atomic
def standings_refresh_players(*, federation: Federation, player_ids: Iterable[int]) -> int:
    """Recompute the standings of these players of ``federation`` from the ledger (idempotent).

    Returns how many standings were written. Ranks are not stored, so nobody else's row changes.
    """
    ids = sorted(set(player_ids))
    # In parts, so that no query carries more parameters than the database takes (the lock is held).
    return sum(_recompute(federation, ids[start : start + _PART]) for start in range(0, len(ids), _PART))


def standings_refresh_tournament(*, tournament_id: int) -> int:
    """Recompute the standings of everyone with an award from the tournament or the one it replaced.

    A re-upload posts its reversals on the earlier version, so both tournaments' players are affected.
    """
    tournament = Tournament.objects.select_related("federation").filter(pk=tournament_id).first()
    if tournament is None:
        return 0
    ids = set(Award.objects.filter(tournament_id=tournament.pk).values_list("player_id", flat=True))
    if tournament.supersedes_id:
        ids |= set(Award.objects.filter(tournament_id=tournament.supersedes_id).values_list("player_id", flat=True))
    return standings_refresh_players(federation=tournament.federation, player_ids=ids)


@transaction.atomic
def standings_rebuild(*, actor=None, federation: Federation | None = None) -> dict[str, int]:
    """Recompute every standing and season figure from the ledger (for one or every federation).

    Gives exactly what the incremental updates gave. The title register is kept (titles are never lost);
    missing achievements are added. Audited as ``standings.rebuild``.
    """
    # Another connection may read for this one only while this transaction has written nothing of its own
    # (it would not see uncommitted awards). The rebuild itself writes no awards, and writes a federation's
    # stored rows only after the other connection has read them.
    apart = connection.vendor == "postgresql" and _nothing_written()
    federations = [federation] if federation is not None else list(Federation.objects.order_by("pk"))
    written = {}
    for fed in federations:
        written[fed.code] = _recompute(fed, None, apart=apart)
        audit_record(actor=actor, action="standings.rebuild", target=fed, payload={"standings": written[fed.code]})
    return written


@transaction.atomic
def player_hide_name_set(*, actor, player: Player, hide_name: bool) -> Player:
    """A player hides their name on the public lists (the number is shown instead), or shows it again."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.hide_name != hide_name:
        player.hide_name = hide_name
        player.save(update_fields=["hide_name"])
        audit_record(actor=actor, action="player.hide_name", target=player, payload={"hide_name": hide_name})
        _bump(player.federation)  # cached lists show the change at once
    return player
