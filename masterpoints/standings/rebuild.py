"""The full rebuild on PostgreSQL: the same sums and titles as the incremental update, but rows that are
already right are left alone, so a nightly rebuild of a consistent database writes (almost) nothing.

A large federation is summed in two halves of its players at once, the second on a second connection
(:func:`_rebuild_postgresql`). No lock on the federation: the rows are written in batches under the players'
row locks (:mod:`masterpoints.standings.rowlocks`).
"""

from __future__ import annotations

import concurrent.futures
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import OperationalError, connection, transaction
from django.utils import timezone

from federation.models import Federation, Player
from masterpoints.models import SeasonStanding, Standing, TitleAchievement
from masterpoints.standings import proof
from masterpoints.standings.ranking_list import (
    ranking_list_due,
    ranking_list_rebuild,
    ranking_list_store,
    ranking_list_stored,
)
from masterpoints.standings.rowlocks import (
    drop_blanks,
    forget_versions,
    lock_players,
    remember_versions,
    untouched,
    upsert_standings,
)
from masterpoints.standings.sums import (
    _FRESH,
    _SEASON_COLUMNS,
    _STANDING_COLUMNS,
    _between,
    _careers,
    _season_row_sql,
    _season_sums,
    _standing_rows,
    _stored_standings,
)

logger = logging.getLogger(__name__)

_DIFF = "standings_season_diff"
#: A federation with at least this many players is rebuilt in two halves at once (see
#: :func:`_rebuild_postgresql`); below it, the second connection costs more than it saves.
SPLIT_PLAYERS = 20_000
#: Players written per transaction by the rebuild (:func:`_write_batch`): an update waits at most for one.
BATCH = 2000


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


def _rebuild_part(federation: Federation, players: tuple[int | None, int | None], seasons: Sequence[int] | None = None):
    """The season sums of the players with ids in ``players`` (from, below; ``None``: open) into the
    temporary table ``_FRESH``, and their differences from the stored season rows into :data:`_DIFF`,
    on this thread's connection, in its transaction; only of ``seasons`` where those are given. Returns
    their career sums (see ``_careers``), or ``None`` for some seasons only."""
    sums, params = _season_sums(federation, None, players, seasons)
    values = _SEASON_COLUMNS[3:]
    differs = " OR ".join(f"s.{c} IS DISTINCT FROM f.{c}" for c in values)
    stored_rows = _between(SeasonStanding.objects.filter(federation=federation).order_by(), players)
    if seasons is not None:
        stored_rows = stored_rows.filter(season__in=list(seasons))
    stored, stored_params = stored_rows.query.sql_with_params()
    halves = players != (None, None)
    with connection.cursor() as cursor:
        # A million groups stay in memory instead of spilling to disk; compiling these one-pass queries to
        # machine code costs more than it saves; a nested loop over a million index probes loses to one
        # hash join; parallel partial sums of a million groups, merged again, cost more than one pass.
        # For half of the players, the whole ledger is read in one pass: a bitmap of half the awards
        # touches every page too, and in a worse order (a few seasons are read by their dates' index).
        # Until the end of this step: the ranking list's query after it runs best as the server plans it.
        cursor.execute("SET LOCAL work_mem = '256MB'")
        cursor.execute("SET LOCAL jit = off")
        cursor.execute("SET LOCAL enable_nestloop = off")
        cursor.execute("SET LOCAL max_parallel_workers_per_gather = 0")
        cursor.execute(f"SET LOCAL enable_bitmapscan = {'off' if halves else 'on'}")
        cursor.execute(f"DROP TABLE IF EXISTS {_FRESH}, {_DIFF}")
        # Kept past this transaction for the batches that write (dropped at the end of the rebuild).
        cursor.execute(f"CREATE TEMPORARY TABLE {_FRESH} AS {sums}", params)
        cursor.execute("SET LOCAL enable_bitmapscan = on")
        cursor.execute(
            f"CREATE TEMPORARY TABLE {_DIFF} AS SELECT s.id AS stored, "  # noqa: S608 - our SQL
            f"COALESCE(f.player_id, s.player_id) AS owner, f.* "
            f"FROM ({_season_row_sql(federation, _FRESH)}) f "
            f"FULL JOIN ({stored}) s "
            f"ON s.player_id = f.player_id AND s.season = f.season "
            f"WHERE s.id IS NULL OR f.player_id IS NULL OR {differs}",
            list(stored_params),
        )
        careers = _careers(_FRESH, federation) if seasons is None else None
        for setting in ("work_mem", "jit", "enable_nestloop", "max_parallel_workers_per_gather"):
            cursor.execute(f"SET LOCAL {setting} TO DEFAULT")
    return careers


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


