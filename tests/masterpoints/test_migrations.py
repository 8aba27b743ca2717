"""Data migrations keep what the ledger knew: a correction's rows name their request by a foreign key
(HBS transition rule 6), the transition's once-per-player credits (rules 1 and 3) are found again, and every
award's explanation survives its move out of the ledger row (issue 16)."""

from __future__ import annotations

import datetime
import json
from importlib import import_module

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.masterpoints.test_explanation_store import SHAPES, pairs_place


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


def _old_ledger(before) -> dict[int, dict]:
    """Awards of every kind under the schema before issue 16 (explanation JSON in the row); their explanations
    by primary key."""
    Federation = before.get_model("federation", "Federation")
    Player = before.get_model("federation", "Player")
    Tournament = before.get_model("tournaments", "Tournament")
    Award = before.get_model("masterpoints", "Award")
    day = datetime.date(2025, 1, 2)
    dbf = Federation.objects.create(name="DBf", code="dbf", scheme="dbf", default_language="da")
    hbs = Federation.objects.create(name="HBS", code="hbs", scheme="hbs", default_language="hr")
    players = {
        f: [Player.objects.create(federation=f, number=str(n), first_name="A", last_name="B") for n in (1, 2, 3)]
        for f in (dbf, hbs)
    }

    def tournament(federation, key, form="pairs"):
        return Tournament.objects.create(
            federation=federation,
            organiser_kind="federation",
            name=key,
            event_key=key,
            date=day,
            form=form,
            category="BP",
            boards=24,
        )

    pairs, teams, league, office = (
        tournament(dbf, "p"),
        tournament(dbf, "t", "teams"),
        tournament(hbs, "l"),
        tournament(dbf, "o"),
    )
    rows = []
    for place, player in enumerate(players[dbf], start=1):
        rows.append((pairs, player, "BP", 4 - place, "", "result", pairs_place(place)))
        rows.append((teams, player, "SP", 10, "bonus", "result", SHAPES[1][place % 2]))
        rows.append((office, player, "SP", 5, "", "result", SHAPES[4][0]))
    for number, player in enumerate(players[hbs]):
        rows.append((league, player, "black", 2, f"match {number}", "result", SHAPES[2][number % 2]))
    rows.append((None, players[dbf][0], "SP", 15, "Sweden", "foreign", SHAPES[3][0]))
    rows.append((None, players[dbf][1], "BP", 3, "", "correction", {}))
    rows.append((None, players[hbs][0], "black", 40, "transition rule 1", "transition", {}))
    made = [
        Award.objects.create(
            federation_id=p.federation_id,
            player=p,
            kind=kind,
            units=units,
            source=source,
            tournament=t,
            part=part,
            explanation=e,
            reason="" if t else "office",
            awarded_on=day,
        )
        for t, p, kind, units, part, source, e in rows
    ]
    first = made[0]
    made.append(
        Award.objects.create(
            federation=dbf,
            player=first.player,
            kind="BP",
            units=-first.units,
            source="reversal",
            tournament=pairs,
            reverses=first,
            reason="re-upload",
            awarded_on=day,
        )
    )
    return {award.pk: Award.objects.get(pk=award.pk).explanation for award in made}


@pytest.mark.django_db(transaction=True)
def test_every_awards_explanation_moves_to_the_explanation_tables_unchanged_issue_16(monkeypatch):
    before = migrate([("masterpoints", "0017_office_case")])
    explanations = _old_ledger(before)
    # Small batches, so that a tournament's awards are split over several of them.
    monkeypatch.setattr(import_module("masterpoints.migrations.0019_move_award_explanations"), "BATCH", 4)
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    from masterpoints.models import Award

    after = {a.pk: a.explanation_data for a in Award.objects.with_explanations()}
    assert {pk: json.dumps(e) for pk, e in after.items()} == {pk: json.dumps(e) for pk, e in explanations.items()}
    assert Award.objects.filter(explanation_ref__isnull=True).count() == 3  # correction, opening, reversal
    back = migrate([("masterpoints", "0018_award_explanation_store")]).get_model("masterpoints", "Award")
    assert {a.pk: a.explanation for a in back.objects.all()} == explanations
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
