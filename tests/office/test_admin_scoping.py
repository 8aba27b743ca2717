"""The admin keeps federations apart (design.md: every admin page, form choice and action is scoped).

Each leak a hostile test found is reproduced here and refused: the DBf secretariat changing or deleting HBS
rows, appointing itself HBS secretariat, reading HBS correction requests; the commission deleting a cup
series. And the positive side: the DBf secretariat still manages DBf rows, a superuser everything.
"""

from __future__ import annotations

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse

from clubs.models import Club
from federation.models import AuditEvent, Federation, Outbox, Player, Region, RuleSet
from masterpoints.models import CorrectionRequest, CupSeries
from masterpoints.standings.tasks import standings_rebuild_all
from office.access import admin_scope, federations_served, is_secretariat, may_appoint
from office.models import Officer
from office.services import officer_assign, officer_revoke
from tests.office import admin_rows
from tournaments.models import DirectorLicence, RecognisedTournament


@pytest.fixture
def tajnik(world):
    return admin_rows.hbs_secretariat(world)


def url(obj, view: str, *args) -> str:
    opts = obj._meta
    return reverse(f"admin:{opts.app_label}_{opts.model_name}_{view}", args=args or [obj.pk])


def changelist(model) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")


def listed(response) -> set:
    if response.status_code == 403:  # a workflow the user's rule book lacks has no list for them (issue 38)
        return set()
    return {row.pk for row in response.context["cl"].result_list}


def hidden(response) -> bool:
    """The admin's answer for a row outside the user's federations: it does not exist here; or, for a workflow
    the user's rule book lacks (HBS's recognised list for DBf's office), the page is refused (issue 38)."""
    return response.status_code == 403 or (response.status_code == 302 and response.url == reverse("admin:index"))


# --- office.access --------------------------------------------------------------------------------------


def test_staff_serve_their_own_federation_and_a_superuser_every_one(world, personas, tajnik, admin_user):
    assert list(federations_served(personas.secretariat)) == [world.dbf]
    assert list(federations_served(personas.commission)) == [world.dbf]
    assert list(federations_served(tajnik)) == [world.hbs]
    assert set(federations_served(admin_user)) == {world.dbf, world.hbs}
    for user in (personas.director_a, personas.district_officer, personas.player):
        assert not federations_served(user).exists()


def test_the_commission_writes_only_correction_requests_and_nobody_the_audit_log(world, personas, admin_user):
    assert admin_scope(personas.commission, "view", "player") == {world.dbf.pk}
    assert admin_scope(personas.commission, "change", "player") == frozenset()
    assert admin_scope(personas.commission, "change", "correctionrequest") == {world.dbf.pk}
    assert admin_scope(personas.commission, "delete", "correctionrequest") == frozenset()
    assert admin_scope(personas.secretariat, "change", "auditevent") == frozenset()
    assert admin_scope(admin_user, "delete", "player") is None


def test_only_a_federations_own_secretariat_appoints_its_officers(world, personas, tajnik):
    assert may_appoint(personas.secretariat, world.dbf)
    assert not may_appoint(personas.secretariat, world.hbs)
    assert not may_appoint(personas.commission, world.dbf)
    assert may_appoint(tajnik, world.hbs) and not may_appoint(tajnik, world.dbf)


# --- the DBf secretariat and HBS rows ---------------------------------------------------------------------


HBS_ROWS = {
    "player": admin_rows.player,
    "club": admin_rows.club,
    "region": admin_rows.region,
    "rule set": admin_rows.rule_set,
    "recognised tournament": admin_rows.recognised,
    "licence": admin_rows.licence,
    "membership": admin_rows.membership,
    "federation": admin_rows.federation,
    "officer": admin_rows.officer,
}