def _read_ledger(federation: Federation, *, apart: bool):
    """Step 1 of :func:`_rebuild_postgresql`: the career sums of every player, with every differing season
    row in :data:`_DIFF` on this connection. In two halves at once when ``apart`` and the federation is
    large; in one pass otherwise, or when no second connection can be opened."""
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
        return _rebuild_part(federation, (None, None))
    other_careers, blocks = other
    with connection.cursor() as cursor, cursor.copy(f"COPY {_DIFF} FROM STDIN (FORMAT BINARY)") as copy:
        for block in blocks:
            copy.write(block)
    return careers + other_careers


@dataclass
class _Plan:
    """What the rebuild's snapshot found (step 1 of :func:`_rebuild_postgresql`): the rows to write, by player."""

    proven: dict
    ledger: dict
    stored: dict
    unproven: list
    standings: dict = field(default_factory=dict)  # player id → the standing row to write
    gone: set = field(default_factory=set)  # players whose standing row is to go
    achievements: dict = field(default_factory=dict)  # player id → new title register rows
    computed: int = 0
    ranking: dict | None = None  # player id → (score, changes on) of the whole list, when it is rebuilt
    ranking_players: set = field(default_factory=set)
    due: object = None
    sources: dict = field(default_factory=dict)  # scope → fingerprint of the sources

    def players(self) -> list[int]:
        """Every player a batch has to write for."""
        owners = _diff_owners() if self.unproven else set()
        return sorted(owners | set(self.standings) | self.gone | set(self.achievements) | self.ranking_players)


def _diff_owners() -> set[int]:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT DISTINCT owner FROM {_DIFF}")  # noqa: S608 - our own SQL
        return {row[0] for row in cursor.fetchall()}


def _merged_seasons(federation: Federation) -> str:
    """The federation's season rows as the differences in :data:`_DIFF` make them (a subquery for ``_careers``)."""
    seasons = connection.ops.quote_name(SeasonStanding._meta.db_table)
    columns = ", ".join(_SEASON_COLUMNS)
    return (
        f"(SELECT {columns} FROM {seasons} s WHERE s.federation_id = {int(federation.pk)} "  # noqa: S608
        f"AND NOT EXISTS (SELECT 1 FROM {_DIFF} d WHERE d.stored = s.id) "
        f"UNION ALL SELECT {columns} FROM {_DIFF} WHERE player_id IS NOT NULL) merged"
    )


