"""The monthly title e-mail (§ 451B) against a real SMTP server on localhost (aiosmtpd): each achievement is
announced exactly once, also when the job runs twice or is killed half-way; the job writes each club's mail
to the outbox, whose drain sends it and retries a failure with back-off; a mail that fails its last attempt
is reported and written again, never dropped (issue 33)."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import email
import email.policy
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from urllib.parse import quote

import pytest
from aiosmtpd.controller import Controller
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from clubs.models import ClubMembership
from federation import outbox
from federation.models import AuditEvent, JobRun, Player
from federation.outbox import outbox_drain
from federation.schemes import scheme_of
from masterpoints.models import Award, TitleAchievement, TitleMailing
from masterpoints.standings.services import standings_refresh_players
from masterpoints.title_mail import services
from masterpoints.title_mail.services import month_check, month_parse, title_mail_run
from masterpoints.title_mail.tasks import title_mail_monthly
from tests.factories import post_award

REPO = Path(__file__).resolve().parents[3]
OCTOBER = datetime.date(2025, 10, 1)
TODAY = datetime.date(2025, 10, 1)


class Inbox:
    """An SMTP handler that keeps every accepted message; it can refuse the next sends or kill a process."""

    def __init__(self):
        self.messages: list[email.message.EmailMessage] = []
        self.refuse = 0
        self.kill_pid_on: tuple[int, int] | None = None  # (pid, n): SIGKILL the sender at its n-th message
        self.received = 0
        self.delay = 0.0  # seconds each message takes to be accepted (overlapping senders)
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        if self.delay:
            await asyncio.sleep(self.delay)
        with self.lock:
            self.received += 1
            if self.kill_pid_on and self.received == self.kill_pid_on[1]:
                os.kill(self.kill_pid_on[0], signal.SIGKILL)  # dies in the middle of its second club
                return "421 4.3.0 gone"
            if self.refuse:
                self.refuse -= 1
                return "451 4.3.0 try again later"
            self.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))
            return "250 OK"

    def texts(self) -> list[str]:
        return [m.get_body(("plain",)).get_content() for m in self.messages]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def inbox():
    handler = Inbox()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    handler.port = controller.port
    yield handler
    controller.stop()


@pytest.fixture
def smtp(settings, inbox):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = inbox.port
    return inbox


def member(club, number, bp=0, *, first="Ole", fed=None, **fields):
    player = Player.objects.create(
        federation=fed or club.federation, number=number, first_name=first, last_name=f"L{number}", **fields
    )
    ClubMembership.objects.create(player=player, club=club, is_home=True)
    if bp:
        earn(player, "BP" if player.federation.scheme == "dbf" else "black", bp)
    return player


def earn(player, kind, units, day=datetime.date(2025, 9, 10)):
    Award.objects.create(
        federation_id=player.federation_id,
        player=player,
        kind=kind,
        units=units,
        source="manual",
        reason="test",
        awarded_on=day,
    )
    standings_refresh_players(federation=player.federation, player_ids=[player.pk])


@pytest.fixture
def clubs(world):
    world.club_a.email, world.club_a.language = "a@example.com", "da"
    world.club_a.save()
    world.club_b.email, world.club_b.language = "b@example.com", "en"
    world.club_b.save()
    return world


def run(**kwargs):
    """A run, and the outbox's drain after it (a worker's, or the laptop's after each club's commit)."""
    month = kwargs.pop("month", OCTOBER)
    reports = title_mail_run(month=month, today=kwargs.pop("today", TODAY), **kwargs)
    outbox_drain()
    return reports


# --- who is announced, in which language -------------------------------------------------------------------


def test_each_club_is_mailed_its_members_new_titles_in_its_own_language_with_text_and_html_451b(clubs, smtp):
    anna = member(clubs.club_a, "501", 250, first="Anna")
    bo = member(clubs.club_b, "502", 250, first="Bo")
    member(clubs.club_b, "503", 100)  # no title yet
    reports = run(federations=[clubs.dbf])
    assert [o.result for o in reports["dbf"].outcomes] == ["queued", "queued"]
    by_to = {m["To"]: m for m in smtp.messages}
    danish, english = by_to["a@example.com"], by_to["b@example.com"]
    assert "oktober 2025" in danish["Subject"] and "October 2025" in english["Subject"]
    assert "Anna L501 (501): Klubmester" in danish.get_body(("plain",)).get_content()
    assert "<td>Anna L501</td>" in danish.get_body(("html",)).get_content()
    assert (
        "502" in english.get_body(("plain",)).get_content() and "503" not in english.get_body(("plain",)).get_content()
    )
    assert TitleAchievement.objects.filter(player__in=[anna, bo], announced_at__isnull=False).count() == 2
    assert AuditEvent.objects.filter(action="title_mail.sent").count() == 2


def test_members_close_to_their_next_title_are_listed_beside_the_new_ones_451b(clubs, smtp):
    member(clubs.club_b, "511", 250)  # club B writes English
    close = member(clubs.club_b, "512", 480, first="Nær")  # klubmester; 4.80 of the 5 MP of Klubmester ★
    TitleAchievement.objects.filter(player=close).update(
        announced_at=datetime.datetime(2025, 9, 1, tzinfo=datetime.UTC)
    )
    run(federations=[clubs.dbf])
    text = next(t for t in smtp.texts() if "511" in t)  # club B's mail, in English
    announced, _sep, near = text.partition("Close to their next one")
    assert "511" in announced and "512" not in announced
    assert "Nær L512 (512): Klubmester → Klubmester ★" in near


def test_of_several_new_rungs_the_highest_is_announced_and_every_one_marked_404(clubs, smtp):
    p = member(clubs.club_a, "521", 250)
    earn(p, "BP", 300)  # 5.50 MP: Klubmester ★ on top of Klubmester, both unannounced
    run(federations=[clubs.dbf])
    assert "Klubmester ★" in smtp.texts()[0]
    assert not TitleAchievement.objects.filter(player=p, announced_at__isnull=True).exists()


def test_the_mail_gives_the_day_each_title_was_reached_and_the_etui_to_hand_over_404a_451b_d_q21_d_q22(clubs, smtp):
    """§ 404A: the title is gained on registration: the day the entries registered reached it (D-Q21), not
    the latest award;
    the club hands over the etui of the column "Modtager" (§ 451B "Systemkortetui overrækkes i klubben")."""
    p = Player.objects.create(federation=clubs.dbf, number="591", first_name="Eva", last_name="Etui")
    ClubMembership.objects.create(player=p, club=clubs.club_b, is_home=True)
    for day, units in (
        (datetime.date(2025, 9, 2), 150),
        (datetime.date(2025, 9, 9), 60),
        (datetime.date(2025, 9, 16), 20),
    ):
        post_award(p, "BP", units, day=day, registered=day, reason="test")
    standings_refresh_players(federation=clubs.dbf, player_ids=[p.pk])
    run(federations=[clubs.dbf])
    [message] = smtp.messages
    text, html = message.get_body(("plain",)).get_content(), message.get_body(("html",)).get_content()
    # Issue 18 and 38: dates as the club's language writes them (English ISO; Danish "9. september 2025").
    assert "Eva Etui (591): Klubmester, 2025-09-09 – hand over: grønt etui" in text
    assert "<td>2025-09-09</td><td>grønt etui</td>" in html and "To hand over" in html


def test_hbs_categories_are_announced_to_the_hbs_club_in_croatian_h2(world, smtp):
    world.club_hr.email = "zg@example.com"
    world.club_hr.save()
    member(world.club_hr, "9001", 60, fed=world.hbs)  # 60 black: vankategornik
    run(federations=[world.hbs])
    [message] = smtp.messages
    assert "listopad" in message["Subject"].lower() and "Vankategornik" in smtp.texts()[0]
    assert "etui" not in message.get_body(("html",)).get_content()  # the HBS ladder names none (D-Q22)


# --- exactly once --------------------------------------------------------------------------------------------


def test_running_twice_announces_every_title_once_and_a_later_title_goes_in_a_later_mail_451b(clubs, smtp):
    member(clubs.club_a, "531", 250)
    run(federations=[clubs.dbf])
    again = run(federations=[clubs.dbf])
    assert again["dbf"].outcomes == [] and len(smtp.messages) == 1
    newcomer = member(clubs.club_a, "532", 250)
    call_command("send_title_emails", "--month", "2025-10", "--federation", "dbf")  # October's mail: sent already
    outbox_drain()
    assert len(smtp.messages) == 1 and TitleAchievement.objects.get(player=newcomer).announced_at is None
    run(month=datetime.date(2025, 11, 1), today=datetime.date(2025, 11, 1), federations=[clubs.dbf])
    assert len(smtp.messages) == 2 and "532" in smtp.texts()[1] and "531" not in smtp.texts()[1]


def test_a_refused_send_is_retried_by_the_outbox_after_its_back_off_and_then_delivered(clubs, smtp):
    p = member(clubs.club_a, "541", 250)
    smtp.refuse = 1
    [outcome] = run(federations=[clubs.dbf])["dbf"].outcomes
    mailing = TitleMailing.objects.get()
    assert outcome.result == "queued" and smtp.messages == []
    assert (mailing.status, mailing.attempts) == ("pending", 1) and "451" in mailing.last_error
    assert TitleAchievement.objects.get(player=p).announced_at is None
    outbox_drain(now=timezone.now() + outbox.RETRY_BASE)
    mailing.refresh_from_db()
    assert (mailing.status, mailing.attempts, mailing.last_error) == ("sent", 2, "") and len(smtp.messages) == 1
    assert TitleAchievement.objects.get(player=p).announced_at is not None


def test_a_mail_that_fails_its_last_attempt_is_recorded_and_written_again_by_the_next_run(clubs, smtp, monkeypatch):
    monkeypatch.setattr(outbox, "MAX_ATTEMPTS", 2)
    p = member(clubs.club_a, "551", 250)
    smtp.refuse = 2
    call_command("send_title_emails", "--month", "2025-10", "--federation", "dbf")  # queued: exit status 0
    outbox_drain()
    outbox_drain(now=timezone.now() + outbox.RETRY_BASE)
    mailing = TitleMailing.objects.get()
    assert mailing.status == "failed" and mailing.attempts == 2 and "refused the mail 2 times" in mailing.last_error
    assert TitleAchievement.objects.get(player=p).announced_at is None
    assert AuditEvent.objects.filter(action="title_mail.failed").exists()
    job = JobRun.objects.get(kind=JobRun.Kind.TITLE_MAIL)
    assert (job.figures["queued"], job.figures["sent"], job.figures["failed"]) == (0, 0, 1)
    call_command("send_title_emails", "--month", "2025-10", "--federation", "dbf")
    outbox_drain()
    mailing.refresh_from_db()
    assert mailing.status == "sent" and len(smtp.messages) == 1
    assert TitleAchievement.objects.get(player=p).announced_at is not None


def test_a_sent_mail_whose_record_fails_is_logged_and_never_sent_again(clubs, smtp, monkeypatch, caplog):
    """The outbox tells the title mail in a savepoint: should recording the send fail, the mail stays sent
    (one delivery) and the failure is logged, with the mailing left queued for the office to see."""

    def broken(**kwargs):
        raise RuntimeError("record failed")

    monkeypatch.setattr(services, "title_mail_settled", broken)
    member(clubs.club_a, "558", 250)
    run(federations=[clubs.dbf])
    assert outbox_drain(now=timezone.now() + outbox.LEASE * 2) == {"sent": 0, "failed": 0}
    assert len(smtp.messages) == 1 and "could not record the attempt" in caplog.text
    assert TitleMailing.objects.get().status == "pending"


def test_a_club_without_an_address_is_reported_and_its_members_stay_pending(clubs, smtp):
    clubs.club_a.email = ""
    clubs.club_a.save()
    p = member(clubs.club_a, "561", 250)
    [outcome] = run(federations=[clubs.dbf])["dbf"].outcomes
    assert outcome.result == "failed" and "no e-mail address" in outcome.error
    assert TitleAchievement.objects.get(player=p).announced_at is None and smtp.messages == []
    with pytest.raises(CommandError, match="1 club mails failed"):
        call_command("send_title_emails", "--month", "2025-10", "--federation", "dbf")


def test_players_without_a_home_club_are_counted_not_lost(clubs, smtp):
    p = Player.objects.create(federation=clubs.dbf, number="571", first_name="X", last_name="Y")
    earn(p, "BP", 250)
    report = run(federations=[clubs.dbf])["dbf"]
    assert report.homeless == 1 and TitleAchievement.objects.get(player=p).announced_at is None


def test_the_dry_run_sends_and_writes_nothing(clubs, smtp, capsys):
    member(clubs.club_a, "581", 250)
    call_command("send_title_emails", "--month", "2025-10", "--dry-run", "--federation", "dbf")
    assert "dry_run (1 new, 0 close)" in capsys.readouterr().out
    assert smtp.messages == [] and not TitleMailing.objects.exists()
    assert not TitleAchievement.objects.filter(announced_at__isnull=False).exists()


# --- refusals -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("month", [5, 6, 7, 8])
def test_no_title_mail_goes_out_from_may_to_august_451b(month):
    with pytest.raises(ValidationError) as error:
        month_check(scheme="dbf", month=datetime.date(2025, month, 1), today=datetime.date(2025, 12, 1))
    assert error.value.code == "MONTH_NOT_MAILED"
    assert "September, October, November, December, January, February, March, April" in error.value.messages[0]


def test_a_rule_set_of_other_mailing_months_is_followed_and_named_in_the_refusal_451b():
    """A dated rule set's ``title_mail_months`` decides (the refusal names them, not DBf's September–April)."""
    january_only = dataclasses.replace(scheme_of("dbf").current_rules, title_mail_months=(1,))
    today = datetime.date(2025, 12, 1)
    month_check(scheme="dbf", month=datetime.date(2025, 1, 1), today=today, rules=january_only)
    with pytest.raises(ValidationError) as error:
        month_check(scheme="dbf", month=datetime.date(2025, 10, 1), today=today, rules=january_only)
    assert "mails new titles in January only (title_mail_months, § 451B), not in 2025-10" in error.value.messages[0]


def test_a_month_that_has_not_begun_is_refused():
    with pytest.raises(ValidationError) as error:
        month_check(scheme="dbf", month=datetime.date(2026, 1, 1), today=datetime.date(2025, 12, 31))
    assert error.value.code == "MONTH_IN_FUTURE"


def test_a_month_not_written_yyyy_mm_is_refused(db):
    with pytest.raises(ValidationError) as error:
        month_parse("oktober")
    assert error.value.code == "MONTH_FORMAT"
    with pytest.raises(CommandError, match="YYYY-MM"):
        call_command("send_title_emails", "--month", "2025/10")


def test_the_beat_job_runs_on_the_first_of_september_to_april_451b():
    from django.conf import settings

    entry = settings.CELERY_BEAT_SCHEDULE["title-mail-monthly"]
    assert entry["task"] == "masterpoints.title_mail.tasks.title_mail_monthly"
    assert entry["schedule"].day_of_month == {1}
    assert entry["schedule"].month_of_year == {9, 10, 11, 12, 1, 2, 3, 4}


def test_the_task_sends_this_months_mail_and_declines_outside_the_season(clubs, smtp, monkeypatch):
    member(clubs.club_a, "591", 250)
    monkeypatch.setattr(timezone, "localdate", lambda: datetime.date(2025, 7, 1))
    assert "refused" in title_mail_monthly()
    monkeypatch.setattr(timezone, "localdate", lambda: datetime.date(2025, 10, 1))
    assert title_mail_monthly()["dbf"] == {"queued": 1}


# --- the admin record -------------------------------------------------------------------------------------------


def test_the_secretariat_sees_the_mailings_in_the_admin_and_a_director_does_not(
    clubs, smtp, client, personas, monkeypatch
):
    monkeypatch.setattr(outbox, "MAX_ATTEMPTS", 1)
    member(clubs.club_a, "595", 250)
    smtp.refuse = 1
    run(federations=[clubs.dbf])
    url = reverse("admin:masterpoints_titlemailing_changelist")
    client.force_login(personas.secretariat)
    response = client.get(url + "?status__exact=failed")
    assert response.status_code == 200 and "Bridgeklubben A" in response.content.decode()
    client.force_login(personas.director_a)
    assert client.get(url).status_code == 302
    client.logout()
    assert client.get(url).status_code == 302


# --- killed half-way: a real process, a real SMTP server -------------------------------------------------------

SEED = textwrap.dedent(
    """
    import datetime
    from clubs.models import ClubMembership
    from federation.models import Federation, Player
    from masterpoints.models import Award
    from masterpoints.standings.services import standings_refresh_players
    fed = Federation.objects.create(name="DBf", code="dbf", scheme="dbf", default_language="da")
    ids = []
    for c in range(1, 4):
        club = Club.objects.create(federation=fed, number=str(c), name=f"Klub {c}", email=f"k{c}@example.com")
        for p in range(1, 4):
            player = Player.objects.create(federation=fed, number=f"{c}0{p}", first_name="P", last_name=f"{c}{p}")
            ClubMembership.objects.create(player=player, club=club, is_home=True)
            Award.objects.create(federation=fed, player=player, kind="BP", units=250, source="manual",
                                 reason="seed", awarded_on=datetime.date(2025, 9, 1))
            ids.append(player.pk)
    standings_refresh_players(federation=fed, player_ids=ids)
    """
)


def _env(tmp_path, port):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        DEBUG="1",
        SQLITE_PATH=str(tmp_path / "db.sqlite3"),
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(port),
    )
    return env


def _manage(env, *args, **kwargs):
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=120, **kwargs
    )


def test_a_run_killed_in_the_middle_of_a_club_and_run_again_announces_every_title_exactly_once(tmp_path, inbox):
    """A separate process on its own database (Celery eager: the outbox is drained after each club's commit)
    is SIGKILLed while the SMTP server receives its second club's mail: the first club stays sent, the second
    stays queued under the dead drain's claim; the next run writes the third club, a drain once the claim has
    run out sends the second, a run after that finds nothing, and every member is in exactly one mail."""
    env = _env(tmp_path, inbox.port)
    assert _manage(env, "migrate", "--noinput").returncode == 0
    seeded = _manage(env, "shell", "-c", SEED)
    assert seeded.returncode == 0, seeded.stderr
    command = [sys.executable, "manage.py", "send_title_emails", "--month", "2025-10"]
    process = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    inbox.kill_pid_on = (process.pid, 2)
    process.wait(timeout=120)
    assert process.returncode == -signal.SIGKILL
    assert len(inbox.messages) == 1
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:
        announced = db.execute("SELECT COUNT(*) FROM masterpoints_titleachievement WHERE announced_at IS NOT NULL")
        assert announced.fetchone()[0] == 3  # the first club's three members, nobody else
    inbox.kill_pid_on = None
    first = _manage(env, "send_title_emails", "--month", "2025-10")
    assert first.returncode == 0, first.stderr
    assert "Klub 1" not in first.stdout and "Klub 2" not in first.stdout  # club 1 was sent, club 2 is queued
    assert "3 Klub 3: queued (3 new" in first.stdout and len(inbox.messages) == 2
    drain = (
        "import datetime; from django.utils import timezone; from federation import outbox; "
        "print(outbox.outbox_drain(now=timezone.now() + outbox.LEASE + datetime.timedelta(seconds=1)))"
    )
    drained = _manage(env, "shell", "-c", drain)
    assert drained.returncode == 0 and "'sent': 1" in drained.stdout, drained.stderr
    second = _manage(env, "send_title_emails", "--month", "2025-10")  # run again: nothing more goes out
    assert second.returncode == 0 and "nothing to announce" in second.stdout
    texts = [m.get_body(("plain",)).get_content() for m in inbox.messages]
    assert len(texts) == 3
    for number in [f"{c}0{p}" for c in range(1, 4) for p in range(1, 4)]:
        assert sum(f"({number}): Klubmester" in text for text in texts) == 1, number
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:
        rows = db.execute("SELECT status, COUNT(*) FROM masterpoints_titlemailing GROUP BY status").fetchall()
        assert rows == [("sent", 3)]
        pending = db.execute("SELECT COUNT(*) FROM masterpoints_titleachievement WHERE announced_at IS NULL")
        assert pending.fetchone()[0] == 0


# --- two senders at once: PostgreSQL's row locks ----------------------------------------------------------------


@pytest.mark.postgres
def test_two_runs_at_once_on_postgresql_mail_every_club_once_451b(tmp_path, inbox):
    """Two ``send_title_emails`` processes start together on one PostgreSQL database while the SMTP server
    is slow: a club's mailing is claimed with FOR UPDATE SKIP LOCKED, so each club's mail goes out once,
    by one of them, and every member's title is announced exactly once."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL): SQLite has no row locks to skip")
    import psycopg

    params = connection.settings_dict
    name = f"title_mail_{os.getpid()}"
    server = {"host": params["HOST"], "port": params["PORT"] or 5432, "user": params["USER"], "dbname": "postgres"}
    if params["PASSWORD"]:
        server["password"] = params["PASSWORD"]
    with psycopg.connect(**server, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name}")
        admin.execute(f"CREATE DATABASE {name}")
    try:
        env = _env(tmp_path, inbox.port)
        auth = quote(params["USER"], safe="") + (":" + quote(params["PASSWORD"], safe="") if params["PASSWORD"] else "")
        host = server["host"] or "localhost"
        env.update(DATABASE_URL=f"postgres://{auth}@{host}:{server['port']}/{name}", DB_CONN_MAX_AGE="0")
        migrated = _manage(env, "migrate", "--noinput")
        assert migrated.returncode == 0, migrated.stderr
        seeded = _manage(env, "shell", "-c", SEED)
        assert seeded.returncode == 0, seeded.stderr
        inbox.delay = 0.5
        command = [sys.executable, "manage.py", "send_title_emails", "--month", "2025-10"]
        runs = [
            subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)
        ]
        outputs = [run.communicate(timeout=120) for run in runs]
        assert [run.returncode for run in runs] == [0, 0], outputs
        texts = inbox.texts()
        assert len(texts) == 3  # one mail per club
        for number in [f"{c}0{p}" for c in range(1, 4) for p in range(1, 4)]:
            assert sum(f"({number}): Klubmester" in text for text in texts) == 1, number
        assert sum(out.count(": queued (") for out, _err in outputs) == 3, outputs
        with psycopg.connect(**{**server, "dbname": name}) as db:
            statuses = db.execute("SELECT status, COUNT(*) FROM masterpoints_titlemailing GROUP BY status").fetchall()
            pending = db.execute("SELECT COUNT(*) FROM masterpoints_titleachievement WHERE announced_at IS NULL")
            assert statuses == [("sent", 3)] and pending.fetchone()[0] == 0
    finally:
        with psycopg.connect(**server, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} (FORCE)")
