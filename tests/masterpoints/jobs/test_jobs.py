"""Issue 19 "The office's week runs without a developer": every job visible. The standings rebuild, the title
e-mails and the register import each leave a job record (who, when, how long, outcome, figures); the admin
starts the rebuild and the title e-mails (a dry run first) for the secretariat of the federation only, and
two racing rebuilds leave one running job."""

from __future__ import annotations

import datetime
import io
import smtplib
import threading
import time

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from clubs.models import ClubMembership
from federation import jobs
from federation.jobs import LEASE, job_progress, job_start
from federation.models import JobRun, Outbox, Player
from federation.outbox import RETRY_BASE, outbox_drain
from masterpoints.models import Standing, TitleAchievement, TitleMailing
from masterpoints.standings.jobs import standings_rebuild_job, standings_rebuild_request
from masterpoints.standings.services import standings_rebuild_figures, standings_refresh_players
from masterpoints.standings.tasks import standings_rebuild_all
from masterpoints.title_mail.jobs import title_mail_job
from masterpoints.title_mail.tasks import title_mail_monthly
from office.register.services import register_import
from tests.factories import post_award
from tests.office import admin_rows

OCTOBER = datetime.date(2025, 10, 1)
REBUILD = JobRun.Kind.STANDINGS_REBUILD


def job_page(job) -> str:
    return reverse("admin:federation_jobrun_change", args=[job.pk])


@pytest.fixture
def october(monkeypatch):
    """The office's today is 1 October 2025, a month of title e-mails (§ 451B)."""
    monkeypatch.setattr(timezone, "localdate", lambda *args: OCTOBER)


def titled(club, number):
    """A home member of ``club`` with 2.50 MP: Klubmester, not yet announced (§ 404A, § 451B)."""
    player = Player.objects.create(federation=club.federation, number=number, first_name="Ole", last_name=number)
    ClubMembership.objects.create(player=player, club=club, is_home=True)
    post_award(player, "BP", 250, day=datetime.date(2025, 9, 10))
    standings_refresh_players(federation=club.federation, player_ids=[player.pk])
    return player


# --- the standings rebuild ------------------------------------------------------------------------------------


def test_the_rebuild_button_records_a_finished_job_with_players_changed_and_its_duration_issue_19(
    client, world, personas, django_capture_on_commit_callbacks
):
    post_award(world.player, "BP", 250)  # the ledger has an award the standings do not show yet
    client.force_login(personas.secretariat)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("admin:masterpoints_standing_rebuild"), {"federation": world.dbf.pk})
    job = JobRun.objects.get(kind=REBUILD)
    assert response.status_code == 302 and response.url == job_page(job)
    assert (job.status, job.actor, job.federation) == ("succeeded", personas.secretariat, world.dbf)
    assert job.figures == {"players_changed": 1, "standings_written": 1, "titles_registered": 1}
    assert job.finished_at >= job.started_at
    page = client.get(job_page(job))
    assert page.status_code == 200
    body = page.content.decode()
    # Figures and duration in words, not stored keys and 0:00:00 (issue 38).
    assert "players whose standing changed: 1" in body and "players_changed" not in body
    assert "under a second" in body or " s</div>" in body
    assert Standing.objects.get(player=world.player).points("BP") == 250


def test_a_second_rebuild_of_the_same_federation_is_unchanged_and_says_so_in_its_figures_issue_19(world):
    post_award(world.player, "BP", 250)
    standings_rebuild_all(world.dbf.pk)
    assert standings_rebuild_all(world.dbf.pk)["dbf"]["players_changed"] == 0
    assert JobRun.objects.filter(kind=REBUILD, status="succeeded").count() == 2


def test_a_rebuild_clicked_while_one_runs_is_refused_naming_the_running_job_issue_19(client, world, personas):
    client.force_login(personas.secretariat)
    first = client.post(reverse("admin:masterpoints_standing_rebuild"), {"federation": world.dbf.pk})
    running = JobRun.objects.get(kind=REBUILD)  # queued: no drain ran in this test's transaction
    second = client.post(reverse("admin:masterpoints_standing_rebuild"), {"federation": world.dbf.pk}, follow=True)
    assert first.url == job_page(running)
    assert JobRun.objects.running().filter(kind=REBUILD).count() == 1
    assert f"#{running.pk}" in second.content.decode() and "still running" in second.content.decode()
    with pytest.raises(ValidationError) as refused:
        standings_rebuild_request(actor=personas.secretariat, federation=world.dbf)
    assert refused.value.code == "JOB_RUNNING"


