"""Foreign MP (DBf § 401B): Faroese and Icelandic 1:1 at once, Swedish and Norwegian by the table once approved."""

from __future__ import annotations

import datetime
import uuid
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from federation.models import AuditEvent, Player
from masterpoints.foreign.services import foreign_points_approve, foreign_points_register
from masterpoints.models import Award, ForeignConversion, ForeignPoints

WON = datetime.date(2025, 7, 12)


@pytest.fixture
def swedish_gold(world):
    return ForeignConversion.objects.create(
        federation=world.dbf,
        country="SE",
        foreign_kind="guld",
        foreign_decimals=2,
        dbf_kind="GP",
        factor=Decimal("0.5"),
    )


def register(personas, world, **changes) -> ForeignPoints:
    values = {
        "actor": personas.secretariat,
        "player": world.player,
        "country": "FO",
        "kind": "SP",
        "amount": "1.5",
        "earned_on": WON,
        "event": "Føroya meistaraskapur",
    }
    values.update(changes)
    return foreign_points_register(**values)


def refused(personas, world, **changes) -> str:
    with pytest.raises(ValidationError) as caught:
        register(personas, world, **changes)
    return caught.value.code


@pytest.mark.parametrize("country", ["FO", "IS"])
def test_faroese_and_icelandic_mp_are_posted_one_to_one_at_once_401b(world, personas, country):
    registration = register(personas, world, country=country)
    award = registration.award
    assert registration.status == "approved"
    assert (award.source, award.kind, award.units, award.awarded_on) == ("foreign", "SP", 15, WON)
    assert award.explanation["rules"] == ["§ 401B"]
    assert AuditEvent.objects.filter(action="foreign.post").exists()


def test_swedish_mp_wait_for_the_secretariats_approval_and_convert_by_the_table_401b(world, personas, swedish_gold):
    registration = register(personas, world, country="SE", kind="guld", amount="3,25")
    assert (registration.status, registration.foreign_units, registration.award) == ("pending", 325, None)
    assert not Award.objects.exists()
    award = foreign_points_approve(actor=personas.secretariat, registration=registration, approve=True)
    # 325 units × 0.5 = 162.5 → rounded up to 163 units: 1.63 GP (§ 402).
    assert (award.kind, award.units, award.source) == ("GP", 163, "foreign")
    registration.refresh_from_db()
    assert (registration.status, registration.award) == ("approved", award)


def test_the_approval_converts_by_the_table_as_it_stands_then_401b(world, personas, swedish_gold):
    registration = register(personas, world, country="SE", kind="guld", amount="2")
    swedish_gold.factor = Decimal("0.25")
    swedish_gold.save()
    award = foreign_points_approve(actor=personas.secretariat, registration=registration, approve=True)
    assert award.units == 50


def test_norwegian_mp_need_a_row_of_the_table_401b(world, personas, swedish_gold):
    assert refused(personas, world, country="NO", kind="guld", amount="1") == "NO_CONVERSION"


def test_only_swedish_norwegian_faroese_and_icelandic_mp_are_registered_401b(world, personas):
    assert refused(personas, world, country="DE") == "COUNTRY_UNKNOWN"


def test_faroese_and_icelandic_mp_are_bp_sp_or_gp_401b(world, personas):
    assert refused(personas, world, kind="XP") == "KIND_UNKNOWN"


@pytest.mark.parametrize("amount", ["0", "-1", "abc", "NaN"])
def test_the_amount_is_a_number_above_zero(world, personas, amount):
    assert refused(personas, world, amount=amount) == "AMOUNT_NOT_POSITIVE"


def test_the_amount_has_no_more_decimals_than_its_kind_402(world, personas):
    assert refused(personas, world, kind="BP", amount="1.5") == "AMOUNT_PRECISION"
    assert refused(personas, world, kind="SP", amount="1.55") == "AMOUNT_PRECISION"


def test_points_cannot_be_won_in_the_future(world, personas):
    assert refused(personas, world, earned_on=WON, today=WON - datetime.timedelta(days=1)) == "EARNED_IN_FUTURE"


def test_foreign_mp_are_a_dbf_rule_401b(world, personas, django_user_model):
    root = django_user_model.objects.create_superuser("root", "root@example.com", "pw")
    croat = Player.objects.create(federation=world.hbs, number="5001", first_name="Ivo", last_name="Horvat")
    assert refused(personas, world, actor=root, player=croat) == "NOT_DBF"


def test_only_the_secretariat_registers_and_approves_401b(world, personas, swedish_gold):
    for someone in (personas.director_a, personas.commission, personas.player):
        with pytest.raises(PermissionDenied):
            register(personas, world, actor=someone)
    pending = register(personas, world, country="SE", kind="guld", amount="1")
    with pytest.raises(PermissionDenied):
        foreign_points_approve(actor=personas.commission, registration=pending, approve=True)


def test_a_refusal_needs_a_reason_posts_nothing_and_is_final(world, personas, swedish_gold):
    pending = register(personas, world, country="SE", kind="guld", amount="1")
    with pytest.raises(ValidationError) as caught:
        foreign_points_approve(actor=personas.secretariat, registration=pending, approve=False)
    assert caught.value.code == "REASON_REQUIRED"
    assert (
        foreign_points_approve(actor=personas.secretariat, registration=pending, approve=False, reason="Dublet") is None
    )
    assert not Award.objects.exists()
    with pytest.raises(ValidationError) as caught:
        foreign_points_approve(actor=personas.secretariat, registration=pending, approve=True)
    assert caught.value.code == "ALREADY_DECIDED"


def test_the_same_form_sent_three_times_registers_and_posts_once(personas, world):
    """A double click must not post twice (design.md § Invariants): the form's one-time token is the key."""
    token = uuid.uuid4()
    first = register(personas, world, token=token)
    again = [register(personas, world, token=token) for _ in range(2)]
    assert all(registration.pk == first.pk for registration in again)
    assert ForeignPoints.objects.count() == 1
    assert Award.objects.filter(player=world.player, source=Award.Source.FOREIGN).count() == 1
    other = register(personas, world, token=uuid.uuid4())
    assert other.pk != first.pk  # a second, new form registers again


def test_the_admin_form_sent_three_times_posts_one_award(client, personas, world):
    client.force_login(personas.secretariat)
    page = client.get("/admin/masterpoints/foreignpoints/add/").content.decode()
    assert 'name="form_token"' in page
    fields = {
        "player": world.player.pk,
        "country": "FO",
        "foreign_kind": "SP",
        "foreign_amount": "1.5",
        "earned_on": WON.isoformat(),
        "event": "Føroya meistaraskapur",
        "form_token": str(uuid.uuid4()),
    }
    answers = [client.post("/admin/masterpoints/foreignpoints/add/", fields).status_code for _ in range(3)]
    assert answers == [302, 302, 302]
    assert ForeignPoints.objects.count() == 1
    assert Award.objects.filter(player=world.player, source=Award.Source.FOREIGN).count() == 1
