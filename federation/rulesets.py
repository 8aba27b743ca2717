"""Which engine rule set applies to a federation's tournament on a given date.

The engine ships each scheme's built-in set (DBf 2023, valid from 1 September 2023; the HBS draft). The
secretariat adds dated :class:`~federation.models.RuleSet` rows whose payload overrides the built-in
values (an empty payload repeats them from another date, e.g. to compute older results under today's
rules). A tournament is computed with the newest set valid on its date.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Iterable

from federation.models import Federation, RuleSet
from federation.schemes import scheme_of


def check_payload(scheme: str, payload: dict) -> None:
    """Refuse a payload the engine cannot read (unknown field, wrong type): ``ValueError`` naming it."""
    info = scheme_of(scheme)
    try:
        info.rule_set_class.from_dict({**info.current_rules.to_dict(), **payload})
    except (TypeError, KeyError) as error:
        raise ValueError(str(error)) from error


def rules_for(federation: Federation, on_date: datetime.date):
    """The engine rule set for ``federation`` on ``on_date``; ``LookupError`` when none is valid yet."""
    return rules_among(federation, on_date, federation.rule_sets.filter(valid_from__lte=on_date))


def rules_among(federation: Federation, on_date: datetime.date, rows: Iterable[RuleSet]):
    """:func:`rules_for` from the federation's rule-set ``rows`` already read (those valid after ``on_date``
    are passed over): who judges many dates reads them once."""
    info = scheme_of(federation)
    candidates = list(info.built_in)
    base = info.current_rules
    for row in sorted((row for row in rows if row.valid_from <= on_date), key=lambda row: row.valid_from):
        stored = info.rule_set_class.from_dict({**base.to_dict(), **row.payload}) if row.payload else base
        candidates.append(dataclasses.replace(stored, valid_from=row.valid_from))
    return info.choose(on_date, candidates)


def rules_or_built_in(federation: Federation, on_date: datetime.date):
    """:func:`rules_for`, or the scheme's newest built-in set when none is valid on ``on_date`` yet: for a
    value a page or a check needs before the computation reports RULESET_MISSING (what an organiser
    awards, § 403 and H-1; the title-mail months, § 451B)."""
    try:
        return rules_for(federation, on_date)
    except LookupError:
        return federation.scheme_info.current_rules


def rule_sets_on_record(federation: Federation) -> list[tuple[str, datetime.date]]:
    """Every rule set ``federation`` computes with, as ``(name, valid from)`` by date: the scheme's built-in
    sets and the secretariat's dated rows (RULESET_MISSING names them)."""
    found = [(s.name, s.valid_from) for s in scheme_of(federation).built_in]
    found += [(row.name, row.valid_from) for row in federation.rule_sets.all()]
    return sorted(found, key=lambda item: item[1])
