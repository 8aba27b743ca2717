"""My page and the players' monthly statement (issues 18 and 19): a player's own page and correction
requests only, the statement written exactly once per player and month (run twice, or killed midway and run
again), and the one-click unsubscribe link that needs no login and refuses a forged signature."""

from __future__ import annotations

import datetime
from unittest import mock

import pytest
from django.test import Client
from django.urls import reverse

from federation.models import Player
from masterpoints.models import CorrectionRequest, MonthlyStatement, NoticePreference
from masterpoints.notices import services
from tests.factories import make_tournament, post_award

NOVEMBER = datetime.date(2026, 11, 1)
TODAY = datetime.date(2026, 12, 2)


def _opted_in(player, user, email):
    player.user, player.email = user, email
    player.save(update_fields=["user", "email"])
    NoticePreference.objects.create(player=player, monthly_statement=True)
    return player


@pytest.fixture
def readers(world, personas, django_user_model):
    """Four DBf players with a login who opted in, each with 16 BP registered on 10 November 2026."""
    players = [_opted_in(world.player, personas.player, "karen@example.com")]
    for n in range(3):
        user = django_user_model.objects.create_user(f"reader{n}", f"reader{n}@example.com", "pw")
        player = Player.objects.create(federation=world.dbf, number=f"20{n}", first_name="R", last_name=f"L{n}")
        players.append(_opted_in(player, user, f"reader{n}@example.com"))
    for player in players:
        post_award(player, "BP", 16, registered=datetime.date(2026, 11, 10))
    return players


def _run(captured, **kwargs):
    with captured(execute=True):
        return services.monthly_statement_run(today=TODAY, site="https://mp.example", **kwargs)


# --- My page ----------------------------------------------------------------------------------------------


def test_my_page_shows_the_players_own_page_and_only_their_correction_requests_issue_19(
    client, world, personas, django_user_model
):
    tournament = make_tournament(world.dbf, world.club_a)
    other = Player.objects.create(federation=world.dbf, number="777", first_name="Ib", last_name="Other")
    mine = CorrectionRequest.objects.create(
        federation=world.dbf, player=world.player, tournament=tournament, text="Mine", requested_by=personas.player
    )
    theirs = CorrectionRequest.objects.create(
        federation=world.dbf, player=other, tournament=tournament, text="Theirs", requested_by=personas.director_a
    )
    client.force_login(personas.player)
    response = client.get(reverse("notices:account"))
    assert response.status_code == 200
    assert list(response.context["corrections"]) == [mine]
    page = response.content.decode()
    assert reverse("public:player", args=["dbf", "12345"]) in page
    assert mine.get_absolute_url() in page and theirs.get_absolute_url() not in page
    assert reverse("notices:account") in client.get(reverse("federation:home")).content.decode()


def test_my_page_is_for_a_login_linked_to_a_player_issue_19(client, personas):
    assert client.get(reverse("notices:account")).status_code == 302  # anonymous: to the login
    client.force_login(personas.director_a)
    assert client.get(reverse("notices:account")).status_code == 403
    assert reverse("notices:account") not in client.get(reverse("federation:home")).content.decode()


def test_the_player_turns_the_monthly_statement_on_and_off_on_my_page_issue_18(client, world, personas):
    client.force_login(personas.player)
    client.post(reverse("notices:preference"), {"monthly_statement": "on"})
    assert NoticePreference.objects.get(player=world.player).monthly_statement
    client.post(reverse("notices:preference"), {})
    assert not NoticePreference.objects.get(player=world.player).monthly_statement


# --- the statement, exactly once --------------------------------------------------------------------------


def test_the_statement_names_the_months_points_and_what_the_next_title_needs_issue_18(
    readers, mailoutbox, django_capture_on_commit_callbacks
):
    post_award(readers[0], "BP", 5, registered=datetime.date(2026, 10, 31))  # October: not in November's
    assert _run(django_capture_on_commit_callbacks) == {"sent": 4}
    mail = next(mail for mail in mailoutbox if mail.to == ["karen@example.com"])
    assert "2026-11" in mail.subject
    assert "16 BP" in mail.body and "21 BP" not in mail.body
    unsubscribe = mail.extra_headers["List-Unsubscribe"].strip("<>")
    assert unsubscribe.startswith("https://mp.example/notices/unsubscribe/") and unsubscribe in mail.body
    assert mail.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert MonthlyStatement.objects.get(player=readers[0], month=NOVEMBER).points == {"BP": 16, "SP": 0, "GP": 0}


def test_the_statement_says_what_the_next_title_needs_in_the_readers_language_not_the_jobs_404b(
    readers, mailoutbox, django_capture_on_commit_callbacks
):
    """The status is judged before the mail is rendered under the reader's language (DBf's default: Danish);
    the rule book's sentence on what is still needed (§ 404B) follows the reader, as the rest of the mail does."""
    assert _run(django_capture_on_commit_callbacks) == {"sent": 4}
    mail = next(mail for mail in mailoutbox if mail.to == ["karen@example.com"])
    assert "Mangler stadig, én af disse alene (BP og SP tæller med til SP og GP i forholdet 20 : 1, § 404B):" in (
        mail.body
    )
    assert "Still needed" not in mail.body