def test_a_rebuild_whose_worker_stopped_beating_is_ended_as_worker_lost_and_a_new_one_starts_d_q49(
    client, world, personas
):
    """Issue 33 (9): a worker killed mid-rebuild blocked rebuilds for two hours. Its heartbeat stopped, so
    once older than the lease the next start ends it as failed, naming the last heartbeat, on the job page."""
    lost = job_start(kind=REBUILD, federation=world.dbf, actor=None)
    beat = timezone.now() - LEASE - datetime.timedelta(seconds=1)
    JobRun.objects.filter(pk=lost.pk).update(started_at=beat, heartbeat_at=beat)
    fresh = job_start(kind=REBUILD, federation=world.dbf, actor=None)
    lost.refresh_from_db()
    assert (lost.status, fresh.status) == ("failed", "running")
    assert lost.message.startswith("Worker lost: no heartbeat since") and lost.finished_at is not None
    client.force_login(personas.secretariat)
    page = client.get(job_page(lost)).content.decode()
    assert "Worker lost" in page and "Last sign of life" in page


def test_a_rebuild_with_a_fresh_heartbeat_still_refuses_the_second_start_even_hours_after_it_began_d_q49(world):
    running = job_start(kind=REBUILD, federation=world.dbf, actor=None)
    long_ago = timezone.now() - datetime.timedelta(hours=3)  # a long rebuild, but its worker still beats
    JobRun.objects.filter(pk=running.pk).update(started_at=long_ago, heartbeat_at=timezone.now() - LEASE / 2)
    with pytest.raises(ValidationError) as refused:
        job_start(kind=REBUILD, federation=world.dbf, actor=None)
    assert refused.value.code == "JOB_RUNNING" and f"#{running.pk}" in refused.value.messages[0]
    running.refresh_from_db()
    assert running.status == "running"


def test_progress_refreshes_the_heartbeat(world, monkeypatch):
    job = job_start(kind=REBUILD, federation=world.dbf, actor=None)
    later = timezone.now() + datetime.timedelta(minutes=5)
    monkeypatch.setattr(timezone, "now", lambda: later)
    job_progress(job, done=1, total=2)
    job.refresh_from_db()
    assert job.heartbeat_at == later


@pytest.mark.django_db(transaction=True)
def test_a_running_rebuild_beats_from_its_own_thread_while_one_long_statement_holds_it(world, monkeypatch):
    """A rebuild's statements run inside its one transaction, where a progress write would stay invisible:
    a thread beats on its own connection meanwhile and commits, so the job is seen alive from outside."""
    monkeypatch.setattr(jobs, "BEAT", datetime.timedelta(milliseconds=10))
    job = job_start(kind=REBUILD, federation=world.dbf, actor=None)
    before = JobRun.objects.get(pk=job.pk).heartbeat_at
    beaten = threading.Event()
    beat = jobs._beat

    def counted_beat(job_id):
        beat(job_id)
        beaten.set()

    def long_statement(**kwargs):
        assert beaten.wait(30)  # the statement outlasts a beat (a bound for a stalled test, not a timing)
        return standings_rebuild_figures(**kwargs)

    monkeypatch.setattr(jobs, "_beat", counted_beat)
    monkeypatch.setattr("masterpoints.standings.jobs.standings_rebuild_figures", long_statement)
    standings_rebuild_job(job=job)
    job.refresh_from_db()
    assert job.status == "succeeded" and job.heartbeat_at > before
    assert not [thread for thread in threading.enumerate() if thread.name == f"job-{job.pk}-heartbeat"]


def test_only_the_federations_own_secretariat_starts_a_rebuild_issue_19(client, world, personas):
    url, dbf = reverse("admin:masterpoints_standing_rebuild"), {"federation": world.dbf.pk}
    client.force_login(personas.director_a)  # a club director has no admin at all
    assert client.post(url, dbf).url.startswith(reverse("admin:login"))
    client.force_login(personas.commission)  # staff of DBf, but not its secretariat
    assert client.post(url, dbf).status_code == 403
    client.force_login(admin_rows.hbs_secretariat(world))  # the secretariat of another federation
    assert client.post(url, dbf).status_code == 403
    client.force_login(personas.secretariat)
    assert client.get(url).status_code == 405  # POST only
    assert not JobRun.objects.filter(federation=world.dbf).exists()


