"""The outbox (design.md § Services): a finished action's e-mails and tasks are written in its transaction and
sent after commit with retries, so that a broker or SMTP outage neither fails the action nor loses them."""

from __future__ import annotations

import contextlib
import datetime
import smtplib
import threading

import pytest
from django.conf import settings
from django.core.mail.backends.locmem import EmailBackend
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone

from config.celery import app
from federation import outbox
from federation.models import Outbox, Player
from masterpoints.corrections.services import correction_request_file
from masterpoints.models import Standing
from office.services import officer_assign
from tests.factories import make_tournament, pairs_from_numbers, post_award, usebio_pairs
from tournaments.models import ResultUpload, SanctionApplication

#: Nothing listens here: every connection is refused at once.
UNREACHABLE = "redis://127.0.0.1:1/0"


@contextlib.contextmanager
def broker_away():
    """Celery as in production (not eager), pointed at a broker nobody answers on; put back afterwards."""

    def fresh_pools():
        app._pool = None
        app.amqp._producer_pool = None

    before = {"broker_url": app.conf.broker_url, "task_always_eager": app.conf.task_always_eager}
    app.conf.update(broker_url=UNREACHABLE, task_always_eager=False)
    fresh_pools()
    try:
        yield
    finally:
        app.conf.update(before)
        fresh_pools()


def later(minutes: int = 2) -> datetime.datetime:
    """A drain's clock once the first retry delay has passed."""
    return timezone.now() + datetime.timedelta(minutes=minutes)


def pending() -> list[Outbox]:
    return list(Outbox.objects.pending().order_by("pk"))


# --- the broker away ---------------------------------------------------------------------------------------


