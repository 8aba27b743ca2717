"""Places on a federation's default list, derived from its standings by the database's window functions and
stored (:class:`~masterpoints.models.StandingPlace`), so that every web worker reads the same ranks from an
index and none keeps a copy of the list.

A rank is one plus the number of better standings in its scope (equal keys share it); stored, it would change
for thousands of players whenever one passes them, so the standings' own updates never write it: after a
change commits, :func:`places_soon` queues :func:`places_refresh` (through the outbox, at most one per
federation in :data:`PLACES_BOUND_SECONDS`, so a burst of uploads costs one refresh, not one each), and the
beat's ``standings-places`` runs it every minute for any federation whose places are older than its
standings version or than today (the official list follows dues paid, HBS rule 3). A place is therefore at
most :data:`PLACES_BOUND_SECONDS` behind the points; the points themselves are read from the standings and
show at once.

One statement derives every place (federation, district, club, ranking list) and writes only the rows whose
values changed, under a row lock of the federation's :class:`~masterpoints.models.StandingPlaces`: two refreshes
of one federation leave one result, and standings updates never wait for a refresh.
"""

from __future__ import annotations

import logging

from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import F, Max
from django.utils import timezone

from clubs.models import Club, ClubMembership
from federation.models import Federation, Player, Region
from federation.outbox import enqueue_task
from masterpoints.models import RankingListEntry, Standing, StandingPlace, StandingPlaces, StandingsVersion
from masterpoints.standings.versions import forget_standings_version, standings_version

logger = logging.getLogger(__name__)

#: The longest a place lags the points: the beat's minute plus a refresh.
PLACES_BOUND_SECONDS = 90
#: The registered name of the refresh task (``masterpoints.standings.tasks``).
PLACES_TASK = "masterpoints.standings.tasks.standings_places"
_QUEUED = "standings-places-queued:{}"


def places_soon(federation_id: int) -> None:
    """Within a standings change's transaction: queue the federation's refresh once it commits, unless one
    was queued in the last :data:`PLACES_BOUND_SECONDS`. A change after that one is derived by the beat's
    next minute (``places_due``): one refresh of a million places in a minute, however many uploads."""
    if cache.add(_QUEUED.format(federation_id), 1, PLACES_BOUND_SECONDS):
        enqueue_task(PLACES_TASK, federation_id)


def places_due(day) -> list[int]:
    """The federations whose places are older than their standings version or than ``day``."""
    done = {row.federation_id: row for row in StandingPlaces.objects.all()}
    due = []
    for federation_id in Federation.objects.order_by("pk").values_list("pk", flat=True):
        row = done.get(federation_id)
        if row is None or row.day != day or row.version != standings_version(federation_id):
            due.append(federation_id)
    return due


def places_refresh(federation: Federation, *, day) -> int:
    """Derive the places of ``federation``'s default list on ``day`` from its standings; returns how many
    rows changed.

    A refresh already running for the federation is not waited for (its row of
    :class:`~masterpoints.models.StandingPlaces` is locked, and a worker blocked on it would hold a slot
    the standings updates need): this one returns at once, and a change the running one did not see is
    derived by the beat's next minute (``places_due``), within :data:`PLACES_BOUND_SECONDS`. The version
    recorded is the one read before the places were derived, so a change committed meanwhile is never
    marked as derived."""
    with transaction.atomic():
        run, _created = StandingPlaces.objects.get_or_create(federation=federation)
        run = StandingPlaces.objects.select_for_update(skip_locked=True).filter(pk=run.pk).first()
        if run is None:
            return 0
        version = standings_version(federation.pk)
        if run.version == version and run.day == day:
            return 0
        official = federation.scheme_info.official_list_by_default
        with connection.cursor() as cursor:
            cursor.execute(*_delete_unlisted(federation.pk, official, day))
            changed = cursor.rowcount
            cursor.execute(*_upsert(federation.pk, official, day))
            changed += cursor.rowcount
        places = StandingPlace.objects.filter(federation=federation)
        run.listed = places.count()
        run.district_sizes = _district_sizes(federation)
        if changed:  # the pages kept under the version show the new places
            StandingsVersion.objects.filter(federation=federation).update(
                version=F("version") + 1, changed_at=timezone.now()
            )
            forget_standings_version(federation)
            raised = standings_version(federation.pk)
            if _number(raised) == _number(version) + 1:  # no standings change came in between
                version = raised
        run.version, run.day, run.refreshed_at = version, day, timezone.now()
        run.save()
    return changed


def _number(version: str) -> int:
    """The counter of a :func:`~masterpoints.standings.versions.standings_version` (``"12-…"``: 12)."""
    return int(version.split("-", 1)[0])


def _district_sizes(federation: Federation) -> dict[str, int]:
    """The listed players per district (the last district position of each is its size)."""
    rows = (
        StandingPlace.objects.filter(federation=federation, district__isnull=False)
        .values("district")
        .annotate(size=Max("district_position"))
        .order_by()
    )
    return {str(row["district"]): row["size"] for row in rows}


