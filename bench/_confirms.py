"""The standings benchmark's uploads (``bench/standings.py``): a pairs tournament of the bench club uploaded
and confirmed through the upload service, and the figures around a confirm seen through gunicorn: confirm →
page, and the pages requested in the seconds after a confirm against the same pages when quiet.
"""

from __future__ import annotations

import datetime
import time

from _latency import Figures, balances, fetch, load

#: Seconds of page requests after each confirm (and of the quiet requests before it).
AFTER_SECONDS = 10


def bench_club():
    """The DBf-bench club with the most members (the uploads' host)."""
    from django.db.models import Count

    from clubs.models import Club
    from federation.models import Federation

    return (
        Club.objects.filter(federation=Federation.objects.order_by("pk").first())
        .annotate(n=Count("memberships"))
        .order_by("-n", "pk")
        .first()
    )


def upload_confirmed(club, numbers: list[str], day: datetime.date, name: str, *, seed: int = 4):
    """A pairs tournament of ``numbers`` at ``club`` uploaded and confirmed through the upload service."""
    from masterpoints.uploads.services import results_upload_confirm, results_upload_create
    from tests.factories import pairs_from_numbers, usebio_pairs

    data = usebio_pairs(
        club_number=club.number, date=day, name=name, sections=[pairs_from_numbers(numbers, seed=seed)], boards=26
    )
    facts = {"organiser_kind": "club", "category": "BP", "form": "", "boards": None, "met": None}
    upload = results_upload_create(
        actor=None,
        federation=club.federation,
        club=club,
        region=None,
        data=data,
        filename="bench.xml",
        facts=facts,
        trusted=True,
    )
    return results_upload_confirm(actor=None, upload=upload, acknowledge_warnings=True, trusted=True)


def member_numbers(club) -> list[str]:
    from clubs.models import ClubMembership

    members = ClubMembership.objects.filter(club=club).order_by("player__number")
    return list(members.values_list("player__number", flat=True))


def settle() -> None:
    """Derive the places of every federation whose standings changed since they were last derived (as the
    beat's minute would), so that the pages that follow read the steady state's places."""
    from django.utils import timezone

    from federation.models import Federation
    from masterpoints.standings.places import places_due, places_refresh

    day = timezone.localdate()
    for federation in Federation.objects.filter(pk__in=places_due(day)).order_by("pk"):
        places_refresh(federation, day=day)


def confirm_to_page(port: int, confirms: int, *, first: int) -> list[float]:
    """Milliseconds from the start of each confirm (a 10-pair tournament of the bench club, one a day back from
    ``first`` days ago) until the first pair's first player's public page shows changed balances."""
    club = bench_club()
    numbers = member_numbers(club)
    times = []
    for index in range(first, first + confirms):
        chosen = [numbers[(index * 20 + k) % len(numbers)] for k in range(20)]
        page = f"/players/{club.federation.code}/{chosen[0]}/"
        before = balances(fetch(port, page))
        day = datetime.date.today() - datetime.timedelta(days=index + 1)
        start = time.perf_counter()
        upload_confirmed(club, chosen, day, f"Bench confirm {index}", seed=index)
        while balances(fetch(port, page)) == before and time.perf_counter() - start < 60:
            time.sleep(0.01)
        times.append((time.perf_counter() - start) * 1000)
    return times


def idle(limit: float = 120) -> None:
    """Wait (at most ``limit`` seconds) until the Celery worker has nothing queued, reserved, scheduled or
    running: the standings jobs of the confirms before are done, so the pages that follow are quiet."""
    from celery import current_app

    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        with current_app.connection_for_write() as connection:
            queued = connection.default_channel.client.llen("celery")
        inspect = current_app.control.inspect(timeout=1)
        busy = [inspect.active(), inspect.reserved(), inspect.scheduled()]
        if not queued and all(found is not None and not any(found.values()) for found in busy):
            return
        time.sleep(0.5)
    print(f"  the worker was still busy after {limit:.0f} s")


def after_confirm(port: int, pages: list[str], *, first: int, rounds: int, clients: int) -> tuple[Figures, Figures]:
    """``pages`` (player and rankings pages) and the player pages a confirm changes, each rendered (a
    parameter the page ignores: no cached page), from ``clients`` threads: for :data:`AFTER_SECONDS` when the
    worker is idle (:func:`idle`) and the standings have settled (quiet), then for :data:`AFTER_SECONDS` right
    after a confirm (a 10-pair tournament of the bench club, one a day back from ``first`` days ago, updated
    by the Celery worker meanwhile); ``rounds`` of both. Returns the quiet and the after-confirm figures,
    each over all rounds."""
    club = bench_club()
    numbers = member_numbers(club)
    quiet, after = [], []
    for index in range(first, first + rounds):
        chosen = [numbers[(index * 20 + k) % len(numbers)] for k in range(20)]
        changed = [f"/players/{club.federation.code}/{number}/" for number in chosen]
        asked = [*changed, *pages, f"/rankings/?federation={club.federation_id}&club={club.pk}"]
        idle()
        settle()
        quiet.append(load(port, asked, 10**6, clients, AFTER_SECONDS, unique=True))
        day = datetime.date.today() - datetime.timedelta(days=index + 1)
        upload_confirmed(club, chosen, day, f"Bench confirm {index}", seed=index)
        after.append(load(port, asked, 10**6, clients, AFTER_SECONDS, unique=True))
    return Figures.pooled(*quiet), Figures.pooled(*after)