def test_the_command_and_the_nightly_task_record_their_rebuilds_too_issue_19(world):
    call_command("recompute_standings", "--full", "--federation", "dbf", stdout=io.StringIO())
    standings_rebuild_all()
    assert JobRun.objects.filter(kind=REBUILD, actor=None, status="succeeded").count() == 3  # dbf, then dbf and hbs


# --- the title e-mails -------------------------------------------------------------------------------------------


def test_a_title_mail_run_records_mails_queued_and_failed_and_ends_failed_naming_the_club_issue_19_451b(world):
    world.club_a.email = "a@example.com"
    world.club_a.save()
    titled(world.club_a, "701")
    titled(world.club_b, "702")  # club B has no e-mail address: its mail cannot be queued
    job = job_start(kind=JobRun.Kind.TITLE_MAIL, federation=world.dbf, actor=None)
    title_mail_job(job=job, month=OCTOBER, today=OCTOBER)
    job.refresh_from_db()
    assert job.status == "failed" and "Bridgeklubben B" in job.message
    assert (job.figures["queued"], job.figures["failed"], job.figures["sent"]) == (1, 1, 0)
    assert (job.done, job.total) == (2, 2)
    assert not mail.outbox  # the job sends nothing itself: the outbox's drain does
    outbox_drain()
    job.refresh_from_db()
    assert (job.figures["queued"], job.figures["sent"], job.figures["announced"]) == (0, 1, 1)
    assert len(mail.outbox) == 1


class DownBackend:
    """An SMTP server that is away: every send raises at once, and is counted."""

    calls = 0

    def __init__(self, **kwargs):
        pass

    def open(self):
        DownBackend.calls += 1
        raise smtplib.SMTPConnectError(421, "mail server down")

    def close(self):
        pass

    def send_messages(self, messages):
        self.open()


@pytest.fixture
def smtp_down(settings, monkeypatch):
    """The mail server is down, and nothing may sleep (a job never waits for it, issue 33)."""
    DownBackend.calls = 0
    settings.EMAIL_BACKEND = f"{__name__}.DownBackend"

    def no_sleep(seconds):
        raise AssertionError(f"slept {seconds} s")

    monkeypatch.setattr(time, "sleep", no_sleep)
    return settings


def test_with_the_mail_server_down_the_title_mail_job_queues_each_clubs_mail_and_ends_without_trying_it_issue_33(
    world, smtp_down, django_capture_on_commit_callbacks
):
    """Issue 33 (9): SMTP down cost 35 s a club inside the job. The job writes each club's mail to the outbox
    in the club's transaction and ends; each commit's drain tries that mail once and leaves it for later."""
    for club, number in ((world.club_a, "731"), (world.club_b, "732")):
        club.email = f"{number}@example.com"
        club.save()
        titled(club, number)
    job = job_start(kind=JobRun.Kind.TITLE_MAIL, federation=world.dbf, actor=None)
    with django_capture_on_commit_callbacks() as drains:
        title_mail_job(job=job, month=OCTOBER, today=OCTOBER)
    job.refresh_from_db()
    assert job.status == "succeeded" and DownBackend.calls == 0  # it ended without asking the mail server
    assert (job.figures["queued"], job.figures["sent"], job.figures["failed"]) == (2, 0, 0)
    mails = Outbox.objects.filter(kind="mail").order_by("pk")
    assert [entry.payload["to"] for entry in mails] == [["731@example.com"], ["732@example.com"]]
    for drain in drains:  # after each club's commit (Celery eager; a worker's drain task otherwise)
        drain()
    assert DownBackend.calls == 2 and list(TitleMailing.objects.values_list("status", flat=True)) == ["pending"] * 2
    assert all(entry.attempts == 1 and "mail server down" in entry.last_error for entry in mails.all())


