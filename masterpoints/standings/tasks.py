"""Celery tasks of the standings: arguments are ids, each body calls one service, each is idempotent.

A recomputation replaces a derived set inside one transaction, so running a task twice (a retry, a
duplicate delivery) gives the same rows. Retries only on transient database errors (a deadlock or a
dropped connection).
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.core.exceptions import ValidationError
from django.db import OperationalError
from django.utils import timezone

from federation.models import Federation, JobRun
from masterpoints.standings.freshness import standings_stale_players
from masterpoints.standings.jobs import standings_rebuild_job, standings_rebuild_recorded
from masterpoints.standings.places import places_due, places_refresh
from masterpoints.standings.services import (
    standings_ranking_roll,
    standings_refresh_players,
    standings_refresh_tournament,
)

logger = logging.getLogger(__name__)

_RETRY = {"autoretry_for": (OperationalError,), "retry_backoff": True, "max_retries": 5}


@shared_task(name="masterpoints.standings.tasks.standings_update_tournament", **_RETRY)
def standings_update_tournament(tournament_id: int) -> int:
    """After a confirmed upload: the standings of the tournament's players (and of the version it replaced)."""
    return standings_refresh_tournament(tournament_id=tournament_id)


@shared_task(name="masterpoints.standings.tasks.standings_update_players", **_RETRY)
def standings_update_players(federation_id: int, player_ids: list[int]) -> int:
    """After a correction or foreign points: the standings of these players."""
    federation = Federation.objects.get(pk=federation_id)
    return standings_refresh_players(federation=federation, player_ids=player_ids)


@shared_task(name="masterpoints.standings.tasks.standings_rebuild_all", **_RETRY)
def standings_rebuild_all(federation_id: int | None = None, job_id: int | None = None) -> dict[str, dict]:
    """Nightly, and on demand from the admin: every standing rebuilt from the ledger, each federation's
    recorded as a job. ``job_id``: the job the admin recorded when it queued this (its
    federation's); without it, a job is recorded here for each federation (``federation_id``: only that
    one), and a federation whose rebuild is already running is left to it.

    A transient database error ends the job as failed (recorded with the error); the retry of a queued job
    then finds it ended and does nothing, while the nightly run's retry records a new job and runs again.
    Returns the figures per federation code (an already running one: the refusal's code)."""
    if job_id is not None:
        job = JobRun.objects.select_related("federation", "actor").get(pk=job_id)
        if job.status != JobRun.Status.RUNNING:
            return {}  # a redelivery of a job that has ended: nothing to do again
        return {job.federation.code: standings_rebuild_job(job=job)}
    federations = Federation.objects.order_by("pk")
    if federation_id is not None:
        federations = federations.filter(pk=federation_id)
    done: dict[str, dict] = {}
    for federation in federations:
        try:
            done[federation.code] = standings_rebuild_recorded(federation=federation)
        except ValidationError as refused:
            logger.warning("standings rebuild of %s not started: %s", federation.code, " ".join(refused.messages))
            done[federation.code] = {"refused": refused.code}
    return done


@shared_task(name="masterpoints.standings.tasks.standings_ranking_roll_all", **_RETRY)
def standings_ranking_roll_all() -> dict[str, int]:
    """Daily after midnight: the ranking list's figures that change today (D-Q59), in every federation that
    has the list. Returns how many players were recomputed per federation."""
    return {
        federation.code: standings_ranking_roll(federation=federation)
        for federation in Federation.objects.order_by("pk")
        if federation.scheme_info.ranking_list is not None
    }


#: Players per update task queued by :func:`standings_freshness`.
FRESHNESS_PART = 500


@shared_task(name="masterpoints.standings.tasks.standings_freshness", ignore_result=True)
def standings_freshness() -> int:
    """Every minute (beat): queue the update of every player whose standing is older than their ledger
    (:mod:`masterpoints.standings.freshness`), so that a task lost with a killed worker costs a minute or
    two, not the hour until the broker redelivers it. Idempotent: a fresh standing is never queued, and the
    update itself replaces the derived rows. Returns how many players were queued."""
    queued = 0
    for federation_id, player_ids in standings_stale_players().items():
        for start in range(0, len(player_ids), FRESHNESS_PART):
            part = player_ids[start : start + FRESHNESS_PART]
            standings_update_players.apply_async((federation_id, part), ignore_result=True)
            queued += len(part)
    if queued:
        logger.warning("standings: %s players' standings were older than their ledger; their update is queued", queued)
    return queued


@shared_task(name="masterpoints.standings.tasks.standings_places", **_RETRY)
def standings_places(federation_id: int) -> int:
    """After a standings change (queued by ``places_soon``): the federation's places derived again. Returns
    how many rows changed (0 when they were already those of its standings version and today)."""
    federation = Federation.objects.get(pk=federation_id)
    return places_refresh(federation, day=timezone.localdate())


@shared_task(name="masterpoints.standings.tasks.standings_places_due", ignore_result=True)
def standings_places_due() -> dict[int, int]:
    """Every minute (beat): the places of every federation whose places are older than its standings or than
    today, so that a lost refresh costs at most a minute (``places.PLACES_BOUND_SECONDS``)."""
    day = timezone.localdate()
    return {pk: places_refresh(Federation.objects.get(pk=pk), day=day) for pk in places_due(day)}