def test_running_the_monthly_job_twice_sends_each_player_one_statement_issue_18(
    readers, mailoutbox, django_capture_on_commit_callbacks
):
    assert _run(django_capture_on_commit_callbacks) == {"sent": 4}
    assert _run(django_capture_on_commit_callbacks) == {"already_sent": 4}
    assert sorted(mail.to[0] for mail in mailoutbox) == sorted(player.email for player in readers)


def test_a_run_dying_midway_is_finished_by_the_next_and_nobody_gets_two_issue_18(
    readers, mailoutbox, django_capture_on_commit_callbacks
):
    real, written = services._write_mail, []

    def dies_after_two(statement, **kwargs):
        if len(written) == 2:
            raise RuntimeError("worker killed")
        written.append(statement.player.pk)
        return real(statement, **kwargs)

    with mock.patch.object(services, "_write_mail", dies_after_two), pytest.raises(RuntimeError):
        _run(django_capture_on_commit_callbacks)
    assert len(mailoutbox) == 2 and MonthlyStatement.objects.count() == 2
    assert _run(django_capture_on_commit_callbacks) == {"already_sent": 2, "sent": 2}
    assert sorted(mail.to[0] for mail in mailoutbox) == sorted(player.email for player in readers)


def test_each_federations_statement_run_is_recorded_as_a_job_with_its_figures_and_a_failure_issue_19(
    world, readers, mailoutbox, django_capture_on_commit_callbacks
):
    """Issue 19 ("jobs visible"): the monthly task records a player-notices job per federation, with the
    players done of those to mail and the outcomes; a run dying midway ends its job as failed with the
    error, and the next run's job finishes the rest (each statement once)."""
    from federation.models import JobRun
    from masterpoints.notices.jobs import monthly_statement_jobs

    real, written = services._write_mail, []

    def dies_after_two(statement, **kwargs):
        if len(written) == 2:
            raise RuntimeError("worker killed")
        written.append(statement.player.pk)
        return real(statement, **kwargs)

    with (
        django_capture_on_commit_callbacks(execute=True),
        mock.patch.object(services, "_write_mail", dies_after_two),
        pytest.raises(RuntimeError),
    ):
        monthly_statement_jobs(today=TODAY, site="https://mp.example")
    failed = JobRun.objects.get(kind=JobRun.Kind.PLAYER_NOTICES, federation=world.dbf)
    assert failed.status == JobRun.Status.FAILED and "worker killed" in failed.message
    assert (failed.done, failed.total) == (2, 4)
    with django_capture_on_commit_callbacks(execute=True):
        done = monthly_statement_jobs(today=TODAY, site="https://mp.example")
    assert done["dbf"] == {"already_sent": 2, "sent": 2} and done["hbs"] == {}
    job = JobRun.objects.filter(kind=JobRun.Kind.PLAYER_NOTICES, federation=world.dbf).latest("pk")
    assert job.status == JobRun.Status.SUCCEEDED and job.figures == {"already_sent": 2, "sent": 2}
    assert job.finished_at is not None and (job.done, job.total) == (4, 4)
    assert len(mailoutbox) == 4


def test_no_statement_for_a_quiet_month_an_opted_out_player_or_a_month_not_over_issue_18(
    readers, mailoutbox, django_capture_on_commit_callbacks
):
    NoticePreference.objects.filter(player=readers[1]).update(monthly_statement=False)
    assert _run(django_capture_on_commit_callbacks, month=datetime.date(2026, 10, 1)) == {"nothing": 3}
    assert mailoutbox == [] and not MonthlyStatement.objects.exists()
    with pytest.raises(Exception) as refused:
        services.monthly_statement_run(today=TODAY, month=datetime.date(2026, 12, 1))
    assert refused.value.code == "MONTH_NOT_OVER"


def test_the_beat_schedule_runs_the_statement_job_on_the_months_first_days_issue_18(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["notices-monthly-statement"]
    assert entry["task"] == "masterpoints.notices.tasks.monthly_statements"
    assert entry["schedule"].day_of_month == set(range(1, 8))


# --- unsubscribe ------------------------------------------------------------------------------------------


def test_the_unsubscribe_link_asks_then_unsubscribes_without_a_login_issue_18(client, readers):
    url = reverse("notices:unsubscribe", args=[services.unsubscribe_token(readers[0])])
    page = client.get(url)
    assert page.status_code == 200 and NoticePreference.objects.get(player=readers[0]).monthly_statement
    assert client.post(url).status_code == 200
    assert not NoticePreference.objects.get(player=readers[0]).monthly_statement
    assert NoticePreference.objects.get(player=readers[1]).monthly_statement


def test_a_mail_programs_one_click_post_unsubscribes_without_a_csrf_token_rfc_8058_issue_18(readers):
    url = reverse("notices:unsubscribe", args=[services.unsubscribe_token(readers[1])])
    response = Client(enforce_csrf_checks=True).post(url, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert not NoticePreference.objects.get(player=readers[1]).monthly_statement


def test_an_unsubscribe_link_with_a_bad_signature_is_refused_and_changes_nothing_issue_18(client, readers):
    token = services.unsubscribe_token(readers[0])
    for bad in (token[:-3] + "abc", "not-a-token"):
        response = client.post(reverse("notices:unsubscribe", args=[bad]))
        assert response.status_code == 400 and "not valid" in response.content.decode()
    assert NoticePreference.objects.get(player=readers[0]).monthly_statement