@pytest.mark.parametrize("kind", HBS_ROWS)
def test_the_dbf_secretariat_cannot_open_change_or_delete_an_hbs_row(client, world, personas, kind):
    row = HBS_ROWS[kind](world, "hbs")
    before = type(row).objects.filter(pk=row.pk).values().get()
    client.force_login(personas.secretariat)
    assert row.pk not in listed(client.get(changelist(type(row))))
    assert hidden(client.get(url(row, "change")))
    assert hidden(client.post(url(row, "change"), {"name": "Taken over", "last_name": "Taken"}))
    for refused in (client.get(url(row, "delete")), client.post(url(row, "delete"), {"post": "yes"})):
        # A federation is deleted by nobody (403 before any scope); any other row is hidden.
        assert refused.status_code == 403 if kind == "federation" else hidden(refused)
    delete_all = {"action": "delete_selected", ACTION_CHECKBOX_NAME: [row.pk], "post": "yes"}
    client.post(changelist(type(row)), delete_all)
    assert type(row).objects.filter(pk=row.pk).values().get() == before


def test_the_dbf_secretariat_cannot_add_a_player_or_region_to_hbs(client, world, personas):
    client.force_login(personas.secretariat)
    form = client.get(reverse("admin:federation_player_add")).context["adminform"].form
    assert list(form.fields["federation"].queryset) == [world.dbf]
    data = {"federation": world.hbs.pk, "number": "777", "first_name": "Iva", "last_name": "Kos", "status": "member"}
    response = client.post(reverse("admin:federation_player_add"), data)
    assert response.status_code == 200 and "federation" in response.context["adminform"].form.errors
    assert not Player.objects.filter(number="777").exists()
    data = {
        "federation": world.dbf.pk,
        "code": "x",
        "name": "X",
        "kind": "circle",
        "parent": admin_rows.region(world, "hbs").pk,
    }
    response = client.post(reverse("admin:federation_region_add"), data)
    assert response.status_code == 200 and "parent" in response.context["adminform"].form.errors
    assert not Region.objects.filter(code="x").exists()


def test_the_dbf_secretariat_cannot_put_an_hbs_player_into_a_dbf_club(client, world, personas):
    client.force_login(personas.secretariat)
    hbs_player = admin_rows.player(world, "hbs")
    data = {"player": hbs_player.pk, "club": world.club_b.pk, "is_home": ""}
    response = client.post(reverse("admin:clubs_clubmembership_add"), data)
    assert response.status_code == 200 and "player" in response.context["adminform"].form.errors
    assert not hbs_player.memberships.filter(club=world.club_b).exists()


def test_the_dbf_secretariat_cannot_list_a_dbf_rule_set_under_an_hbs_name_or_revoke_an_hbs_licence(
    client, world, personas
):
    licence = admin_rows.licence(world, "hbs")
    client.force_login(personas.secretariat)
    data = {"action": "revoke", ACTION_CHECKBOX_NAME: [licence.pk], "apply": "1", "reason": "Taken"}
    client.post(reverse("admin:tournaments_directorlicence_changelist"), data)
    licence.refresh_from_db()
    assert licence.revoked_at is None
    data = {"federation": world.hbs.pk, "valid_from": "2026-01-01", "name": "Moja", "payload": "{}", "note": ""}
    assert client.post(reverse("admin:federation_ruleset_add"), data).status_code == 200
    assert not RuleSet.objects.filter(federation=world.hbs).exists()


def test_the_dbf_secretariat_cannot_list_an_hbs_tournament(client, world, personas):
    client.force_login(personas.secretariat)
    data = {"federation": world.hbs.pk, "year": 2025, "name": "Kup", "strength_red": "1.2", "note": ""}
    response = client.post(reverse("admin:tournaments_recognisedtournament_add"), data)
    assert response.status_code == 403  # DBf's rule book has no recognised list (issue 38)
    assert not RecognisedTournament.objects.exists()


