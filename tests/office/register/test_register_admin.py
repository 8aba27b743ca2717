"""The register import page of the admin (Players → Import the member register): the secretariat's, for its
own federation only (office.access.admin_scope); check first, then import (issue 17)."""

from __future__ import annotations

from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from federation.models import AuditEvent, JobRun, Player
from tests.office.admin_rows import hbs_secretariat
from tests.office.register.files import base_rows, csv_file, row

URL = reverse("admin:federation_player_import_register")


def post(client, federation, *, apply: bool = False, rows=None, mode: str = "add"):
    """Check the file ("Check (dry run)"); with ``apply``, then import the checked file as its page offers it
    (issue 38: by its hash, not a second upload; a full sync with its ends confirmed)."""
    rows = base_rows() if rows is None else rows
    data = {"federation": federation.pk, "mode": mode, "check": "1"}
    data["file"] = SimpleUploadedFile("register.csv", csv_file(*rows))
    response = client.post(URL, data)
    if not apply or response.status_code != 200 or response.context["plan"] is None:
        return response
    checked = response.context["checked"].initial
    confirm = {"confirm_ends": response.context["plan"].ends} if mode == "sync" else {}
    return client.post(URL, {**checked, **confirm, "apply": "1"}, follow=True)


def test_the_secretariat_checks_a_file_row_by_row_and_then_imports_it(client, world, personas):
    """The check lists the changes with their lines and writes nothing; "Import" writes them, audited as the
    user; the players' list links the page."""
    client.force_login(personas.secretariat)
    assert URL in client.get(reverse("admin:federation_player_changelist")).content.decode()
    response = post(client, world.dbf)
    assert response.status_code == 200
    plan = response.context["plan"]
    assert len(plan.changes) == 5
    page = response.content.decode()
    assert "Add and update: what the import would do (nothing was written)" in page and "20001" in page
    assert not Player.objects.filter(number="20001").exists()
    response = post(client, world.dbf, apply=True)
    assert "The register is imported: 5 changes written." in response.content.decode()
    assert Player.objects.filter(federation=world.dbf, number__in=["20001", "20002"]).count() == 2
    assert AuditEvent.objects.filter(action="register.player.add", actor=personas.secretariat).count() == 2


def test_the_imports_result_links_the_job_record_it_was_recorded_as(client, world, personas):
    """Issue 19: after "Import" the message links the import's job record, which the secretariat may open;
    a dry run records no job and links none."""
    client.force_login(personas.secretariat)
    assert "Open the import's job record" not in post(client, world.dbf).content.decode()
    assert not JobRun.objects.exists()
    response = post(client, world.dbf, apply=True)
    job = JobRun.objects.get(kind=JobRun.Kind.REGISTER_IMPORT, federation=world.dbf)
    link = reverse("admin:federation_jobrun_change", args=[job.pk])
    assert f'<a href="{link}">Open the import&#x27;s job record</a>' in response.content.decode()
    assert client.get(link).status_code == 200


def test_a_bad_file_shows_its_problems_on_the_page_and_writes_nothing(client, world, personas):
    client.force_login(personas.secretariat)
    bad = csv_file(*base_rows()).replace(b"1961", b"1861")
    data = {"federation": world.dbf.pk, "mode": "add", "file": SimpleUploadedFile("r.csv", bad), "check": "1"}
    response = client.post(URL, data)
    assert "line 5, column birth_year (F): 1861 is not a year" in response.content.decode()
    assert not Player.objects.filter(number="20001").exists()


def test_another_federations_secretariat_cannot_import_for_it(client, world):
    """The HBS secretariat is offered HBS only; naming DBf is refused and writes nothing."""
    client.force_login(hbs_secretariat(world))
    response = client.get(URL)
    assert list(response.context["form"].fields["federation"].queryset) == [world.hbs]
    response = post(client, world.dbf, apply=True)
    assert "federation" in response.context["form"].errors
    assert not Player.objects.filter(number="20001").exists()
    assert not AuditEvent.objects.filter(action__startswith="register.").exists()


