"""Constraints on the federation's records."""

import pytest
from django.db import IntegrityError, transaction

from federation.models import AuditEvent, Player, Region
from federation.services import audit_record


def test_player_numbers_are_unique_within_a_federation(world):
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(federation=world.dbf, number=world.player.number, first_name="A", last_name="B")


def test_the_same_player_number_may_exist_in_another_federation(world):
    Player.objects.create(federation=world.hbs, number=world.player.number, first_name="Ivan", last_name="Horvat")
    assert Player.objects.filter(number=world.player.number).count() == 2


def test_a_circle_must_lie_inside_a_district(world):
    with pytest.raises(IntegrityError), transaction.atomic():
        Region.objects.create(federation=world.dbf, code="lost", name="Lost circle", kind="circle")


def test_the_audit_log_is_append_only(world):
    event = audit_record(actor=None, action="test.append", target=world.player, payload={"n": 1})
    assert event.target_id == str(world.player.pk)
    assert event.target_type == "federation.player"
    event.payload = {"n": 2}
    with pytest.raises(TypeError):
        event.save()
    with pytest.raises(TypeError):
        event.delete()
    with pytest.raises(TypeError):
        AuditEvent.objects.all().delete()
    with pytest.raises(TypeError):
        AuditEvent.objects.update(action="x")
    assert AuditEvent.objects.get().payload == {"n": 1}
