"""The register import page of the admin (Players → Import the member register): the secretariat's, for its
own federation only (office.access.admin_scope); check first, then import (issue 17)."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from federation.models import AuditEvent, JobRun, Player
from tests.office.admin_rows import hbs_secretariat
from tests.office.register.files import base_rows, csv_file

URL = reverse("admin:federation_player_import_register")


def post(client, federation, *, apply: bool = False):
    data = {"federation": federation.pk, "file": SimpleUploadedFile("register.csv", csv_file(*base_rows()))}
    data["apply" if apply else "check"] = "1"
    return client.post(URL, data)


def test_the_secretariat_checks_a_file_row_by_row_and_then_imports_it(client, world, personas):
    """The check lists the changes with their lines and writes nothing; "Import" writes them, audited as the
    user; the players' list links the page."""
    client.force_login(personas.secretariat)
    assert URL in client.get(reverse("admin:federation_player_changelist")).content.decode()
    response = post(client, world.dbf)
    assert response.status_code == 200
    plan = response.context["plan"]
    assert response.context["dry_run"] is True and len(plan.changes) == 5
    page = response.content.decode()
    assert "What the import would do (nothing was written)" in page and "20001" in page
    assert not Player.objects.filter(number="20001").exists()
    response = post(client, world.dbf, apply=True)
    assert response.context["dry_run"] is False
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
    assert response.context["plan"].job == job
    link = reverse("admin:federation_jobrun_change", args=[job.pk])
    assert f'<a href="{link}">Open the import&#x27;s job record</a>' in response.content.decode()
    assert client.get(link).status_code == 200


def test_a_bad_file_shows_its_problems_on_the_page_and_writes_nothing(client, world, personas):
    client.force_login(personas.secretariat)
    bad = csv_file(*base_rows()).replace(b"1961", b"1861")
    response = client.post(URL, {"federation": world.dbf.pk, "file": SimpleUploadedFile("r.csv", bad), "apply": "1"})
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