def test_club_directors_and_the_commission_have_no_import_page(client, world, personas):
    """A club director has no admin at all (sent to log in); the commission, which only views players, is
    refused the page."""
    client.force_login(personas.director_a)
    response = post(client, world.dbf, apply=True)
    assert response.status_code == 302 and reverse("admin:login") in response.url
    client.force_login(personas.commission)
    assert post(client, world.dbf, apply=True).status_code == 403
    assert not Player.objects.filter(number="20001").exists()


def _new_members(count: int, first: int = 30001) -> list[list[str]]:
    return [row("player", number=str(first + n), first_name="Ny", last_name=f"Medlem{n}") for n in range(count)]


def test_a_file_of_new_members_adds_them_and_ends_nothing_by_default(client, world, personas):
    """Issue 38: 44 new members in add-and-update mode (the default) lapse nobody."""
    others = [
        Player.objects.create(federation=world.dbf, number=str(500 + n), first_name="A", last_name="B")
        for n in range(5)
    ]
    client.force_login(personas.secretariat)
    response = post(client, world.dbf, rows=_new_members(44))
    plan = response.context["plan"]
    assert plan.mode == "add" and plan.counts()["player"] == {"add": 44, "change": 0, "end": 0}
    assert "adds 44 player rows" in response.content.decode()
    post(client, world.dbf, rows=_new_members(44), apply=True)
    assert Player.objects.filter(number__startswith="300").count() == 44
    assert not Player.objects.filter(status="lapsed").exists()
    assert all(p.status == "member" for p in Player.objects.filter(pk__in=[o.pk for o in others]))


def test_a_full_sync_names_what_it_ends_and_writes_only_once_confirmed(client, world, personas):
    client.force_login(personas.secretariat)
    response = post(client, world.dbf, rows=_new_members(3), mode="sync")
    plan = response.context["plan"]
    assert plan.counts()["player"]["end"] == 1 and plan.existing["player"] == 1
    page = response.content.decode()
    assert "ends 1 of 1 player rows" in page and 'name="confirm_ends" value="1" required' in page
    checked = response.context["checked"].initial
    refused = client.post(URL, {**checked, "apply": "1"}, follow=True)  # the summary not confirmed
    assert "check the file and confirm its summary first" in refused.content.decode()
    assert Player.objects.get(pk=world.player.pk).status == "member"
    client.post(URL, {**checked, "confirm_ends": "1", "apply": "1"})
    assert Player.objects.get(pk=world.player.pk).status == "lapsed"


def test_the_details_are_paged_and_downloadable_from_the_checked_file(client, world, personas):
    client.force_login(personas.secretariat)
    response = post(client, world.dbf, rows=_new_members(150))
    checked = response.context["checked"].initial
    assert len(response.context["details"].object_list) == 100
    second = client.get(URL, {**checked, "page": 2})
    assert len(second.context["details"].object_list) == 50 and "30150" in second.content.decode()
    download = client.get(URL, {**checked, "download": 1})
    assert download["Content-Type"].startswith("text/csv") and download.content.decode("utf-8-sig").count("30") > 150
    forged = client.get(URL, {**checked, "sha": "0" * 64})
    assert "The checked file is no longer kept" in forged.content.decode()


def test_the_export_is_the_import_s_own_layout_and_reimporting_it_changes_nothing(client, world, personas):
    client.force_login(personas.secretariat)
    post(client, world.dbf, apply=True)
    export = client.get(reverse("admin:federation_player_export_register"), {"federation": world.dbf.pk})
    assert export["Content-Disposition"] == 'attachment; filename="register-dbf.csv"'
    again = client.post(
        URL,
        {"federation": world.dbf.pk, "mode": "sync", "check": "1", "file": SimpleUploadedFile("r.csv", export.content)},
    )
    assert again.context["plan"].changes == []


def test_the_example_file_only_adds_its_own_rows(client, world, personas):
    """The example has its own clubs and numbers: on a register (the demo's or the tests'), it adds them only."""
    example = (settings.BASE_DIR / "static/register-templates/register-example.csv").read_bytes()
    client.force_login(personas.secretariat)
    data = {"federation": world.dbf.pk, "mode": "add", "check": "1", "file": SimpleUploadedFile("e.csv", example)}
    plan = client.post(URL, data).context["plan"]
    assert {change.action for change in plan.changes} == {"add"}
    assert plan.counts()["club"]["add"] == 2 and plan.counts()["player"]["add"] == 3
