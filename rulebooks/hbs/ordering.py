"""The HBS list's order (H-2, rule 5): by category, then master, red and black points, packed into the one
integer the standings rank by, in Python for a career and in SQL for a season's sums."""

from __future__ import annotations

#: Each HBS balance takes 19 bits of the packed key (up to 524,287 points; more is clamped for the order).
_BITS = 19
_MAX = (1 << _BITS) - 1


def _clamp(value: int) -> int:
    return 0 if value < 0 else min(value, _MAX)


def hbs_sort_key(balances: tuple[int, ...], rung: int) -> int:
    """The HBS order (H-2) as one integer from the balances (black, red, master) and the category rung."""
    black, red, master = balances
    return (rung << (3 * _BITS)) | (_clamp(master) << (2 * _BITS)) | (_clamp(red) << _BITS) | _clamp(black)


def hbs_season_key_sql(columns: tuple[str, ...]) -> str:
    """SQL of :func:`hbs_sort_key` without a rung (season figures have no category), over the SQL of the
    sums of black, red and master points."""

    def clamp(col: str) -> str:
        return f"(CASE WHEN {col} < 0 THEN 0 WHEN {col} > {_MAX} THEN {_MAX} ELSE {col} END)"

    black, red, master = columns
    return f"({clamp(master)} * {1 << (2 * _BITS)} + {clamp(red)} * {1 << _BITS} + {clamp(black)})"