def test_the_federation_filter_offers_only_the_federations_served(client, world, personas, admin_user):
    def federation_choices():
        response = client.get(reverse("admin:federation_player_changelist"))
        specs = [spec for spec in response.context["cl"].filter_specs if spec.field_path == "federation"]
        return {pk for spec in specs for pk, _name in spec.lookup_choices}

    admin_rows.player(world, "hbs")
    client.force_login(admin_user)
    assert federation_choices() == {world.dbf.pk, world.hbs.pk}
    client.force_login(personas.secretariat)
    assert federation_choices() <= {world.dbf.pk}  # one federation: Django shows no filter at all


def test_nobody_but_a_superuser_sets_up_a_federation_or_changes_its_scheme(client, world, personas, admin_user):
    client.force_login(personas.secretariat)
    assert client.get(reverse("admin:federation_federation_add")).status_code == 403
    assert client.get(url(world.dbf, "delete")).status_code == 403
    data = {"name": "DBf", "default_language": "da", "time_zone": "Europe/Copenhagen", "contact_email": "a@dbf.dk"}
    assert client.post(url(world.dbf, "change"), {**data, "scheme": "hbs", "code": "x"}).status_code == 302
    world.dbf.refresh_from_db()
    assert (world.dbf.contact_email, world.dbf.scheme, world.dbf.code) == ("a@dbf.dk", "dbf", "dbf")
    client.force_login(admin_user)
    assert client.get(reverse("admin:federation_federation_add")).status_code == 200


# --- offices -----------------------------------------------------------------------------------------------


def appoint(client, user, role, federation, **scope):
    data = {"user": user.pk, "role": role, "federation": federation.pk, "club": "", "region": ""}
    data.update({key: value.pk for key, value in scope.items()})
    return client.post(reverse("admin:office_officer_add"), data)


def test_the_dbf_secretariat_cannot_appoint_itself_hbs_secretariat(client, world, personas):
    client.force_login(personas.secretariat)
    response = appoint(client, personas.secretariat, "secretariat", world.hbs)
    assert response.status_code == 200 and "federation" in response.context["adminform"].form.errors
    assert not Officer.objects.filter(user=personas.secretariat, federation=world.hbs).exists()
    assert not is_secretariat(personas.secretariat, world.hbs)
    # …and so HBS's pages stay closed to it.
    assert (
        client.get(reverse("admin:masterpoints_correctionwindow_add"))
        .context["adminform"]
        .form.fields["federation"]
        .queryset.get()
        == world.dbf
    )


def test_the_dbf_secretariat_cannot_appoint_a_director_of_an_hbs_club(client, world, personas):
    client.force_login(personas.secretariat)
    response = appoint(client, personas.player, "club_director", world.dbf, club=world.club_hr)
    assert response.status_code == 200 and "club" in response.context["adminform"].form.errors
    assert not Officer.objects.filter(club=world.club_hr).exists()


def test_the_dbf_secretariat_cannot_revoke_the_hbs_secretariat(client, world, personas, tajnik):
    office = Officer.objects.get(user=tajnik)
    client.force_login(personas.secretariat)
    assert hidden(client.get(url(office, "delete")))
    client.post(url(office, "delete"), {"post": "yes"})
    client.post(changelist(Officer), {"action": "delete_selected", ACTION_CHECKBOX_NAME: [office.pk], "post": "yes"})
    assert Officer.objects.filter(pk=office.pk).exists()


def test_the_commission_appoints_nobody(client, world, personas):
    client.force_login(personas.commission)
    assert client.get(reverse("admin:office_officer_add")).status_code == 403
    assert appoint(client, personas.commission, "secretariat", world.dbf).status_code == 403
    assert not Officer.objects.filter(user=personas.commission, role="secretariat").exists()


def test_the_dbf_secretariat_appoints_and_revokes_dbf_officers(client, world, personas):
    client.force_login(personas.secretariat)
    form = client.get(reverse("admin:office_officer_add")).context["adminform"].form
    assert list(form.fields["federation"].queryset) == [world.dbf]
    assert world.club_hr not in form.fields["club"].queryset
    assert appoint(client, personas.player, "club_director", world.dbf, club=world.club_b).status_code == 302
    office = Officer.objects.get(user=personas.player, club=world.club_b)
    assert client.post(url(office, "delete"), {"post": "yes"}).status_code == 302
    assert not Officer.objects.filter(pk=office.pk).exists()