def _plan(federation: Federation, today, *, apart: bool) -> _Plan:
    """Steps 0 and 1 of :func:`_rebuild_postgresql`, in one transaction that writes nothing but temporary
    tables: the rows' versions first (:func:`remember_versions`), then the fingerprints, the sums and every
    row that differs from the stored one."""
    remember_versions(federation)
    ledger = proof.ledger_seasons(federation)
    plan = _Plan(proof.recorded(federation), ledger, proof.season_rows(federation), [])
    seasons = sorted(set(ledger) | set(plan.stored))
    plan.unproven = [
        season
        for season in seasons
        if not proof.unchanged(plan.proven, proof.season_scope(season), ledger.get(season), plan.stored.get(season))
    ]
    careers = None
    if len(plan.unproven) == len(seasons):
        careers = _read_ledger(federation, apart=apart)
    elif plan.unproven:
        _rebuild_part(federation, (None, None), plan.unproven)
    plan.sources[proof.STANDINGS] = proof.standings_sources(federation, ledger)
    rows = proof.standings_rows(federation)
    if plan.unproven or not proof.unchanged(plan.proven, proof.STANDINGS, plan.sources[proof.STANDINGS], rows):
        if careers is None:
            table = connection.ops.quote_name(SeasonStanding._meta.db_table)
            careers = _careers(_merged_seasons(federation) if plan.unproven else table, federation)
        computed, achievements = _standing_rows(federation, None, careers)
        stored = _stored_standings(federation)
        plan.standings = {row[0]: row for row in computed if stored.get(row[0]) != row}
        plan.gone = set(stored) - {row[0] for row in computed}
        for achievement in achievements:
            plan.achievements.setdefault(achievement.player_id, []).append(achievement)
        plan.computed = len(computed)
    else:
        plan.computed = Standing.objects.filter(federation=federation).count()
    _plan_ranking_list(federation, today, plan)
    return plan


def _plan_ranking_list(federation: Federation, today, plan: _Plan) -> None:
    """Step 1 for DBf's ranking list, unless the whole ledger and the list are as last proven and no figure's
    day has come since (D-Q59), that of a figure of 0 included (no row holds it)."""
    plan.sources[proof.RANKING_LIST] = sources = proof.ranking_sources(federation, plan.ledger)
    last = plan.proven.get(proof.RANKING_LIST)
    plan.due = last[3] if last else None
    if (
        not proof.unchanged(plan.proven, proof.RANKING_LIST, sources, proof.ranking_entries(federation))
        or last[2] > today
        or (plan.due is not None and plan.due <= today)
        or ranking_list_due(federation, today)
    ):
        plan.ranking, plan.due = ranking_list_rebuild(federation, today)
        stored = ranking_list_stored(federation, None)
        fresh = plan.ranking
        plan.ranking_players = {pk for pk in stored.keys() | fresh.keys() if stored.get(pk) != fresh.get(pk)}


def _write_season_differences(players: Sequence[int]) -> bool:
    """Delete, update and insert the season rows in :data:`_DIFF` of ``players``. Returns whether there were any."""
    seasons = connection.ops.quote_name(SeasonStanding._meta.db_table)
    values = _SEASON_COLUMNS[3:]
    owners = f"owner IN ({', '.join(['%s'] * len(players))})"
    with connection.cursor() as cursor:
        cursor.execute(
            f"DELETE FROM {seasons} WHERE id IN (SELECT stored FROM {_DIFF} WHERE player_id IS NULL AND {owners})",  # noqa: S608
            list(players),
        )
        written = cursor.rowcount
        updates = ", ".join(f"{c} = d.{c}" for c in values)
        cursor.execute(
            f"UPDATE {seasons} s SET {updates} FROM {_DIFF} d "  # noqa: S608
            f"WHERE s.id = d.stored AND d.player_id IS NOT NULL AND d.{owners}",
            list(players),
        )
        written += cursor.rowcount
        columns = ", ".join(_SEASON_COLUMNS)
        cursor.execute(
            f"INSERT INTO {seasons} ({columns}) SELECT {columns} FROM {_DIFF} WHERE stored IS NULL AND {owners}",  # noqa: S608
            list(players),
        )
        return bool(written + cursor.rowcount)