def _table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _official(official: bool, day) -> tuple[str, list]:
    """The official list's condition on the player ``p`` (federation.models.official_list_q: members with
    dues paid, guests on request); none for a federation whose default list is everyone with points."""
    if not official:
        return "", []
    return (
        " AND ((p.status = 'member' AND p.dues_paid_until >= %s) OR (p.status = 'guest' AND p.listed_on_request))",
        [day],
    )


def _listed(federation_id: int, official: bool, day) -> tuple[str, list]:
    """The default list's players with their key, home club and its district."""
    regions = _table(Club.regions.through)
    clubs_sql = f"""
        SELECT cr.club_id,
               COALESCE(MIN(CASE WHEN r.kind = 'district' THEN r.id END), MIN(r.parent_id)) AS district_id
        FROM {regions} cr JOIN {_table(Region)} r ON r.id = cr.region_id GROUP BY cr.club_id"""  # noqa: S608 - table names from the models
    condition, params = _official(official, day)
    sql = f"""
        SELECT s.player_id, s.sort_key, hm.club_id AS home_club_id, cd.district_id
        FROM {_table(Standing)} s
        JOIN {_table(Player)} p ON p.id = s.player_id
        LEFT JOIN {_table(ClubMembership)} hm ON hm.player_id = s.player_id AND hm.is_home
        LEFT JOIN ({clubs_sql}) cd ON cd.club_id = hm.club_id
        WHERE s.federation_id = %s{condition}"""  # noqa: S608 - values as parameters
    return sql, [federation_id, *params]


def _delete_unlisted(federation_id: int, official: bool, day) -> tuple[str, list]:
    """The places of players no longer on the list (an anti-join: its cost grows with the list, not with
    the list times the places, as ``NOT IN`` over a subquery larger than the sort memory would)."""
    condition, params = _official(official, day)
    places = _table(StandingPlace)
    sql = f"""
        DELETE FROM {places} WHERE federation_id = %s AND NOT EXISTS (
            SELECT 1 FROM {_table(Standing)} s JOIN {_table(Player)} p ON p.id = s.player_id
            WHERE s.player_id = {places}.standing_id AND s.federation_id = %s{condition})"""  # noqa: S608 - values as parameters
    return sql, [federation_id, federation_id, *params]


_COLUMNS = (
    "position",
    "place",
    "district_id",
    "district_position",
    "district_place",
    "club_id",
    "club_place",
    "ranking_place",
)


def _upsert(federation_id: int, official: bool, day) -> tuple[str, list]:
    """One INSERT … SELECT of the places that differ from those stored: every place is derived and compared
    with its stored row in one join, and only the rows that changed go through the upsert (a conflict
    checked row by row costs an index probe and a speculative insert each, most of a refresh where little
    changed)."""
    listed, params = _listed(federation_id, official, day)
    members = _table(ClubMembership)
    places = _table(StandingPlace)
    district_window = "PARTITION BY district_id ORDER BY sort_key DESC"
    differs = " OR ".join(f"p.{c} IS DISTINCT FROM s.{c}" for c in _COLUMNS)
    sql = f"""
        WITH listed AS ({listed}),
        ranked AS (
            SELECT player_id, home_club_id, district_id,
                ROW_NUMBER() OVER (ORDER BY sort_key DESC, player_id) AS position,
                RANK() OVER (ORDER BY sort_key DESC) AS place,
                ROW_NUMBER() OVER ({district_window}, player_id) AS district_position,
                RANK() OVER ({district_window}) AS district_place
            FROM listed),
        clubbed AS (
            SELECT m.player_id, m.club_id,
                RANK() OVER (PARTITION BY m.club_id ORDER BY l.sort_key DESC) AS club_place
            FROM {members} m JOIN listed l ON l.player_id = m.player_id
            WHERE m.until IS NULL),
        listing AS (
            SELECT player_id, RANK() OVER (ORDER BY score DESC) AS ranking_place
            FROM {_table(RankingListEntry)} WHERE federation_id = %s),
        placed AS (
            SELECT r.player_id AS standing_id, r.position, r.place, r.district_id,
                CASE WHEN r.district_id IS NULL THEN NULL ELSE r.district_position END AS district_position,
                CASE WHEN r.district_id IS NULL THEN NULL ELSE r.district_place END AS district_place,
                r.home_club_id AS club_id, c.club_place, g.ranking_place
            FROM ranked r
            LEFT JOIN clubbed c ON c.player_id = r.player_id AND c.club_id = r.home_club_id
            LEFT JOIN listing g ON g.player_id = r.player_id)
        INSERT INTO {places} (standing_id, federation_id, {", ".join(_COLUMNS)})
        SELECT p.standing_id, %s, {", ".join(f"p.{c}" for c in _COLUMNS)}
        FROM placed p LEFT JOIN {places} s ON s.standing_id = p.standing_id
        WHERE s.standing_id IS NULL OR {differs}
        ON CONFLICT (standing_id) DO UPDATE SET
            {", ".join(f"{column} = excluded.{column}" for column in _COLUMNS)}
    """  # noqa: S608 - table names from the models, values as parameters
    return sql, [*params, federation_id, federation_id]
