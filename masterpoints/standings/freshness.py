"""The safety net under the incremental standings updates: the players whose standing is older than their
ledger (read only; ``masterpoints.standings.tasks.standings_freshness`` queues their update every minute).

Every award is followed by a task that recomputes its players' standings. A worker killed while it holds
that task loses it for an hour (the broker redelivers an unacknowledged task only after its visibility
timeout), and an outbox entry is only as good as the worker that runs what it queued. This check finds such
players within a minute of their award settling.

Which standing is stale is decided by the ledger itself, not by clocks: the ledger is append-only, and a
standing records how many ledger rows it was computed from (``award_count``, every row of the player, of
every kind). A standing whose count differs from the player's rows now, or a player with rows and no
standing, was computed before their newest entry was committed. Comparing the standing's write time with the
newest award's ``created_at`` would need no count, but would miss an award written before and committed
after a recomputation (its time is older than the standing's, yet the standing never saw it), and would
compare the web server's clock with the database's.

Only players with a ledger row written in the last :data:`WINDOW` are looked at (among the newest
:data:`SCAN_ROWS` rows, read by primary key, which follows the order rows were written in); anything older
is the nightly rebuild's. Rows of the last :data:`SETTLE` are left to their own update, which is normally
under way.
"""

from __future__ import annotations

import datetime

from django.db.models import Count
from django.utils import timezone

from masterpoints.models import Award, Standing

#: Ledger rows written this long ago or less are looked at.
WINDOW = datetime.timedelta(hours=6)
#: Rows younger than this are left to their own update (queued after their commit, normally running now).
SETTLE = datetime.timedelta(seconds=30)
#: At most this many of the newest ledger rows are read to find the players to look at.
SCAN_ROWS = 200_000
#: At most this many stale players are returned per call (the next call finds the rest).
LIMIT = 5000


def standings_stale_players(*, now: datetime.datetime | None = None, limit: int = LIMIT) -> dict[int, list[int]]:
    """The players with a recent ledger row whose standing is missing or counts other rows than their
    ledger holds, as ``{federation id: [player ids]}`` (ascending; at most ``limit`` players in all).

    Idempotent: once their standings are recomputed the same call returns nothing."""
    now = now or timezone.now()
    newest = Award.objects.order_by("-pk").values_list("pk", flat=True).first()
    if newest is None:
        return {}
    recent = Award.objects.filter(
        pk__gt=newest - SCAN_ROWS, created_at__gte=now - WINDOW, created_at__lte=now - SETTLE
    ).values("player_id")
    ledger = (
        Award.objects.filter(player_id__in=recent)
        .values_list("federation_id", "player_id")
        .annotate(rows=Count("pk"))
        .order_by("player_id", "federation_id")
    )
    stored = {
        (federation_id, player_id): count
        for federation_id, player_id, count in Standing.objects.filter(player_id__in=recent)
        .values_list("federation_id", "player_id", "award_count")
        .order_by()
    }
    stale: dict[int, list[int]] = {}
    found = 0
    for federation_id, player_id, rows in ledger:
        if stored.get((federation_id, player_id)) == rows:
            continue
        stale.setdefault(federation_id, []).append(player_id)
        found += 1
        if found >= limit:
            break
    return stale
