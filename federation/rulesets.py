"""Which engine rule set applies to a federation's tournament on a given date.

The engine ships each scheme's built-in set (DBf 2023, valid from 1 September 2023; the HBS draft). The
secretariat adds dated :class:`~federation.models.RuleSet` rows whose payload overrides the built-in
values (an empty payload repeats them from another date, e.g. to compute older results under today's
rules). A tournament is computed with the newest set valid on its date.
"""

from __future__ import annotations

import dataclasses
import datetime

from federation.models import Federation
from masterpoints.engine.dbf import rules as dbf_rules
from masterpoints.engine.hbs import rules as hbs_rules

_SCHEMES = {
    "dbf": (dbf_rules.DbfRuleSet, dbf_rules.DEFAULT_RULE_SETS, dbf_rules.ruleset_for),
    "hbs": (hbs_rules.HbsRuleSet, (hbs_rules.HBS_DRAFT,), hbs_rules.ruleset_for),
}


def check_payload(scheme: str, payload: dict) -> None:
    """Refuse a payload the engine cannot read (unknown field, wrong type): ``ValueError`` naming it."""
    rule_class, built_in, _choose = _SCHEMES[scheme]
    try:
        rule_class.from_dict({**built_in[-1].to_dict(), **payload})
    except (TypeError, KeyError) as error:
        raise ValueError(str(error)) from error


def rules_for(federation: Federation, on_date: datetime.date):
    """The engine rule set for ``federation`` on ``on_date``; ``LookupError`` when none is valid yet."""
    rule_class, built_in, choose = _SCHEMES[federation.scheme]
    candidates = list(built_in)
    base = built_in[-1]
    for row in federation.rule_sets.filter(valid_from__lte=on_date).order_by("valid_from"):
        stored = rule_class.from_dict({**base.to_dict(), **row.payload}) if row.payload else base
        candidates.append(dataclasses.replace(stored, valid_from=row.valid_from))
    return choose(on_date, candidates)