@pytest.fixture
def correction(world, personas, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    award = post_award(world.player, "BP", 16, source="result", tournament=make_tournament(world.dbf, world.club_a))
    request = correction_request_file(actor=personas.player, player=world.player, award=award, text="Nr. 2.")
    Outbox.objects.all().delete()  # the filing's receipt: not what these tests are about
    return request


def test_a_correction_granted_while_the_broker_is_away_answers_at_once_and_its_update_is_queued_later(
    client, world, personas, correction, mailoutbox, django_capture_on_commit_callbacks
):
    client.force_login(personas.commission)
    decide = reverse("admin:masterpoints_correctionrequest_decide", args=[correction.pk])
    form = {"grant": "yes", "reason": "Plads 2", "kind_1": "BP", "amount_1": "8"}
    form["plan_key"] = client.post(decide, form).context["plan_key"]  # the entries shown first (issue 19)
    with broker_away():
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(decide, form)
        assert response.status_code == 302
        correction.refresh_from_db()
        assert correction.status == "granted"
        kinds = sorted(entry.kind for entry in pending())
        assert kinds == ["mail", "task"]  # the requester's mail and the standings update, both kept
        assert all(entry.attempts == 0 for entry in pending())
        assert not Standing.objects.filter(player=world.player).exists()
        # A drain meanwhile: the mail goes out (SMTP is up); the task is tried, kept, and retried later.
        assert outbox.outbox_drain() == {"sent": 1, "failed": 1}
        (task,) = pending()
        assert (task.kind, task.attempts) == ("task", 1) and "OperationalError" in task.last_error
    # The broker is back: the next periodic drain queues the update (Celery eager here: it runs at once).
    assert outbox.outbox_drain(now=later()) == {"sent": 1, "failed": 0}
    assert pending() == []
    assert Standing.objects.get(player=world.player).points("BP") == 24
    assert [m.subject for m in mailoutbox if "player@example.com" in m.to]


def test_an_upload_confirmed_while_the_broker_is_away_answers_at_once_and_its_standings_follow(
    client, world, django_user_model, django_capture_on_commit_callbacks
):
    director = django_user_model.objects.create_user("direktor", "d@example.com", "pw")
    officer_assign(actor=None, user=director, role="club_director", federation=world.hbs, club=world.club_hr)
    numbers = [str(2001 + i) for i in range(24)]
    for number in numbers:
        Player.objects.create(federation=world.hbs, number=number, first_name="Igrač", last_name=number)
    data = usebio_pairs(
        club_number="101",
        date=datetime.date(2025, 3, 4),
        name="Zimski turnir",
        sections=[pairs_from_numbers(numbers, seed=7)],
        boards=24,
    )
    client.force_login(director)
    from django.core.files.uploadedfile import SimpleUploadedFile

    sent = client.post(
        reverse("uploads:upload"),
        {
            "organiser": f"club:{world.club_hr.pk}",
            "category": "black",
            "strength": "1",
            "file": SimpleUploadedFile("results.xml", data, content_type="text/xml"),
        },
    )
    assert sent.status_code == 302
    created = ResultUpload.objects.get()
    with broker_away():
        with django_capture_on_commit_callbacks(execute=True):
            done = client.post(reverse("uploads:confirm", args=[created.pk]), {"acknowledge_warnings": "on"})
        assert done.status_code == 302
        created.refresh_from_db()
        assert created.status == ResultUpload.Status.CONFIRMED
        (entry,) = pending()
        assert entry.payload["task"] == "masterpoints.standings.tasks.standings_update_tournament"
        assert not Standing.objects.filter(federation=world.hbs).exists()
    assert outbox.outbox_drain() == {"sent": 1, "failed": 0}
    assert Standing.objects.filter(federation=world.hbs, kind1__gt=0).count() > 0


def test_the_rebuild_button_answers_at_once_with_the_broker_away_and_the_rebuild_runs_once_it_is_back(
    client, world, personas, django_capture_on_commit_callbacks
):
    post_award(world.player, "BP", 250)
    client.force_login(personas.secretariat)
    with broker_away():
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post("/admin/masterpoints/standing/rebuild/")
        assert response.status_code == 302
        (entry,) = pending()
        assert (entry.payload["task"], entry.payload["args"]) == (
            "masterpoints.standings.tasks.standings_rebuild_all",
            [world.dbf.pk],
        )
    outbox.outbox_drain()
    assert Standing.objects.get(player=world.player).points("BP") == 250


def test_a_drain_after_commit_that_cannot_reach_the_broker_is_logged_never_raised(world, caplog):
    with broker_away():
        outbox.start_drain([1])
    assert "could not start a drain" in caplog.text


# --- the mail server away ----------------------------------------------------------------------------------


@pytest.fixture
def smtp_down(monkeypatch):
    def refuse(self, messages):
        raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")

    monkeypatch.setattr(EmailBackend, "send_messages", refuse)
    return monkeypatch


def test_a_sanction_filed_while_the_mail_server_is_down_answers_success_and_a_later_drain_mails_it(
    client, world, personas, mailoutbox, smtp_down, django_capture_on_commit_callbacks
):
    from clubs.models import PlayingTime

    monday = PlayingTime.objects.create(club=world.club_a, weekday=0, part_of_day="evening")
    day = timezone.localdate() + datetime.timedelta(days=100)
    form = {
        "club": world.club_a.pk,
        "name": "Sommerturnering",
        "category": "SP",
        "quota": "full",
        "basis": "quota",
        "playing_time": monday.pk,
        "date": day.isoformat(),
        "form": "pairs",
        "boards": "48",
        "entry_deadline": (day - datetime.timedelta(days=7)).isoformat(),
        "advertised_on": (day - datetime.timedelta(days=30)).isoformat(),
        "advertisement": "dansk_bridge_website",
        "open_to_all": "on",
    }
    client.force_login(personas.director_a)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("sanctions:apply"), form)
    application = SanctionApplication.objects.get()
    assert response.status_code == 302 and response.url == application.get_absolute_url()
    assert mailoutbox == []
    waiting = pending()
    assert {entry.kind for entry in waiting} == {"mail"} and waiting
    # The first mail failed (the others were left for later, SMTP being down), and is kept with its error.
    tried = [entry for entry in waiting if entry.attempts]
    assert len(tried) == 1 and "SMTPServerDisconnected" in tried[0].last_error
    smtp_down.undo()
    assert outbox.outbox_drain(now=later()) == {"sent": len(waiting), "failed": 0}
    assert pending() == []
    assert any("district@example.com" in m.to for m in mailoutbox)  # § 403B7: the district hears of it
    assert any("director_a@example.com" in m.to for m in mailoutbox)  # and the club gets its receipt


def test_a_failed_mail_waits_longer_after_each_attempt_and_is_left_alone_after_the_last(world, smtp_down):
    entry = outbox.enqueue_mail(subject="Hej", body="Tekst", to=["a@example.com"])
    now = entry.next_attempt_at
    waits = []
    for _ in range(8):
        assert outbox.outbox_drain(now=now) == {"sent": 0, "failed": 1}
        entry.refresh_from_db()
        waits.append(round((entry.next_attempt_at - now).total_seconds() / 60))
        before = entry.next_attempt_at - datetime.timedelta(seconds=1)
        assert outbox.outbox_drain(now=before) == {"sent": 0, "failed": 0}  # not due yet
        now = entry.next_attempt_at
    assert waits == [1, 2, 4, 8, 16, 32, 60, 60]
    Outbox.objects.filter(pk=entry.pk).update(attempts=outbox.MAX_ATTEMPTS)
    assert outbox.outbox_drain(now=later(24 * 60)) == {"sent": 0, "failed": 0}
    entry.refresh_from_db()
    assert entry.done_at is None and entry.last_error  # never dropped: the office can see it and send it again


