"""Issue 19: every admin change to rule sets, players, clubs, memberships, officers and cup series is audited in
the change's own transaction (who, when, each field before and after; deletions too), and the record's change
page shows its history; Django's "History" button opens the same audit log, filtered to the record."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from clubs.models import ClubMembership
from federation.models import AuditEvent, RuleSet
from masterpoints.models import CupSeries
from office.models import Officer
from tests.office import admin_rows


def page(obj, view: str = "change") -> str:
    opts = obj._meta
    return reverse(f"admin:{opts.app_label}_{opts.model_name}_{view}", args=[obj.pk])


def posted(response) -> dict:
    """The change form's current values as the browser would post them (inline formsets included)."""
    data = {}
    forms = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        forms += [formset.management_form, *formset.forms]
    for form in forms:
        for name in form.fields:
            value = form[name].value()
            key = form.add_prefix(name)
            if value is None or value is False:
                continue
            if isinstance(value, list | tuple):
                data[key] = [str(item) for item in value]
            elif value is True:
                data[key] = "on"
            else:
                data[key] = str(value)
    return data


def change(client, obj, **values):
    data = posted(client.get(page(obj)))
    data.update(values)
    response = client.post(page(obj), data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    return AuditEvent.objects.filter(target_type=obj._meta.label_lower, target_id=str(obj.pk)).first()


@pytest.fixture
def office(client, personas):
    client.force_login(personas.secretariat)
    return client


def test_a_player_changed_in_the_admin_is_audited_with_before_and_after_and_shown_on_its_page_issue_19(
    office, world, personas
):
    event = change(office, world.player, last_name="Hansen", email="karen@example.com")
    assert (event.action, event.actor) == ("admin.player.change", personas.secretariat)
    assert event.payload["fields"]["last_name"] == {"before": "Jensen", "after": "Hansen"}
    assert event.payload["fields"]["email"] == {"before": "", "after": "karen@example.com"}
    assert set(event.payload["fields"]) == {"last_name", "email"}  # only what changed
    shown = office.get(page(world.player)).content.decode()
    assert 'id="audit-history"' in shown and "last_name: Jensen → Hansen" in shown


def test_saving_a_player_unchanged_writes_no_audit_row_issue_19(office, world):
    before = AuditEvent.objects.count()
    change(office, world.player)
    assert AuditEvent.objects.count() == before


def test_a_rule_set_added_changed_and_deleted_in_the_admin_is_audited_issue_19(office, world):
    data = {"federation": world.dbf.pk, "valid_from": "2024-09-01", "name": "2024", "payload": "{}", "note": ""}
    assert office.post(reverse("admin:federation_ruleset_add"), data).status_code == 302
    rule_set = RuleSet.objects.get(name="2024")
    added = AuditEvent.objects.get(action="admin.ruleset.add")
    assert added.payload["fields"]["valid_from"] == {"before": None, "after": "2024-09-01"}
    event = change(office, rule_set, note="§ 451B")
    assert (event.action, event.payload["fields"]) == (
        "admin.ruleset.change",
        {"note": {"before": "", "after": "§ 451B"}},
    )
    assert office.post(page(rule_set, "delete"), {"post": "yes"}).status_code == 302
    deleted = AuditEvent.objects.get(action="admin.ruleset.delete", target_id=str(rule_set.pk))
    assert deleted.payload["fields"]["name"] == {"before": "2024", "after": None}
    assert not RuleSet.objects.filter(pk=rule_set.pk).exists()


def test_a_club_change_audits_its_regions_issue_19(office, world):
    event = change(office, world.club_a, name="BK Odense", regions=[str(world.district.pk)])
    assert event.payload["fields"]["name"] == {"before": "Bridgeklubben A", "after": "BK Odense"}
    assert event.payload["fields"]["regions"] == {
        "before": ["Distrikt Fyn", "Kreds Odense"],
        "after": ["Distrikt Fyn"],
    }


def test_a_playing_time_added_on_the_club_page_is_audited_with_the_club_issue_19(office, world):
    data = posted(office.get(page(world.club_a)))
    prefix = "playing_times"
    data.update(
        {
            f"{prefix}-TOTAL_FORMS": "1",
            f"{prefix}-0-weekday": "2",
            f"{prefix}-0-part_of_day": "evening",
            f"{prefix}-0-active": "on",
        }
    )
    assert office.post(page(world.club_a), data).status_code == 302
    event = AuditEvent.objects.get(action="admin.club.change")
    assert event.payload["fields"] == {}
    (inline,) = event.payload["inlines"]
    assert (inline["model"], inline["action"]) == ("playingtime", "add")
    assert inline["fields"]["part_of_day"] == {"before": None, "after": "evening"}


def test_a_membership_change_is_audited_issue_19(office, world):
    membership = ClubMembership.objects.get(player=world.player)
    event = change(office, membership, since="2020-01-01")
    assert event.action == "admin.clubmembership.change"
    assert event.payload["fields"]["since"] == {"before": None, "after": "2020-01-01"}


def test_an_officer_appointed_and_ended_in_the_admin_is_audited_with_its_fields_issue_19(office, world):
    user = get_user_model().objects.create_user("new_director")
    data = {"user": user.pk, "role": "club_director", "federation": world.dbf.pk, "club": world.club_b.pk}
    assert office.post(reverse("admin:office_officer_add"), data).status_code == 302
    officer = Officer.objects.get(user=user)
    added = AuditEvent.objects.get(action="admin.officer.add")
    assert added.payload["fields"]["club"] == {"before": None, "after": str(world.club_b)}
    assert AuditEvent.objects.filter(action="officer.assign", target_id=str(officer.pk)).exists()  # the service's
    assert office.post(page(officer, "delete"), {"post": "yes"}).status_code == 302
    deleted = AuditEvent.objects.get(action="admin.officer.delete")
    assert deleted.payload["fields"]["role"]["before"] == "club_director"


def test_a_cup_series_change_and_deletion_are_audited_issue_19(office, world):
    series = admin_rows.cup_series(world, "dbf")
    event = change(office, series, seasons="5")
    assert event.action == "admin.cupseries.change" and event.payload["fields"]["seasons"]["after"] == 5
    assert office.post(page(series, "delete"), {"post": "yes"}).status_code == 302
    assert AuditEvent.objects.filter(action="admin.cupseries.delete").exists()
    assert not CupSeries.objects.filter(pk=series.pk).exists()


def test_a_refused_save_writes_no_audit_row_issue_19(office, world):
    data = posted(office.get(page(world.player)))
    data["birth_year"] = "1700"  # outside the plausible years: the form refuses, nothing changes
    response = office.post(page(world.player), data)
    assert response.status_code == 200
    assert not AuditEvent.objects.filter(action__startswith="admin.").exists()


def test_the_history_button_opens_the_audit_log_filtered_to_the_record_issue_19(office, world):
    change(office, world.player, last_name="Hansen")
    change(office, world.club_a, name="BK A")  # another record's event is not listed
    response = office.get(page(world.player, "history"), follow=True)
    rows = response.context["cl"].result_list
    assert {(row.target_type, row.target_id) for row in rows} == {("federation.player", str(world.player.pk))}
    hbs_player = admin_rows.player(world, "hbs")
    assert office.get(page(hbs_player, "history")).status_code == 403, "another federation's record's history"
