"""Standings: every player's balances, title or category and season figures, derived from the award ledger.

Writes only (reads are in ``masterpoints.public.selectors``). Two entry points share one code path, so a full
rebuild gives exactly what the incremental updates gave (tested):

- :func:`standings_refresh_players` (and :func:`standings_refresh_tournament`): after an upload or a
  correction, recompute the affected players' rows from the ledger;
- :func:`standings_rebuild`: recompute every row of a federation from the ledger (nightly, on demand;
  on PostgreSQL :mod:`masterpoints.standings.rebuild`, which rewrites only the rows that differ).

Both end with the ranking list's step (:mod:`masterpoints.standings.ranking_list`, DBf only), whose figures
also move with the calendar: :func:`standings_ranking_roll` recomputes the rows whose day has come.

The sums and titles themselves are computed in :mod:`masterpoints.standings.sums`, the ladder in force on a
date in :mod:`masterpoints.standings.ladders`.

No standings write locks the federation (:mod:`masterpoints.standings.rowlocks`). An update locks
the standing rows of the players it recomputes, in player-id order (a player with no row yet gets one under
the primary key, so two updates cannot both insert it), reads their ledger after taking the locks and so
sees every award committed before, replaces their derived rows and raises the federation's standings version
last, in one ``UPDATE version = version + 1``. Two updates of different players of one federation therefore
run at once and meet only on that row at commit; two updates of one player run one after the other, the
second from a ledger that holds the first's awards, so none is lost. The nightly rebuild computes in its own
snapshot and writes in batches under the same row locks, leaving a player an update rewrote meanwhile to it
(:func:`masterpoints.standings.rebuild._rebuild_postgresql`).

DBf titles once registered are never lost (§ 404); an HBS category follows the points unless transition rule 4
kept it (H-24: "Igrači s kategorijama, koji ne budu zadovoljavali nove uvjete, zadržavaju svoje kategorije"). The
:class:`~masterpoints.models.TitleAchievement` register is append-only and is not derived data; a standing
shows the higher of the computed and the held rung (HBS: the rung rule 4 kept, :mod:`.sums`). A new row is
written when the computed rung rises above every held rung, with ``reached_on`` = the day the registration made
the balances reach it (§ 404A "opnår en mestertitel efter registrering", D-Q21: the first day on which the
entries registered by then reach the rung), the same in the incremental update and in the rebuild.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db import connection, transaction
from django.utils import timezone

from federation.models import Federation, Player
from federation.services import audit_record
from masterpoints.models import Award, SeasonStanding, Standing, StandingsProof, TitleAchievement
from masterpoints.standings.places import places_soon
from masterpoints.standings.proof import RANKING_LIST
from masterpoints.standings.ranking_list import (
    ranking_list_due,
    ranking_list_rebuild,
    ranking_list_refresh,
    ranking_list_stored,
)
from masterpoints.standings.rebuild import BATCH, _nothing_written, _rebuild_postgresql
from masterpoints.standings.rowlocks import bump_version, drop_blanks, lock_players, upsert_standings
from masterpoints.standings.sums import (
    _STANDING_COLUMNS,
    _careers,
    _season_rows,
    _standing_rows,
    _stored_standings,
    _write,
)
from masterpoints.standings.versions import forget_standings_version
from tournaments.models import Tournament

#: Players recomputed per part by :func:`standings_refresh_players`.
_PART = 5000


def _bump(federation: Federation) -> None:
    """Raise the federation's standings version (cached pages key on it): the last step of every standings
    change, whose row lock is the only one two changes of one federation share (until they commit)."""
    bump_version(federation)
    forget_standings_version(federation)
    places_soon(federation.pk)


def _refresh_part(federation: Federation, player_ids: Sequence[int]) -> int:
    """Replace the standings of ``player_ids`` from the ledger under their row locks, taken first (in id
    order), so that the ledger read after them holds every award committed before. Returns the standings
    written."""
    created = lock_players(federation, player_ids)
    _season_rows(federation, player_ids)
    table = connection.ops.quote_name(SeasonStanding._meta.db_table)
    rows, achievements = _standing_rows(federation, player_ids, _careers(table, federation, player_ids))
    upsert_standings(rows)
    drop_blanks(federation, (set(player_ids) | created) - {row[0] for row in rows})
    # The register is append-only; ON CONFLICT DO NOTHING keeps a rung recorded once.
    TitleAchievement.objects.bulk_create(achievements, ignore_conflicts=True, batch_size=2000)
    ranking_list_refresh(federation, player_ids)
    return len(rows)


def _rebuild_one_pass(federation: Federation) -> tuple[int, int]:
    """The full rebuild in one transaction (SQLite, whose single writer serialises every write): every row
    replaced. Returns (standings written, players whose standing changed)."""
    before = _stored_standings(federation)
    _season_rows(federation, None)
    table = connection.ops.quote_name(SeasonStanding._meta.db_table)
    rows, achievements = _standing_rows(federation, None, _careers(table, federation, None))
    Standing.objects.filter(federation=federation).delete()
    _write(Standing, _STANDING_COLUMNS, rows)
    TitleAchievement.objects.bulk_create(achievements, ignore_conflicts=True, batch_size=2000)
    ranking_list_refresh(federation, None)
    _bump(federation)
    after = {row[0]: row for row in rows}
    return len(rows), sum(1 for player, row in after.items() if before.get(player) != row) + len(before.keys() - after)


def _recompute(federation: Federation, player_ids: Sequence[int] | None, *, apart: bool = False) -> tuple[int, int]:
    """Replace the standings of ``player_ids`` (``None``: the whole federation) from the ledger. Returns
    (standings written, players whose standing changed); the latter only for the whole federation (0
    otherwise).

    ``apart``: a full rebuild may read half of the ledger on a second connection (see
    :func:`_rebuild_postgresql`), which commits its batches as it goes (no transaction around it)."""
    if player_ids is not None:
        with transaction.atomic():
            written = _refresh_part(federation, player_ids)
            _bump(federation)
        return written, 0
    if connection.vendor != "postgresql":
        with transaction.atomic():
            return _rebuild_one_pass(federation)
    written, changed, players_changed = _rebuild_postgresql(federation, apart=apart)
    if changed:
        with transaction.atomic():
            _bump(federation)
    return written, players_changed


# --- services ---------------------------------------------------------------------------------------------


@transaction.atomic
def standings_refresh_players(*, federation: Federation, player_ids: Iterable[int]) -> int:
    """Recompute the standings of these players of ``federation`` from the ledger (idempotent).

    Returns how many standings were written. Ranks are not stored, so nobody else's row changes.
    """
    ids = sorted(set(player_ids))
    # In parts, so that no query carries more parameters than the database takes; the parts lock in
    # ascending player order, and the version is raised once, last.
    written = sum(_refresh_part(federation, ids[start : start + _PART]) for start in range(0, len(ids), _PART))
    _bump(federation)
    return written


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


@dataclass(frozen=True)
class RebuildFigures:
    """What one federation's rebuild did: standings computed, players whose standing changed."""

    standings: int
    players_changed: int