def _write_batch(federation: Federation, plan: _Plan, batch: Sequence[int]) -> tuple[bool, int]:
    """Step 2 for one batch of players, in its own transaction: lock their standing rows (in id order), keep
    those no update has rewritten since the snapshot (:func:`untouched`) and write their differing rows.
    Returns (whether anything was written, how many players' standings changed)."""
    created = lock_players(federation, batch)
    fresh = sorted(untouched(batch, created))
    written = bool(plan.unproven and fresh and _write_season_differences(fresh))
    stored = {row[0]: row for row in Standing.objects.filter(player_id__in=fresh).values_list(*_STANDING_COLUMNS)}
    rows = [plan.standings[pk] for pk in fresh if pk in plan.standings and stored.get(pk) != plan.standings[pk]]
    upsert_standings(rows)
    gone = [pk for pk in fresh if pk in plan.gone and pk in stored]
    drop_blanks(federation, gone + sorted(created - {row[0] for row in rows}))
    achievements = [row for pk in fresh for row in plan.achievements.get(pk, ())]
    TitleAchievement.objects.bulk_create(achievements, ignore_conflicts=True, batch_size=2000)
    if plan.ranking is not None:
        wanted = [pk for pk in fresh if pk in plan.ranking_players]
        written |= ranking_list_store(federation, wanted, {pk: plan.ranking[pk] for pk in wanted if pk in plan.ranking})
    changed = len(rows) + len(gone)
    return bool(written or changed or achievements), changed


def _rebuild_postgresql(federation: Federation, *, apart: bool = False) -> tuple[int, bool, int]:
    """The full rebuild on PostgreSQL: the same sums and titles as the incremental update, but rows that are
    already right are left alone, and rows proven right by the last rebuild are not regrouped
    (:mod:`masterpoints.standings.proof`). It never holds a lock on the whole federation: incremental
    updates go on while it runs, and wait for it only on the players of the batch it is writing. Returns
    (standings computed, whether anything was written, how many players' standings changed).

    0. The standing rows' versions are recorded (:func:`~.rowlocks.remember_versions`). Fingerprints of the
       ledger per season and of the stored season rows are compared with those the last rebuild recorded: a
       season whose two fingerprints are both unchanged is proven right as it stands.
    1. In one transaction that writes nothing (its own snapshot per statement, no row locks): the other
       seasons are summed from the ledger in one GROUP BY into a temporary table, and one hash full join of
       those sums with their stored season rows gives the rows to delete, update and insert
       (:func:`_rebuild_part`; for a large federation with nothing proven, its two halves at once on two
       connections, see :func:`_read_ledger`); then the standings from the career sums, titles in Python,
       and DBf's ranking list (:func:`_plan_ranking_list`); only rows that differ are kept.
    2. The differing rows are written in batches of players in id order, each in its own transaction under
       those players' row locks (:func:`_write_batch`). A player whose standing an incremental update has
       rewritten since step 0 is left to it: that update read the ledger after the snapshot, and an award
       committed after the snapshot is counted by its own upload's update.
    3. The new fingerprints are recorded.
    """
    today = timezone.localdate()
    try:
        with transaction.atomic():
            plan = _plan(federation, today, apart=apart)
        players, changed, players_changed = plan.players(), False, 0
        for start in range(0, len(players), BATCH):
            with transaction.atomic():
                wrote, count = _write_batch(federation, plan, players[start : start + BATCH])
            changed, players_changed = changed or wrote, players_changed + count
        with transaction.atomic():
            _record(federation, plan, today, changed)
    finally:
        if not connection.needs_rollback:
            with connection.cursor() as cursor:
                cursor.execute(f"DROP TABLE IF EXISTS {_FRESH}, {_DIFF}")
            forget_versions()
    return plan.computed, changed, players_changed


def _record(federation: Federation, plan: _Plan, today, changed: bool) -> None:
    """Step 3: the fingerprints of the sources and of the rows as they now stand."""
    stored = dict(plan.stored)
    if plan.unproven:
        stored.update(proof.season_rows(federation, plan.unproven))
        for season in set(plan.unproven) - set(plan.ledger):
            stored.pop(season, None)  # no award of it is left, and its rows are gone
    proofs = {proof.season_scope(season): (plan.ledger[season], stored.get(season), None) for season in plan.ledger}
    sources = proof.standings_sources(federation, plan.ledger)  # the register may have grown
    proofs[proof.STANDINGS] = (sources, proof.standings_rows(federation), None)
    proofs[proof.RANKING_LIST] = (plan.sources[proof.RANKING_LIST], proof.ranking_entries(federation), plan.due)
    proof.record(federation, proofs, today)