# --- correction requests and cups ------------------------------------------------------------------------


def test_dbf_staff_cannot_read_an_hbs_correction_request(client, world, personas):
    hbs_request = admin_rows.correction_request(world, "hbs")
    dbf_request = admin_rows.correction_request(world, "dbf")
    for user in (personas.secretariat, personas.commission):
        client.force_login(user)
        assert listed(client.get(changelist(CorrectionRequest))) == {dbf_request.pk}
        assert hidden(client.get(url(hbs_request, "change")))
        decide = reverse("admin:masterpoints_correctionrequest_decide", args=[hbs_request.pk])
        assert client.get(decide).status_code == 404
        assert client.post(decide, {"grant": "no", "reason": "Ne"}).status_code == 404
        data = {"action": "refuse", ACTION_CHECKBOX_NAME: [hbs_request.pk], "apply": "1", "reason": "Ne"}
        client.post(changelist(CorrectionRequest), data)
    hbs_request.refresh_from_db()
    assert hbs_request.is_open


def test_the_commission_still_decides_dbf_correction_requests(client, world, personas):
    dbf_request = admin_rows.correction_request(world, "dbf")
    client.force_login(personas.commission)
    data = {"action": "refuse", ACTION_CHECKBOX_NAME: [dbf_request.pk], "apply": "1", "reason": "Ret"}
    client.post(changelist(CorrectionRequest), data)
    dbf_request.refresh_from_db()
    assert dbf_request.status == "refused"


def test_the_commission_cannot_delete_a_cup_series(client, world, personas):
    series = admin_rows.cup_series(world, "dbf")
    client.force_login(personas.commission)
    assert client.get(url(series, "change")).status_code == 200  # it may look
    assert client.get(url(series, "delete")).status_code == 403
    assert client.post(url(series, "delete"), {"post": "yes"}).status_code == 403
    data = {"action": "delete_selected", ACTION_CHECKBOX_NAME: [series.pk], "post": "yes"}
    client.post(changelist(CupSeries), data)
    assert CupSeries.objects.filter(pk=series.pk).exists()


def test_the_secretariat_deletes_a_cup_series_without_wins_only(client, world, personas):
    kept = admin_rows.cup_win(world, "dbf").series
    empty = CupSeries.objects.create(federation=world.dbf, cup="gold", first_season=2021)
    client.force_login(personas.secretariat)
    assert client.get(url(kept, "delete")).status_code == 403
    assert client.post(url(empty, "delete"), {"post": "yes"}).status_code == 302
    assert list(CupSeries.objects.all()) == [kept]


# --- the audit log ------------------------------------------------------------------------------------------


def test_the_audit_log_shows_only_events_of_the_federations_served(client, world, personas, tajnik):
    dbf_event, hbs_event = admin_rows.audit_event(world, "dbf"), admin_rows.audit_event(world, "hbs")
    about_nothing = AuditEvent.objects.create(actor=None, action="system.run")
    # A revoked office no longer exists: its events are shown by their actor's federation.
    office = officer_assign(
        actor=tajnik, user=personas.player, role="club_director", federation=world.hbs, club=world.club_hr
    )
    officer_revoke(actor=tajnik, officer=office)
    revoked = set(AuditEvent.objects.filter(action__startswith="officer.", actor=tajnik).values_list("pk", flat=True))
    assert len(revoked) == 2
    client.force_login(personas.secretariat)
    seen_by_dbf = listed(client.get(changelist(AuditEvent)))
    assert dbf_event.pk in seen_by_dbf
    assert not seen_by_dbf & ({hbs_event.pk, about_nothing.pk} | revoked)
    assert hidden(client.get(url(hbs_event, "change")))
    assert client.get(url(dbf_event, "change")).status_code == 200
    client.force_login(tajnik)
    seen_by_hbs = listed(client.get(changelist(AuditEvent)))
    assert {hbs_event.pk} | revoked <= seen_by_hbs
    assert dbf_event.pk not in seen_by_hbs