# --- the outbox itself ---------------------------------------------------------------------------------------


def test_one_transaction_asks_for_one_drain_of_its_own_entries(world, django_capture_on_commit_callbacks, mailoutbox):
    with transaction.atomic():  # an earlier action, whose drain after commit never came (the test's transaction)
        earlier = outbox.enqueue_mail(subject="Før", body="-", to=["x@example.com"])
    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        outbox.enqueue_mail(subject="En", body="-", to=["a@example.com"])
        outbox.enqueue_mail(subject="To", body="-", to=["b@example.com"], cc=["c@example.com"], html="<p>To</p>")
    assert len(callbacks) == 1
    assert sorted(m.subject for m in mailoutbox) == ["En", "To"]
    (two,) = [m for m in mailoutbox if m.subject == "To"]
    assert two.cc == ["c@example.com"] and two.alternatives[0][1] == "text/html"
    assert [e.pk for e in pending()] == [earlier.pk]  # the periodic drain's, not this commit's


def test_a_rolled_back_action_leaves_no_entry_and_no_drain(world, django_capture_on_commit_callbacks):
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        contextlib.suppress(RuntimeError),
        transaction.atomic(),
    ):
        outbox.enqueue_task("federation.tasks.ping")
        raise RuntimeError("the action failed")
    assert callbacks == []
    assert not Outbox.objects.exists()


def test_a_task_takes_only_json_arguments(world):
    with pytest.raises(TypeError):
        outbox.enqueue_task("federation.tasks.ping", world.player)


def test_a_claimed_entry_is_not_taken_by_a_second_drain_until_its_lease_runs_out(world):
    entry = outbox.enqueue_task("federation.tasks.ping")
    now = timezone.now()
    claimed = outbox._claim(now, set(), None)
    assert claimed.pk == entry.pk and claimed.attempts == 1
    assert outbox._claim(now, set(), None) is None  # a second drain meanwhile
    assert outbox.outbox_drain(now=now + outbox.LEASE) == {"sent": 1, "failed": 0}  # its drain died: sent again
    entry.refresh_from_db()
    assert entry.done_at is not None and entry.attempts == 2


def test_entries_sent_long_ago_are_forgotten(world):
    old = outbox.enqueue_task("federation.tasks.ping")
    fresh = outbox.enqueue_task("federation.tasks.ping")
    Outbox.objects.update(done_at=timezone.now())
    Outbox.objects.filter(pk=old.pk).update(done_at=timezone.now() - outbox.KEEP_SENT - datetime.timedelta(days=1))
    outbox.outbox_drain()
    assert list(Outbox.objects.values_list("pk", flat=True)) == [fresh.pk]


def test_the_drain_and_the_freshness_job_run_every_minute():
    schedule = settings.CELERY_BEAT_SCHEDULE
    assert schedule["outbox-drain"]["task"] == "federation.tasks.outbox_drain"
    assert schedule["standings-freshness"]["task"] == "masterpoints.standings.tasks.standings_freshness"
    for name in ("outbox-drain", "standings-freshness"):
        every = schedule[name]["schedule"]
        assert every.minute == set(range(60)) and every.hour == set(range(24))
        assert app.tasks[schedule[name]["task"]]  # registered under that name


def test_publishing_is_bounded_by_short_broker_timeouts():
    options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
    assert settings.CELERY_BROKER_CONNECTION_TIMEOUT <= 1
    assert options["socket_connect_timeout"] <= 1 and options["socket_timeout"] <= 1
    assert settings.CELERY_REDIS_SOCKET_CONNECT_TIMEOUT <= 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_drain_skips_an_entry_another_drain_holds_instead_of_waiting_for_it(world):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL): SQLite has no row locks to skip")
    # Written directly: enqueued in autocommit, they would be drained at once.
    held, free = (Outbox.objects.create(kind="task", payload={"task": "federation.tasks.ping"}) for _ in range(2))
    locked, release = threading.Event(), threading.Event()

    def other_drain():
        try:
            with transaction.atomic():
                list(Outbox.objects.select_for_update().filter(pk=held.pk))
                locked.set()
                release.wait(timeout=30)
        finally:
            connection.close()

    thread = threading.Thread(target=other_drain)
    thread.start()
    try:
        assert locked.wait(timeout=10)
        # Had the drain waited for the held row, it would have taken both once the other released it.
        assert outbox.outbox_drain() == {"sent": 1, "failed": 0}
    finally:
        release.set()
        thread.join(timeout=30)
    assert set(Outbox.objects.pending().values_list("pk", flat=True)) == {held.pk}
    assert Outbox.objects.get(pk=free.pk).done_at is not None
