"""Foreign MP (§ 401B; ``dbf.md`` § 2.16): Faroese and Icelandic MP are registered without conversion;
Swedish and Norwegian MP through a conversion table the secretariat keeps (the rules print none), stored
in the rule set's ``foreign_conversion``."""

from __future__ import annotations

from masterpoints.engine.common import RequestError, ceil_units
from masterpoints.engine.dbf.rules import DBF_2023, DbfRuleSet


def foreign_award(country: str, kind: str, units: int, rules: DbfRuleSet = DBF_2023) -> tuple[str, int]:
    """The DBf kind and units for ``units`` of a foreign ``kind`` won in ``country`` (ISO code).

    Each table row maps a foreign kind to a DBf kind and a factor on the units; a converted amount is rounded
    up to the unit like every award (§ 402). A country without a table is refused with a clear message.
    """
    if isinstance(units, bool) or not isinstance(units, int) or units < 0:
        raise RequestError("units", f"foreign MP are whole units ≥ 0, not {units!r}")
    try:
        table = rules.lookup(rules.foreign_conversion, country)
    except KeyError:
        raise RequestError(
            "country",
            f"no conversion table for {country!r}: the secretariat keeps the Swedish and Norwegian tables (§ 401B)",
        ) from None
    try:
        dbf_kind, factor = rules.lookup(table, kind)
    except KeyError:
        raise RequestError("kind", f"no conversion for {kind!r} MP from {country}") from None
    return dbf_kind, ceil_units(units * factor)
