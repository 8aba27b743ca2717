"""The full rebuild on PostgreSQL: the same sums and titles as the incremental update, but rows that are
already right are left alone, so a nightly rebuild of a consistent database writes (almost) nothing.

A large federation is summed in two halves of its players at once, the second on a second connection
(:func:`_rebuild_postgresql`). The caller holds the federation's standings lock.
"""

from __future__ import annotations

import concurrent.futures
import logging
from collections.abc import Sequence

from django.db import OperationalError, connection, transaction
from django.utils import timezone

from federation.models import Federation, Player
from masterpoints.models import SeasonStanding, Standing, TitleAchievement
from masterpoints.standings import proof
from masterpoints.standings.ranking_list import ranking_list_due, ranking_list_rebuild
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
    _write,
)

logger = logging.getLogger(__name__)

_DIFF = "standings_season_diff"
#: A federation with at least this many players is rebuilt in two halves at once (see
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


def _write_season_differences() -> bool:
    """Step 2 of :func:`_rebuild_postgresql`: delete, update and insert the season rows in :data:`_DIFF`.
    Returns whether there were any."""
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
        return cursor.fetchone()[0]


def _rebuild_postgresql(federation: Federation, *, apart: bool = False) -> tuple[int, bool, int]:
    """The full rebuild on PostgreSQL: the same sums and titles as the incremental update, but rows that are
    already right are left alone, and rows proven right by the last rebuild are not regrouped
    (:mod:`masterpoints.standings.proof`). Returns (standings computed, whether anything was written, how
    many players' standings changed).

    0. Fingerprints of the ledger per season (one pass grouped by date) and of the stored season rows are
       compared with those the last rebuild recorded: a season whose two fingerprints are both unchanged is
       proven right as it stands.
    1. The other seasons are summed from the ledger, in one GROUP BY into a temporary table, and one hash
       full join of those sums with their stored season rows gives the rows to delete, update and insert
       (:func:`_rebuild_part`). When no season is proven (the first rebuild), with ``apart`` (nothing written
       yet in this transaction) and a large federation, the players are cut in two halves by id, and the
       second half is summed and compared on a second connection at the same time, as a second process on
       the database server; its differences come back by binary COPY (when no second connection can be
       opened, this one reads the whole ledger after all). Every player's figures come from one read of
       the ledger either way; an award committed meanwhile is counted by its own upload's update, which
       waits for this one's lock.
    2. Only the differing season rows are written.
    3. The standings, unless every season was proven and the standings, the title register and the rule
       sets are as last proven: career sums, titles in Python, only changed standings rewritten.
    4. DBf's ranking list, unless the whole ledger and the list are as last proven and no figure's day
       has come since (D-Q59), that of a figure of 0 included (no row holds it).
    5. The new fingerprints are recorded.
    """
    today = timezone.localdate()
    proven = proof.recorded(federation)
    ledger = proof.ledger_seasons(federation)
    stored = proof.season_rows(federation)
    seasons = sorted(set(ledger) | set(stored))
    unproven = [
        season
        for season in seasons
        if not proof.unchanged(proven, proof.season_scope(season), ledger.get(season), stored.get(season))
    ]
    careers = None
    seasons_changed = False
    if len(unproven) == len(seasons):
        careers = _read_ledger(federation, apart=apart)
    elif unproven:
        _rebuild_part(federation, (None, None), unproven)
    if unproven:
        seasons_changed = _write_season_differences()
        stored.update(proof.season_rows(federation, unproven))
        for season in set(unproven) - set(ledger):
            stored.pop(season, None)  # no award of it is left, and its rows are gone
    proofs = {proof.season_scope(season): (ledger[season], stored.get(season), None) for season in ledger}
    written, standings_changed, players_changed = 0, False, 0
    sources, rows = proof.standings_sources(federation, ledger), proof.standings_rows(federation)
    if unproven or not proof.unchanged(proven, proof.STANDINGS, sources, rows):
        if careers is None:
            careers = _careers(connection.ops.quote_name(SeasonStanding._meta.db_table), federation)
        written, standings_changed, players_changed = _write_standings(federation, careers)
        if standings_changed:  # the rows, and the register they may have added to
            sources, rows = proof.standings_sources(federation, ledger), proof.standings_rows(federation)
    else:
        written = Standing.objects.filter(federation=federation).count()
    proofs[proof.STANDINGS] = (sources, rows, None)
    # Every scheme: one without a ranking list has none, and a stray row of it is removed.
    ranking_changed = False
    sources, rows = proof.ranking_sources(federation, ledger), proof.ranking_entries(federation)
    last = proven.get(proof.RANKING_LIST)
    due = last[3] if last else None
    if (
        not proof.unchanged(proven, proof.RANKING_LIST, sources, rows)
        or last[2] > today
        or (due is not None and due <= today)  # a figure of 0, with no row for the roll, changes
        or ranking_list_due(federation, today)
    ):
        ranking_changed, due = ranking_list_rebuild(federation, today)
        if ranking_changed:
            rows = proof.ranking_entries(federation)
    proofs[proof.RANKING_LIST] = (sources, rows, due)
    proof.record(federation, proofs, today)
    return written, bool(seasons_changed or standings_changed or ranking_changed), players_changed


def _write_standings(federation: Federation, careers) -> tuple[int, bool, int]:
    """Step 3 of :func:`_rebuild_postgresql`: the standings from the career sums, titles in Python; only
    the rows that differ from the stored ones are rewritten. Returns (standings computed, whether anything
    was written, how many players' standings changed)."""
    rows, achievements = _standing_rows(federation, None, careers)
    stored = _stored_standings(federation)
    changed = [row for row in rows if stored.get(row[0]) != row]
    gone = set(stored) - {row[0] for row in rows}
    stale = [row[0] for row in changed if row[0] in stored] + sorted(gone)
    for start in range(0, len(stale), 10000):
        Standing.objects.filter(player_id__in=stale[start : start + 10000]).delete()
    _write(Standing, _STANDING_COLUMNS, changed)
    TitleAchievement.objects.bulk_create(achievements, ignore_conflicts=True, batch_size=2000)
    return len(rows), bool(stale or changed or achievements), len(changed) + len(gone)