def test_a_title_mail_waits_out_its_back_off_and_is_sent_by_a_drain_once_the_mail_server_is_back_issue_33(
    world, smtp_down, settings, monkeypatch
):
    world.club_a.email = "a@example.com"
    world.club_a.save()
    player = titled(world.club_a, "741")
    job = job_start(kind=JobRun.Kind.TITLE_MAIL, federation=world.dbf, actor=None)
    title_mail_job(job=job, month=OCTOBER, today=OCTOBER)
    start = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: start)
    outbox_drain()  # attempt 1 fails: the next in RETRY_BASE, then twice that
    outbox_drain(now=start + RETRY_BASE - datetime.timedelta(seconds=1))
    assert DownBackend.calls == 1  # not yet due
    outbox_drain(now=start + RETRY_BASE)
    assert DownBackend.calls == 2
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"  # the server is back
    outbox_drain(now=start + RETRY_BASE + 2 * RETRY_BASE - datetime.timedelta(seconds=1))
    assert not mail.outbox  # the second back-off is twice the first
    outbox_drain(now=start + 3 * RETRY_BASE)
    assert [message.to for message in mail.outbox] == [["a@example.com"]]
    mailing = TitleMailing.objects.get()
    assert (mailing.status, mailing.attempts, mailing.last_error) == ("sent", 3, "")
    assert TitleAchievement.objects.get(player=player).announced_at == start
    job.refresh_from_db()
    assert (job.figures["queued"], job.figures["sent"], job.figures["announced"]) == (0, 1, 1)


def test_the_monthly_title_mails_run_twice_while_the_mail_server_is_down_queue_each_clubs_mail_once_issue_33(
    world, smtp_down, october
):
    world.club_a.email = "a@example.com"
    world.club_a.save()
    titled(world.club_a, "751")
    assert title_mail_monthly()["dbf"] == {"queued": 1}
    assert title_mail_monthly()["dbf"] == {}  # its achievements wait in the queued mail
    assert Outbox.objects.filter(kind="mail").count() == 1
    second = JobRun.objects.filter(kind=JobRun.Kind.TITLE_MAIL, federation=world.dbf).first()
    assert second.status == "succeeded" and second.figures["queued"] == 0


def test_the_title_mail_dry_run_sends_nothing_and_the_confirmation_queues_a_recorded_run_issue_19(
    client, world, personas, october, django_capture_on_commit_callbacks
):
    world.club_a.email = "a@example.com"
    world.club_a.save()
    titled(world.club_a, "711")
    client.force_login(personas.secretariat)
    url = reverse("admin:federation_jobrun_title_mail")
    check = client.post(url, {"federation": world.dbf.pk, "month": "2025-10", "check": "1"})
    assert check.status_code == 200 and [o.result for o in check.context["report"].outcomes] == ["dry_run"]
    assert 'name="send"' in check.content.decode()
    assert not mail.outbox and not TitleMailing.objects.exists() and not JobRun.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        sent = client.post(url, {"federation": world.dbf.pk, "month": "2025-10", "send": "1"})
    job = JobRun.objects.get(kind=JobRun.Kind.TITLE_MAIL)
    assert sent.url == job_page(job)
    assert (job.status, job.figures["queued"], job.figures["sent"], job.figures["failed"]) == ("succeeded", 0, 1, 0)
    assert len(mail.outbox) == 1


def test_a_refused_title_mail_check_says_why_once_issue_19_451b(client, world, personas, october):
    """Issue 19 ("one refusal message, once"): a month that has not begun is refused on the page, once."""
    client.force_login(personas.secretariat)
    url = reverse("admin:federation_jobrun_title_mail")
    page = client.post(url, {"federation": world.dbf.pk, "month": "2099-12", "check": "1"}).content.decode()
    assert page.count("2099-12 has not begun") == 1, page


def test_the_monthly_schedule_and_the_command_record_a_job_per_federation_issue_19(world, october):
    world.club_a.email = "a@example.com"
    world.club_a.save()
    titled(world.club_a, "721")
    assert title_mail_monthly()["dbf"] == {"queued": 1}
    jobs = {job.federation.code: job for job in JobRun.objects.filter(kind=JobRun.Kind.TITLE_MAIL)}
    assert set(jobs) == {"dbf", "hbs"} and {job.status for job in jobs.values()} == {"succeeded"}
    assert (jobs["dbf"].figures["queued"], jobs["hbs"].figures["queued"]) == (1, 0)
    call_command("send_title_emails", "--federation", "dbf", "--month", "2025-10", stdout=io.StringIO())
    assert JobRun.objects.filter(kind=JobRun.Kind.TITLE_MAIL, federation=world.dbf).count() == 2
    call_command("send_title_emails", "--dry-run", "--month", "2025-10", stdout=io.StringIO())
    assert JobRun.objects.filter(kind=JobRun.Kind.TITLE_MAIL).count() == 3  # a dry run is no job


