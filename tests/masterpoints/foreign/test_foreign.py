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
    assert award.explanation_data["rules"] == ["§ 401B"]
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
    pending.refresh_from_db()
    assert (pending.status, pending.decided_by, pending.decision_reason) == ("refused", personas.secretariat, "Dublet")
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


def swedish_silver(world, *, kind="silverpoäng", decimals=0, factor="0.5") -> ForeignConversion:
    return ForeignConversion.objects.create(
        federation=world.dbf,
        country="SE",
        foreign_kind=kind,
        foreign_decimals=decimals,
        dbf_kind="SP",
        factor=Decimal(factor),
    )


@pytest.mark.parametrize(
    ("decimals", "amount", "factor", "units"),
    [(0, "12", "0.5", 60), (1, "12.0", "0.5", 60), (0, "7", "0.33", 24), (2, "0.05", "1", 1)],
)
def test_the_factor_converts_amounts_whatever_the_foreign_kinds_decimals_d_q32_401b(
    world, personas, decimals, amount, factor, units
):
    """D-Q32 (§ 401B "omregning"; § 402 "10 sølvpoint = 1 mesterpoint", "SP beregnes og oprundes til tal med
    én decimal"): the factor is DBf points per foreign point, so 12 Swedish points at 0.5 are 6.0 SP (60
    units of 0.1 SP) however many decimals the Swedish kind is written with; 7 at 0.33 are 2.31 SP, rounded
    up to 2.4 SP; 0.05 at 1 is rounded up to 0.1 SP."""
    swedish_silver(world, decimals=decimals, factor=factor)
    registration = register(personas, world, country="SE", kind="silverpoäng", amount=amount)
    award = foreign_points_approve(actor=personas.secretariat, registration=registration, approve=True)
    assert (award.kind, award.units) == ("SP", units)


def test_the_secretariats_admin_form_the_ledger_and_the_player_page_show_the_same_amount_d_q32_401b(
    client, personas, world, django_capture_on_commit_callbacks
):
    """D-Q32 (§ 401B, § 402): the secretariat enters the table row and 12 Swedish points in the admin and
    approves them there; the ledger holds 6.0 SP (60 units of 0.1 SP), and the admin's list, the
    registration's page and the player's page all show 6.0 SP — the ledger's units are never shown as SP."""
    client.force_login(personas.secretariat)
    row = {
        "federation": world.dbf.pk,
        "country": "SE",
        "foreign_kind": "silverpoäng",
        "foreign_decimals": "0",
        "dbf_kind": "SP",
        "factor": "0.5",
    }
    assert client.post("/admin/masterpoints/foreignconversion/add/", row).status_code == 302
    fields = {
        "player": world.player.pk,
        "country": "SE",
        "foreign_kind": "silverpoäng",
        "foreign_amount": "12",
        "earned_on": WON.isoformat(),
        "event": "Svenska Bridgefestivalen",
        "form_token": str(uuid.uuid4()),
    }
    assert client.post("/admin/masterpoints/foreignpoints/add/", fields).status_code == 302
    registration = ForeignPoints.objects.get()
    decision = {"action": "approve", "_selected_action": [registration.pk], "apply": "1", "reason": ""}
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post("/admin/masterpoints/foreignpoints/", decision).status_code == 302
    award = Award.objects.get(player=world.player, source=Award.Source.FOREIGN)
    assert (award.kind, award.units, award.amount) == ("SP", 60, "6.0")
    listing = client.get("/admin/masterpoints/foreignpoints/").content.decode()
    assert '<td class="field-posted">6.0 SP</td>' in listing
    assert "6.0 SP" in client.get(f"/admin/masterpoints/foreignpoints/{registration.pk}/change/").content.decode()
    page = client.get(f"/players/dbf/{world.player.number}/").content.decode()
    assert '<td class="num">6.0 SP</td>' in page
    assert "<dt>SP</dt><dd>6.0</dd>" in page


def test_one_registration_holds_at_most_10000_points(world, personas):
    """Every number from outside has a bound (design.md): above 10,000 points is a typing error, refused
    with the bound, and no award is posted."""
    assert refused(personas, world, kind="BP", amount="10001") == "AMOUNT_TOO_LARGE"
    assert register(personas, world, kind="BP", amount="10000").award.units == 10_000


def test_the_admin_refuses_a_factor_that_is_no_conversion_of_points_d_q32_401b(client, personas, world):
    """D-Q32: the factor is DBf points per foreign point, above 0 and at most 100; the admin form says so
    and saves nothing."""
    client.force_login(personas.secretariat)
    row = {
        "federation": world.dbf.pk,
        "country": "NO",
        "foreign_kind": "mesterpoeng",
        "foreign_decimals": "0",
        "dbf_kind": "GP",
        "factor": "250",
    }
    page = client.post("/admin/masterpoints/foreignconversion/add/", row).content.decode()
    assert "at most 100, not 250" in page
    assert not ForeignConversion.objects.exists()