def standings_rebuild(*, actor=None, federation: Federation | None = None) -> dict[str, int]:
    """Recompute every standing and season figure from the ledger (for one or every federation).

    Gives exactly what the incremental updates gave. The title register is kept (titles are never lost);
    missing achievements are added. Audited as ``standings.rebuild``. Returns the standings written per
    federation code (:func:`standings_rebuild_figures` tells more)."""
    return {
        code: figures.standings
        for code, figures in standings_rebuild_figures(actor=actor, federation=federation).items()
    }


def standings_rebuild_figures(*, actor=None, federation: Federation | None = None) -> dict[str, RebuildFigures]:
    """:func:`standings_rebuild`, returning per federation code what it did (:class:`RebuildFigures`).

    Outside a transaction the PostgreSQL rebuild commits in batches and so never holds the rows of a whole
    federation (incremental updates go on meanwhile); inside one, its batches are savepoints."""
    # Another connection may read for this one only while this transaction has written nothing of its own
    # (it would not see uncommitted awards). The rebuild itself writes no awards, and writes a federation's
    # stored rows only after the other connection has read them.
    apart = connection.vendor == "postgresql" and _nothing_written()
    federations = [federation] if federation is not None else list(Federation.objects.order_by("pk"))
    done = {}
    for fed in federations:
        written, changed = _recompute(fed, None, apart=apart)
        done[fed.code] = RebuildFigures(standings=written, players_changed=changed)
        audit_record(actor=actor, action="standings.rebuild", target=fed, payload={"standings": written})
    return done


def standings_ranking_roll(*, federation: Federation, today: datetime.date | None = None) -> int:
    """The daily roll of the ranking list (D-Q59, :mod:`masterpoints.standings.ranking_list`): recompute the
    figures of the players whose stored figure changes on or before ``today`` (default: the local date), as
    the ledger gives them on that day. Idempotent; returns how many players were recomputed."""
    today = today or timezone.localdate()
    due = ranking_list_due(federation, today)
    # A figure of 0 has no row to be due: the last rebuild recorded the first day one changes, and on it the
    # whole list is recomputed (the due rows with it): those whose figure differs, found in one pass.
    proven = StandingsProof.objects.filter(federation=federation, scope=RANKING_LIST, due_on__lte=today)
    players, next_due, whole = due, None, proven.exists()
    if whole:
        rows, next_due = ranking_list_rebuild(federation, today)
        stored = ranking_list_stored(federation, None)
        players = sorted(pk for pk in stored.keys() | rows.keys() if stored.get(pk) != rows.get(pk))
    changed = False
    for start in range(0, len(players), BATCH):
        part = players[start : start + BATCH]
        with transaction.atomic():  # under the players' row locks, the ledger read after them
            drop_blanks(federation, lock_players(federation, part))
            changed |= ranking_list_refresh(federation, part, today=today)
    with transaction.atomic():
        if whole:
            proven.update(due_on=next_due)
        if changed:
            _bump(federation)
    return len(due)


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