def test_a_title_mail_run_beside_a_running_one_is_recorded_not_refused_issue_19(world):
    """The title e-mails claim each club once (SKIP LOCKED), so a run killed half-way never blocks the next."""
    job_start(kind=JobRun.Kind.TITLE_MAIL, federation=world.dbf, actor=None)
    job_start(kind=JobRun.Kind.TITLE_MAIL, federation=world.dbf, actor=None)
    assert JobRun.objects.running().filter(kind=JobRun.Kind.TITLE_MAIL).count() == 2


def test_a_club_director_and_another_federations_secretariat_cannot_send_the_title_mails_issue_19(
    client, world, personas, october
):
    url = reverse("admin:federation_jobrun_title_mail")
    client.force_login(personas.director_a)
    assert client.post(url, {"federation": world.dbf.pk, "month": "2025-10", "send": "1"}).status_code == 302
    client.force_login(admin_rows.hbs_secretariat(world))
    refused = client.post(url, {"federation": world.dbf.pk, "month": "2025-10", "send": "1"})
    assert refused.status_code == 200 and "federation" in refused.context["form"].errors
    assert not JobRun.objects.exists()


# --- the register import and the job list ----------------------------------------------------------------------


HEADER = (
    b"record;number;first_name;last_name;email;birth_year;status;dues_paid_until;"
    b"club;name;since;until;home;role;region\n"
)


def test_a_register_import_records_its_figures_and_a_bad_file_a_failed_job_issue_19(world, personas):
    data = HEADER + b"player;777;Eva;Holm;;1970;member;2025-12-31;;;;;;;\n"
    register_import(actor=personas.secretariat, federation=world.dbf, data=data, dry_run=False)
    job = JobRun.objects.get(kind=JobRun.Kind.REGISTER_IMPORT)
    assert (job.status, job.actor, job.figures["players_added"]) == ("succeeded", personas.secretariat, 1)
    with pytest.raises(ValidationError):
        register_import(actor=personas.secretariat, federation=world.dbf, data=b"nonsense\n", dry_run=False)
    failed = JobRun.objects.get(kind=JobRun.Kind.REGISTER_IMPORT, status="failed")
    assert "header" in failed.message and failed.finished_at is not None
    register_import(actor=personas.secretariat, federation=world.dbf, data=data, dry_run=True)
    assert JobRun.objects.filter(kind=JobRun.Kind.REGISTER_IMPORT).count() == 2  # a dry run is no job


def test_the_job_list_shows_only_the_users_federations_newest_first_issue_19(client, world, personas):
    older = job_start(kind=REBUILD, federation=world.dbf, actor=None)
    JobRun.objects.filter(pk=older.pk).update(started_at=timezone.now() - datetime.timedelta(hours=1))
    newer = job_start(kind=JobRun.Kind.TITLE_MAIL, federation=world.dbf, actor=None)
    job_start(kind=REBUILD, federation=world.hbs, actor=None)
    client.force_login(personas.secretariat)
    response = client.get(reverse("admin:federation_jobrun_changelist"))
    assert [row.pk for row in response.context["cl"].result_list] == [newer.pk, older.pk]
    assert not response.context["has_add_permission"]
    assert "Rebuild the standings of DBf" in response.content.decode()
    assert "Rebuild the standings of HBS" not in response.content.decode()
    client.force_login(personas.director_a)
    assert client.get(reverse("admin:federation_jobrun_changelist")).status_code == 302


def test_a_job_duration_is_said_in_words_issue_38():
    from masterpoints.jobs.admin import duration_words

    assert [duration_words(s) for s in (0.4, 42, 185, 3720)] == ["under a second", "42 s", "3 min 5 s", "1 h 2 min"]


def test_a_figure_is_named_by_what_it_counts_in_its_job_issue_38():
    from masterpoints.jobs.admin import figure_label

    assert figure_label("sent", JobRun.Kind.TITLE_MAIL) == "mails sent"
    assert figure_label("sent", JobRun.Kind.PLAYER_NOTICES) == "statements sent"
    assert figure_label("players_added", JobRun.Kind.REGISTER_IMPORT) == "players added"
