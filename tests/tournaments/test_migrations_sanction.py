"""The migration that links tournaments to their sanction keeps every tournament and links each sanction to the
one tournament D-Q24 gives it (DBf § 403B1, § 403B7)."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

DAY = datetime.date(2025, 6, 14)


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.migrate(target)
    executor.loader.build_graph()
    return executor.loader.project_state(target).apps


def make_sanction(apps, federation, club):
    district = apps.get_model("federation", "Region").objects.create(
        federation=federation, code="fyn", name="Fyn", kind="district"
    )
    application = apps.get_model("tournaments", "SanctionApplication").objects.create(
        federation=federation,
        club=club,
        district=district,
        name="Sommerturnering",
        date=DAY,
        entry_deadline=DAY,
        advertised_on=DAY,
        advertisement="district_email",
        form="pairs",
        boards=48,
        category="SP",
        quota="full",
        status="approved",
    )
    return apps.get_model("tournaments", "Sanction").objects.create(
        federation=federation, club=club, application=application, category="SP", quota="full", date=DAY, end_date=DAY
    )


def make_tournament(apps, federation, club, key: str, *, special: str = ""):
    upload = apps.get_model("tournaments", "ResultUpload").objects.create(
        federation=federation,
        club=club,
        file=f"uploads/{key}",
        original_name=f"{key}.xml",
        sha256=key.ljust(64, "0"),
        size=1,
        facts={"category": "SP", "special": special},
        status="confirmed",
    )
    return apps.get_model("tournaments", "Tournament").objects.create(
        federation=federation,
        organiser_kind="club",
        club=club,
        name=key,
        event_key=key,
        date=DAY,
        form="pairs",
        category="SP",
        boards=48,
        upload=upload,
    )


@pytest.mark.django_db(transaction=True)
def test_each_sanction_is_linked_to_its_earliest_tournament_and_no_tournament_is_lost_d_q24():
    """D-Q24: the earliest current club SP tournament on the sanction's dates that no automatic right paid
    (§ 403A1 Klubsølv) gets the sanction, with its upload; a later one the sanction also paid stays, unlinked."""
    before = migrate([("tournaments", "0009_simultaneous_event")])
    federation = before.get_model("federation", "Federation").objects.create(
        name="DBf", code="dbf", scheme="dbf", default_language="da"
    )
    club = before.get_model("clubs", "Club").objects.create(federation=federation, number="1", name="A")
    sanction = make_sanction(before, federation, club)
    klubsolv = make_tournament(before, federation, club, "klubsolv", special="simultaneous")
    first = make_tournament(before, federation, club, "first")
    second = make_tournament(before, federation, club, "second")
    after = migrate([("tournaments", "0010_tournament_and_upload_sanction")])
    Tournament = after.get_model("tournaments", "Tournament")
    linked = dict(Tournament.objects.values_list("pk", "sanction_id"))
    assert linked == {klubsolv.pk: None, first.pk: sanction.pk, second.pk: None}
    uploads = after.get_model("tournaments", "ResultUpload").objects.filter(sanction_id=sanction.pk)
    assert list(uploads.values_list("pk", flat=True)) == [first.upload_id]
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
