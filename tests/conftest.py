"""Shared fixtures: two federations, clubs A and B, and the personas every view test uses."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings

from clubs.models import Club, ClubMembership
from federation.models import Federation, Player, Region
from office.services import officer_assign

REPO_ROOT = Path(__file__).resolve().parent.parent
SAMPLES = REPO_ROOT.parent / "shared" / "samples"

# Property tests check results, never speed: no per-example deadline, which a loaded machine or the
# coverage tracer would otherwise turn into failures (speed is measured by bench/, not by tests).
settings.register_profile("masterpoints", deadline=None)
settings.load_profile("masterpoints")


@dataclass
class World:
    dbf: Federation
    hbs: Federation
    district: Region
    circle: Region
    other_district: Region
    club_a: Club
    club_b: Club
    club_hr: Club
    player: Player


@pytest.fixture
def world(db) -> World:
    dbf = Federation.objects.create(name="DBf", code="dbf", scheme="dbf", default_language="da")
    hbs = Federation.objects.create(
        name="HBS", code="hbs", scheme="hbs", default_language="hr", time_zone="Europe/Zagreb"
    )
    district = Region.objects.create(federation=dbf, code="fyn", name="Distrikt Fyn", kind="district")
    circle = Region.objects.create(federation=dbf, code="odense", name="Kreds Odense", kind="circle", parent=district)
    other = Region.objects.create(federation=dbf, code="nord", name="Distrikt Nord", kind="district")
    club_a = Club.objects.create(federation=dbf, number="1001", name="Bridgeklubben A")
    club_a.regions.set([district, circle])
    club_b = Club.objects.create(federation=dbf, number="1002", name="Bridgeklubben B")
    club_b.regions.set([other])
    club_hr = Club.objects.create(federation=hbs, number="101", name="BK Zagreb")
    player = Player.objects.create(federation=dbf, number="12345", first_name="Karen", last_name="Jensen")
    ClubMembership.objects.create(player=player, club=club_a, is_home=True)
    return World(dbf, hbs, district, circle, other, club_a, club_b, club_hr, player)


@dataclass
class Personas:
    secretariat: object
    commission: object
    district_officer: object
    director_a: object
    director_b: object
    player: object


@pytest.fixture
def personas(world, django_user_model) -> Personas:
    def user(name):
        return django_user_model.objects.create_user(name, f"{name}@example.com", "pw-" + name)

    secretariat, commission, district_officer = user("secretariat"), user("commission"), user("district")
    director_a, director_b, player_user = user("director_a"), user("director_b"), user("player")
    officer_assign(actor=None, user=secretariat, role="secretariat", federation=world.dbf)
    officer_assign(actor=None, user=commission, role="commission", federation=world.dbf)
    officer_assign(
        actor=None, user=district_officer, role="region_officer", federation=world.dbf, region=world.district
    )
    officer_assign(actor=None, user=director_a, role="club_director", federation=world.dbf, club=world.club_a)
    officer_assign(actor=None, user=director_b, role="club_director", federation=world.dbf, club=world.club_b)
    world.player.user = player_user
    world.player.save(update_fields=["user"])
    return Personas(secretariat, commission, district_officer, director_a, director_b, player_user)


@pytest.fixture(autouse=True)
def _empty_cache():
    """Every test starts with an empty cache: a whole page or a standings version kept by an earlier test
    (whose database rows were rolled back) must not answer this one's requests.
    """
    from django.conf import settings
    from django.core.cache import cache
    from django.utils import translation

    cache.clear()
    # The site's language, not the one an earlier test's request left active (LocaleMiddleware activates the
    # reader's language for the thread and leaves it so): a test of text in English reads English.
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def places_at_once(request, monkeypatch):
    """A standings change derives its federation's places in its own transaction (the site queues that after
    commit, which a test's rolled-back transaction never reaches): a test reads the ranks of what it wrote.
    Tests marked ``places_queued`` keep the site's queue (``masterpoints.standings.places``)."""
    if request.node.get_closest_marker("places_queued"):
        return
    from django.utils import timezone

    from federation.models import Federation
    from masterpoints.standings import places, services

    def at_once(federation_id: int) -> None:
        places.places_refresh(Federation.objects.get(pk=federation_id), day=timezone.localdate())

    monkeypatch.setattr(services, "places_soon", at_once)


@pytest.fixture(autouse=True)
def eager_celery(request):
    """Tasks run in-process in tests (design.md: tasks are called directly), even when REDIS_URL points at a
    real broker; only tests marked ``redis`` send them through it to a real worker."""
    if request.node.get_closest_marker("redis"):
        yield
        return
    from celery._state import _set_task_join_will_block, task_join_will_block

    from config.celery import app

    before = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    blocks = task_join_will_block()
    app.conf.update(task_always_eager=True, task_eager_propagates=True)
    yield
    app.conf.update(task_always_eager=before[0], task_eager_propagates=before[1])
    # An eager task marks the process "inside a task" while it runs and puts back the mark it found; two at
    # once in threads (the race tests' confirms) can leave it set, and a later test's result.get() would be
    # refused ("Never call result.get() within a task!"). Put it back as it was.
    _set_task_join_will_block(blocks)


@pytest.fixture
def samples() -> Path:
    """The real result files in ../shared/samples; tests that need them skip when the folder is absent."""
    if not SAMPLES.is_dir():
        pytest.skip(f"the shared samples folder {SAMPLES} is absent (it sits beside the project checkout)")
    return SAMPLES


@pytest.fixture
def rate_window(monkeypatch, settings):
    """Per-address and per-token limits on, inside one fixed window of django-ratelimit: its windows turn at
    fixed times, and a test's calls straddling one would start a new count (a loaded machine makes that
    likely). The clock only stands still for the limiter."""
    import time
    from types import SimpleNamespace

    from django.core.cache import cache
    from django_ratelimit import core

    settings.RATELIMIT_ENABLE = True
    moment = float(int(time.time()))
    monkeypatch.setattr(core, "time", SimpleNamespace(time=lambda: moment))
    cache.clear()
    yield
    cache.clear()
