"""Data migrations keep what the ledger knew: a correction's rows name their request by a foreign key
(HBS transition rule 6), and the transition's once-per-player credits (rules 1 and 3) are found again."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.migrate(target)
    executor.loader.build_graph()
    return executor.loader.project_state(target).apps


@pytest.mark.django_db(transaction=True)
def test_correction_rows_move_their_request_from_the_explanation_to_a_foreign_key():
    before = migrate(
        [("masterpoints", "0008_lean_ledger_and_season_indexes"), ("tournaments", "0003_tournament_drop_unused_days")]
    )
    federation = before.get_model("federation", "Federation").objects.create(
        name="DBf", code="dbf", scheme="dbf", default_language="da"
    )
    player = before.get_model("federation", "Player").objects.create(
        federation=federation, number="1", first_name="A", last_name="B"
    )
    user = before.get_model("auth", "User").objects.create(username="player")
    tournament = before.get_model("tournaments", "Tournament").objects.create(
        federation=federation,
        organiser_kind="federation",
        name="T",
        event_key="t",
        date=datetime.date(2025, 1, 2),
        form="pairs",
        category="BP",
        boards=24,
    )
    request = before.get_model("masterpoints", "CorrectionRequest").objects.create(
        federation=federation, player=player, tournament=tournament, text="nr. 2", requested_by=user
    )
    Award = before.get_model("masterpoints", "Award")
    entry = Award.objects.create(
        federation=federation,
        player=player,
        kind="BP",
        units=3,
        source="correction",
        reason="granted",
        explanation={"correction": request.pk},
        awarded_on=datetime.date(2025, 1, 2),
    )
    other = Award.objects.create(
        federation=federation,
        player=player,
        kind="BP",
        units=5,
        source="manual",
        reason="office",
        awarded_on=datetime.date(2025, 1, 2),
    )
    after = migrate([("masterpoints", "0010_transition_credit")])
    Award = after.get_model("masterpoints", "Award")
    moved = Award.objects.get(pk=entry.pk)
    assert (moved.correction_id, moved.explanation) == (request.pk, {})
    assert Award.objects.get(pk=other.pk).correction_id is None
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_earlier_transition_credits_are_found_by_the_new_record_rules_1_and_3():
    before = migrate([("masterpoints", "0009_award_correction")])
    federation = before.get_model("federation", "Federation").objects.create(
        name="HBS", code="hbs", scheme="hbs", default_language="hr"
    )
    player = before.get_model("federation", "Player").objects.create(
        federation=federation, number="1", first_name="A", last_name="B"
    )
    Award = before.get_model("masterpoints", "Award")
    day = datetime.date(2025, 1, 2)
    common = {"federation": federation, "player": player, "source": "transition", "reason": "old", "awarded_on": day}
    opening = Award.objects.create(kind="black", units=40, part="transition rule 1: opening black points", **common)
    red = Award.objects.create(kind="red", units=250, part="transition rule 3: 1991 category majstor", **common)
    master = Award.objects.create(kind="master", units=25, part="transition rule 3: 1991 category majstor", **common)
    Award.objects.create(kind="red", units=9, part="transition rule 4: kept category majstor", **common)
    after = migrate([("masterpoints", "0010_transition_credit")])
    credits = after.get_model("masterpoints", "TransitionCredit").objects.order_by("rule")
    assert [(c.rule, sorted(a.pk for a in c.awards.all())) for c in credits] == [
        ("held_1991", sorted([red.pk, master.pk])),
        ("opening", [opening.pk]),
    ]
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
