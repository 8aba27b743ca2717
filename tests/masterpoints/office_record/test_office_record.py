"""The office's record of a player and the withdrawal of a tournament (issue 38, part 1)."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Sum
from django.urls import reverse

from federation.models import AuditEvent
from masterpoints.models import Award, CorrectionRequest, Standing, TournamentWithdrawal
from masterpoints.office_record.services import tournament_withdraw
from masterpoints.standings.services import standings_refresh_players
from tests.factories import make_player, make_tournament, post_award

pytestmark = pytest.mark.django_db


def _balance(player) -> int:
    return Award.objects.filter(player=player).aggregate(total=Sum("units"))["total"] or 0


def test_withdrawing_reverses_every_award_audits_and_takes_the_event_off(world, personas, tournament, award):
    other = make_player(world.dbf, "10043")
    post_award(other, "BP", 8, source="result", tournament=tournament)
    standings_refresh_players(federation=world.dbf, player_ids=[world.player.pk, other.pk])

    withdrawal = tournament_withdraw(actor=personas.secretariat, tournament=tournament, reason="  wrong  organiser ")

    assert withdrawal.reason == "wrong organiser" and withdrawal.reversed_awards == 2
    assert _balance(world.player) == 0 and _balance(other) == 0
    reversals = Award.objects.filter(source="reversal", tournament=tournament)
    assert {r.reverses_id for r in reversals} == set(Award.objects.filter(source="result").values_list("pk", flat=True))
    assert all("wrong organiser" in r.reason for r in reversals)
    assert Standing.objects.get(player=other).points("BP") == 0
    tournament.refresh_from_db()
    assert not tournament.is_current
    event = AuditEvent.objects.get(action="tournament.withdraw")
    assert event.payload["reversed"] == 2 and event.actor == personas.secretariat


def test_a_withdrawal_is_refused_without_a_reason_twice_or_to_others(world, personas, tournament, award):
    with pytest.raises(ValidationError):
        tournament_withdraw(actor=personas.secretariat, tournament=tournament, reason="   ")
    with pytest.raises(PermissionDenied):
        tournament_withdraw(actor=personas.director_a, tournament=tournament, reason="cancelled")
    with pytest.raises(PermissionDenied):
        tournament_withdraw(actor=personas.commission, tournament=tournament, reason="cancelled")
    tournament_withdraw(actor=personas.secretariat, tournament=tournament, reason="cancelled")
    with pytest.raises(ValidationError):
        tournament_withdraw(actor=personas.secretariat, tournament=tournament, reason="again")
    assert Award.objects.filter(source="reversal").count() == 1
    assert TournamentWithdrawal.objects.count() == 1


def test_a_later_upload_of_a_withdrawn_event_is_a_first_upload(world, personas, tournament, award):
    tournament_withdraw(actor=personas.secretariat, tournament=tournament, reason="cancelled")
    again = make_tournament(world.dbf, world.club_a, key=tournament.event_key)  # the current-per-event key is free
    assert again.is_current


def test_the_record_shows_balances_ledger_filtered_by_season_and_links(client, world, personas, tournament, award):
    old = make_tournament(world.dbf, world.club_b, key="t-old", day=datetime.date(2023, 9, 1), name="Gammel")
    post_award(world.player, "SP", 15, source="result", tournament=old, day=datetime.date(2023, 9, 1))
    standings_refresh_players(federation=world.dbf, player_ids=[world.player.pk])
    client.force_login(personas.secretariat)
    url = reverse("admin:masterpoints_player_record", args=[world.player.pk])

    page = client.get(url).content.decode()
    assert "Mandagsturnering" in page and "Gammel" in page and "Bridgeklubben B" in page
    assert reverse("public:player", args=["dbf", "12345"]) in page
    assert reverse("admin:masterpoints_player_correction", args=[world.player.pk]) in page
    season = world.dbf.scheme_info.season_of(datetime.date(2023, 9, 1))
    only_old = client.get(url, {"season": season}).content.decode()
    assert "Gammel" in only_old and "Mandagsturnering" not in only_old
    only_bp = client.get(url, {"kind": "BP"}).content.decode()
    assert "Mandagsturnering" in only_bp and "Gammel" not in only_bp


def test_the_player_list_links_each_player_to_their_record(client, world, personas):
    client.force_login(personas.secretariat)
    page = client.get(reverse("admin:federation_player_changelist"), {"q": "12345"}).content.decode()
    assert reverse("admin:masterpoints_player_record", args=[world.player.pk]) in page
    change = client.get(reverse("admin:federation_player_change", args=[world.player.pk])).content.decode()
    assert reverse("admin:masterpoints_player_record", args=[world.player.pk]) in change


def test_only_the_players_federation_reads_the_record(client, world, personas):
    hbs_player = make_player(world.hbs, "501")
    client.force_login(personas.secretariat)
    assert client.get(reverse("admin:masterpoints_player_record", args=[hbs_player.pk])).status_code == 403
    client.force_login(personas.commission)
    assert client.get(reverse("admin:masterpoints_player_record", args=[world.player.pk])).status_code == 200
    assert client.get(reverse("admin:masterpoints_player_correction", args=[world.player.pk])).status_code == 403
    client.force_login(personas.director_a)
    assert client.get(reverse("admin:masterpoints_player_record", args=[world.player.pk])).status_code == 302


def test_the_office_files_a_correction_of_an_award_of_any_season(client, world, personas, tournament):
    old = make_tournament(world.dbf, world.club_b, key="t-old", day=datetime.date(2019, 9, 1), name="Gammel")
    award = post_award(world.player, "BP", 12, source="result", tournament=old, day=datetime.date(2019, 9, 1))
    client.force_login(personas.secretariat)
    url = reverse("admin:masterpoints_player_correction", args=[world.player.pk])
    form = client.get(url).content.decode()
    assert "2019-09-01 · Gammel · Bridgeklubben B (1002): 12 BP" in form

    response = client.post(url, {"award": award.pk, "text": "Should be 14 BP."})

    correction = CorrectionRequest.objects.get()
    assert response.status_code == 302 and correction.award == award and correction.player == world.player
    assert correction.requested_by == personas.secretariat


def test_the_tournament_page_shows_the_withdrawal_and_speaks_of_no_reader(client, world, personas, tournament, award):
    tournament_withdraw(actor=personas.secretariat, tournament=tournament, reason="wrong organiser")
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "Withdrawn by the secretariat" in page and "wrong organiser" in page
    assert "You finished" not in page


def test_the_withdraw_page_posts_the_withdrawal(client, world, personas, tournament, award):
    client.force_login(personas.secretariat)
    url = reverse("admin:masterpoints_tournament_withdraw", args=[tournament.pk])
    assert "Withdraw the tournament" in client.get(url).content.decode()
    response = client.post(f"{url}?player={world.player.pk}", {"reason": "cancelled"})
    assert response.status_code == 302 and TournamentWithdrawal.objects.get().reason == "cancelled"
    client.force_login(personas.director_a)
    refused = client.post(url, {"reason": "x"})  # a club director is no admin user: sent to the admin's login
    assert refused.status_code == 302 and refused["Location"].startswith(reverse("admin:login"))
    assert TournamentWithdrawal.objects.get().reason == "cancelled"
