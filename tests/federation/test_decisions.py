"""Who decided, when and why is spelled once (federation.decisions.Decided) for every decided workflow:
sanction applications (DBf § 403B), correction requests (HBS H-12–H-14), tourist approvals (HBS rule 2) and
foreign points (DBf § 401B)."""

from __future__ import annotations

from django.apps import apps

from federation.decisions import Decided


def test_every_model_that_records_a_decision_takes_its_fields_from_decided():
    deciding = [
        model
        for model in apps.get_models()
        if {"decided_by", "decided_at", "decision_reason"} & {field.name for field in model._meta.get_fields()}
    ]
    assert {model.__name__ for model in deciding} == {
        "SanctionApplication",
        "CorrectionRequest",
        "TouristApproval",
        "ForeignPoints",
    }
    assert all(issubclass(model, Decided) for model in deciding)