def test_a_superuser_sees_every_audit_event(client, world, admin_user):
    events = {admin_rows.audit_event(world, key).pk for key in ("dbf", "hbs")}
    events.add(AuditEvent.objects.create(actor=None, action="system.run").pk)
    client.force_login(admin_user)
    assert events <= listed(client.get(changelist(AuditEvent)))


# --- the positive side --------------------------------------------------------------------------------------


def test_the_dbf_secretariat_still_manages_dbf_rows(client, world, personas):
    client.force_login(personas.secretariat)
    data = {
        "federation": world.dbf.pk,
        "number": "12345",
        "first_name": "Karen",
        "last_name": "Holm",
        "status": "member",
    }
    assert client.post(url(world.player, "change"), data).status_code == 302
    world.player.refresh_from_db()
    assert world.player.last_name == "Holm"
    data = {"federation": world.dbf.pk, "number": "1003", "name": "Bridgeklubben C", "regions": [world.district.pk]}
    data.update({f"playing_times-{key}": value for key, value in {"TOTAL_FORMS": 0, "INITIAL_FORMS": 0}.items()})
    assert client.post(reverse("admin:clubs_club_add"), data).status_code == 302
    assert Club.objects.get(number="1003").federation == world.dbf
    rules = admin_rows.rule_set(world, "dbf")
    assert client.post(url(rules, "delete"), {"post": "yes"}).status_code == 302
    assert not RuleSet.objects.filter(pk=rules.pk).exists()


def test_the_hbs_secretariat_manages_hbs_rows_and_not_dbf_ones(client, world, tajnik):
    licence = admin_rows.licence(world, "hbs")
    client.force_login(tajnik)
    data = {"action": "revoke", ACTION_CHECKBOX_NAME: [licence.pk], "apply": "1", "reason": "Kraj"}
    client.post(reverse("admin:tournaments_directorlicence_changelist"), data)
    licence.refresh_from_db()
    assert licence.revoke_reason == "Kraj"
    assert hidden(client.get(url(world.player, "change")))
    assert DirectorLicence.objects.count() == 1


def test_a_superuser_sees_and_changes_every_federations_rows(client, world, admin_user):
    hbs_player = admin_rows.player(world, "hbs")
    client.force_login(admin_user)
    assert {world.player.pk, hbs_player.pk} <= listed(client.get(changelist(Player)))
    assert client.get(url(hbs_player, "change")).context["has_change_permission"]
    assert set(Federation.objects.all()) == set(
        client.get(reverse("admin:federation_player_add")).context["adminform"].form.fields["federation"].queryset
    )


def test_a_superuser_cannot_link_rows_of_two_federations(client, world, admin_user):
    client.force_login(admin_user)
    data = {"player": admin_rows.player(world, "hbs").pk, "club": world.club_a.pk, "is_home": ""}
    response = client.post(reverse("admin:clubs_clubmembership_add"), data)
    assert response.status_code == 200 and response.context["adminform"].form.errors


def test_the_rebuild_button_rebuilds_only_the_secretariats_own_federation(client, world, personas, admin_user):
    def queued():
        rows = Outbox.objects.filter(kind="task", payload__task=standings_rebuild_all.name).order_by("pk")
        return [row.payload["args"] for row in rows]

    client.force_login(personas.secretariat)
    assert client.post(reverse("admin:masterpoints_standing_rebuild")).status_code == 302
    assert queued() == [[world.dbf.pk]]
    client.force_login(admin_user)
    client.post(reverse("admin:masterpoints_standing_rebuild"))
    # A superuser: every federation, one job each; DBf's rebuild still runs (issue 19: one running job).
    assert queued() == [[world.dbf.pk], [world.hbs.pk]]
    client.force_login(personas.commission)
    assert client.post(reverse("admin:masterpoints_standing_rebuild")).status_code == 403
