"""Dated rule sets per federation (a past tournament is computed with the set valid on its date)."""

import datetime

import pytest

from federation.models import RuleSet
from federation.rulesets import rules_for


def test_the_built_in_dbf_2023_set_applies_from_1_september_2023(world):
    assert rules_for(world.dbf, datetime.date(2023, 9, 1)).valid_from == datetime.date(2023, 9, 1)
    with pytest.raises(LookupError):
        rules_for(world.dbf, datetime.date(2023, 8, 31))


def test_a_stored_payload_overrides_the_built_in_values_from_its_date(world):
    RuleSet.objects.create(
        federation=world.dbf, valid_from=datetime.date(2025, 1, 1), name="2025", payload={"kun_bp_literal": False}
    )
    assert rules_for(world.dbf, datetime.date(2024, 12, 31)).kun_bp_literal is True
    later = rules_for(world.dbf, datetime.date(2025, 1, 2))
    assert later.kun_bp_literal is False
    assert later.valid_from == datetime.date(2025, 1, 1)


def test_an_hbs_payload_overrides_the_draft_parameters_h_4(world):
    RuleSet.objects.create(
        federation=world.hbs, valid_from=datetime.date(2026, 1, 1), name="2026", payload={"team_board_share": "0.5"}
    )
    rules = rules_for(world.hbs, datetime.date(2026, 6, 1))
    assert str(rules.team_board_share) == "1/2"
    assert rules_for(world.hbs, datetime.date(2025, 6, 1)).team_board_share != rules.team_board_share


def test_the_admin_refuses_a_payload_the_engine_cannot_read(client, personas, world):
    from django.urls import reverse

    client.force_login(personas.secretariat)
    response = client.post(
        reverse("admin:federation_ruleset_add"),
        {"federation": world.dbf.pk, "valid_from": "2026-01-01", "name": "typo", "payload": '{"kun_bp_literl": false}'},
    )
    assert response.status_code == 200
    assert "kun_bp_literl" in response.content.decode()
    assert not RuleSet.objects.exists()
