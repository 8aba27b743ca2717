"""Per-player row locks of the standings: updates of one federation wait for each other only where
they recompute the same player, and for the nightly rebuild only while one of its batches holds that player.

- A player's :class:`~masterpoints.models.Standing` row is the lock of every row derived for that player (its
  standing, its season rows, its ranking-list entry, its title register rows): each writer of those rows
  holds it (``FOR UPDATE``) until it commits. :func:`lock_players` takes the rows in player-id order, so two
  writers never deadlock; a player with no row yet gets a blank one first, inserted under the primary key
  with ``ON CONFLICT DO NOTHING``, so of two writers one inserts and the other waits for it.
- A writer reads the ledger only after taking the locks, so it sees every award committed before; an award
  committed later is counted by its own upload's update, which waits for this writer's locks.
- The row is always rewritten in place (``UPDATE``, :func:`upsert_standings`), never deleted and inserted
  again while others may wait for it: a waiter then locks the new version of the row.
- The federation's :class:`~masterpoints.models.StandingsVersion` is raised last, with one
  ``UPDATE version = version + 1`` (:func:`bump_version`): two updates of one federation meet only on that
  row, from their raise to their commit.

The rebuild computes in its own snapshot and writes in batches (:mod:`masterpoints.standings.rebuild`): before
it reads anything it records each standing row's version (PostgreSQL's ``xmin``, :func:`remember_versions`);
a batch takes the locks of its players and writes only those whose row no update has rewritten since
(:func:`untouched`): every other one was recomputed from the ledger by an update that read it later.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import connection
from django.utils import timezone

from federation.models import Player
from federation.schemes import KIND_COLUMNS
from masterpoints.models import Standing, StandingsVersion
from masterpoints.standings.sums import _STANDING_COLUMNS

#: The rebuild's record of each standing row's version before it read the ledger (a temporary table).
SEEN = "standings_seen"
#: Rows per statement of :func:`upsert_standings` (17 columns: well under every database's parameter limit).
_ROWS = 500
#: A blank standing: every value column's default (:data:`_STANDING_COLUMNS` after the two keys).
_BLANK = (*(0 for _kind in KIND_COLUMNS), 0, 0, None, 0, 0, 0, "", 0, None)


def _table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _marks(count: int) -> str:
    return ", ".join(["%s"] * count)


def lock_players(federation, player_ids: Iterable[int]) -> set[int]:
    """Lock the standing rows of ``player_ids`` (of players that exist) in player-id order, inserting a blank
    row for a player who has none; returns the ids whose row this call inserted (the caller writes them or
    removes them, :func:`drop_blanks`). On SQLite the database's single writer serialises instead."""
    ids = sorted(set(player_ids))
    if not ids:
        return set()
    table, players = _table(Standing), _table(Player)
    blank = ", ".join(["%s"] * (len(_BLANK) + 1))
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({', '.join(_STANDING_COLUMNS)}) "  # noqa: S608 - our own SQL
            f"SELECT p.id, {blank} FROM {players} p WHERE p.id IN ({_marks(len(ids))}) ORDER BY p.id "
            f"ON CONFLICT (player_id) DO NOTHING RETURNING player_id",
            [federation.pk, *_BLANK, *ids],
        )
        created = {row[0] for row in cursor.fetchall()}
        if connection.features.has_select_for_update:
            cursor.execute(
                f"SELECT player_id FROM {table} WHERE player_id IN ({_marks(len(ids))}) "  # noqa: S608
                f"ORDER BY player_id FOR UPDATE",
                ids,
            )
            cursor.fetchall()
    return created


def drop_blanks(federation, blanks: Iterable[int]) -> None:
    """Remove the blank rows :func:`lock_players` inserted for players that got no standing after all."""
    blanks = sorted(blanks)
    for start in range(0, len(blanks), 5000):
        Standing.objects.filter(federation=federation, player_id__in=blanks[start : start + 5000]).delete()


def upsert_standings(rows: Sequence[tuple]) -> None:
    """Write standing rows (:data:`_STANDING_COLUMNS`) in place: an existing row is updated (its waiters then
    lock the new version), a missing one inserted."""
    table = _table(Standing)
    columns = ", ".join(_STANDING_COLUMNS)
    updates = ", ".join(f"{column} = EXCLUDED.{column}" for column in _STANDING_COLUMNS[1:])
    width = len(_STANDING_COLUMNS)
    ordered = sorted(rows, key=lambda row: row[0])
    with connection.cursor() as cursor:
        for start in range(0, len(ordered), _ROWS):
            part = ordered[start : start + _ROWS]
            values = ", ".join(f"({_marks(width)})" for _row in part)
            cursor.execute(
                f"INSERT INTO {table} ({columns}) VALUES {values} "  # noqa: S608 - our own SQL
                f"ON CONFLICT (player_id) DO UPDATE SET {updates}",
                [value for row in part for value in row],
            )


def bump_version(federation) -> None:
    """Raise the federation's standings version by one, in a single statement (the row is created the first
    time): the short row lock every standings change of the federation takes last."""
    table = _table(StandingsVersion)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (federation_id, version, changed_at) VALUES (%s, 1, %s) "  # noqa: S608
            f"ON CONFLICT (federation_id) DO UPDATE "
            f"SET version = {table}.version + 1, changed_at = EXCLUDED.changed_at",
            [federation.pk, timezone.now()],
        )


def remember_versions(federation) -> None:
    """The rebuild's first step (PostgreSQL): each of the federation's standing rows with its version, before
    the rebuild reads the ledger or the stored rows (kept until :func:`forget_versions`)."""
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {SEEN}")
        cursor.execute(
            f"CREATE TEMPORARY TABLE {SEEN} AS SELECT player_id, xmin::text::bigint AS seen "  # noqa: S608
            f"FROM {_table(Standing)} WHERE federation_id = %s",
            [federation.pk],
        )
        cursor.execute(f"CREATE UNIQUE INDEX ON {SEEN} (player_id)")


def untouched(player_ids: Sequence[int], created: set[int]) -> set[int]:
    """Of ``player_ids`` (locked by :func:`lock_players`, which inserted ``created``), the players whose
    standing row no one has rewritten since :func:`remember_versions`: the rebuild's snapshot is still
    theirs. A row rewritten or inserted since belongs to an update that read the ledger later."""
    if not player_ids:
        return set()
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT s.player_id FROM {_table(Standing)} s JOIN {SEEN} v ON v.player_id = s.player_id "  # noqa: S608
            f"WHERE s.player_id IN ({_marks(len(player_ids))}) AND s.xmin::text::bigint = v.seen",
            list(player_ids),
        )
        same = {row[0] for row in cursor.fetchall()}
        cursor.execute(
            f"SELECT player_id FROM {SEEN} WHERE player_id IN ({_marks(len(player_ids))})",  # noqa: S608
            list(player_ids),
        )
        known = {row[0] for row in cursor.fetchall()}
    # A row inserted by this batch: the player had none when the versions were taken (else it was deleted
    # since, which no update does to a player with awards).
    return same | (created - known)


def forget_versions() -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {SEEN}")
