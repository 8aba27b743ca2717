"""Shared pieces of the points engine: request errors, exact rounding, ranks and ties.

Pure Python: nothing here (or anywhere in ``masterpoints.engine``) may import Django or the apps.
Amounts are exact (``Fraction`` or ``Decimal``) until the final rounding, which yields integer units.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from itertools import pairwise
from typing import Any

Number = Fraction | Decimal | int

#: Tolerance of DBf § 2.0 / D-Q14: a value within this many units above a whole unit counts as that unit.
#: It only matters for irrational inputs (a ratio Q above 2/3), computed in high-precision Decimal.
CEIL_TOLERANCE = Fraction(1, 10**9)


class RequestError(ValueError):
    """A request the engine cannot answer; ``field`` names the offending input in plain words."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message

    def as_json(self) -> dict[str, dict[str, str]]:
        return {"error": {"field": self.field, "message": self.message}}


def to_fraction(value: Number) -> Fraction:
    """Exact conversion; ``Decimal`` values keep every digit they carry."""
    return value if isinstance(value, Fraction) else Fraction(value)


def ceil_units(value: Number, unit: Number = 1, tolerance: Fraction = CEIL_TOLERANCE) -> int:
    """Round ``value`` up to a whole number of ``unit`` and return that number of units.

    ``⌈x⌉_u = ceil(x/u − ε)`` for x > 0 and 0 for x ≤ 0 (DBf § 402, § 406C, § 2.0 of the spec).
    With exact inputs the tolerance changes nothing unless x/u lies within ε above a whole number.
    """
    x = to_fraction(value) / to_fraction(unit)
    if x <= 0:
        return 0
    return max(1, math.ceil(x - tolerance))


def format_units(units: int, decimals: int, separator: str = ".") -> str:
    """Integer units as a decimal string with the kind's decimals: 307 units of 0.1 SP → ``"30.7"``
    (``"30,7"`` with ``separator=","``)."""
    sign = "-" if units < 0 else ""
    units = abs(units)
    if decimals == 0:
        return f"{sign}{units}"
    whole, part = divmod(units, 10**decimals)
    return f"{sign}{whole}{separator}{part:0{decimals}d}"


# --- request parsing shared by both schemes' calculators (engine-cli.md) ---------------------------


def check_fields(request: Mapping[str, Any], allowed: Iterable[str], required: Iterable[str] = ()) -> None:
    """Refuse unknown fields (a typo must not silently change a result) and missing required ones.

    Fields starting with ``x-`` are ignored, as ``engine-cli.md`` allows.
    """
    allowed = set(allowed)
    for name in request:
        if name.startswith("x-"):
            continue
        if name not in allowed:
            raise RequestError(name, f"unknown field '{name}'; allowed fields are {', '.join(sorted(allowed))}")
    for name in required:
        if name not in request:
            raise RequestError(name, f"'{name}' is required")


def get_int(
    request: Mapping[str, Any],
    name: str,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    default: int | None = None,
) -> int:
    """A whole number field (JSON integers only; ``true`` is not 1)."""
    if name not in request or request[name] is None:
        if default is None:
            raise RequestError(name, f"'{name}' is required")
        return default
    value = request[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(name, f"'{name}' must be a whole number, not {json_repr(value)}")
    if minimum is not None and value < minimum:
        raise RequestError(name, f"'{name}' must be at least {minimum}, not {value}")
    if maximum is not None and value > maximum:
        raise RequestError(name, f"'{name}' must be at most {maximum}, not {value}")
    return value


def get_decimal(
    request: Mapping[str, Any],
    name: str,
    *,
    minimum: Decimal | None = None,
    maximum: Decimal | None = None,
    default: Decimal | None = None,
    max_decimals: int | None = None,
) -> Decimal:
    """A decimal-string field (``"1.5"``); integers are accepted too, binary floats are not."""
    if name not in request or request[name] is None:
        if default is None:
            raise RequestError(name, f"'{name}' is required")
        return default
    raw = request[name]
    if isinstance(raw, bool) or not isinstance(raw, str | int):
        raise RequestError(name, f"'{name}' must be a decimal string such as \"1.5\", not {json_repr(raw)}")
    try:
        value = Decimal(str(raw).strip())
    except InvalidOperation:
        raise RequestError(name, f"'{name}' must be a decimal number, not {json_repr(raw)}") from None
    if not value.is_finite():
        raise RequestError(name, f"'{name}' must be a finite number, not {json_repr(raw)}")
    if max_decimals is not None and -value.as_tuple().exponent > max_decimals:
        raise RequestError(name, f"'{name}' may have at most {max_decimals} decimals, not {raw}")
    if minimum is not None and value < minimum:
        raise RequestError(name, f"'{name}' must be at least {minimum}, not {raw}")
    if maximum is not None and value > maximum:
        raise RequestError(name, f"'{name}' must be at most {maximum}, not {raw}")
    return value


def get_choice(request: Mapping[str, Any], name: str, choices: Sequence[str], *, default: str | None = None) -> str:
    """One of a fixed set of strings."""
    if name not in request or request[name] is None:
        if default is None:
            raise RequestError(name, f"'{name}' is required; one of {', '.join(choices)}")
        return default
    value = request[name]
    if value not in choices:
        raise RequestError(name, f"'{name}' must be one of {', '.join(choices)}, not {json_repr(value)}")
    return value


def get_bool(request: Mapping[str, Any], name: str, *, default: bool) -> bool:
    if name not in request or request[name] is None:
        return default
    value = request[name]
    if not isinstance(value, bool):
        raise RequestError(name, f"'{name}' must be true or false, not {json_repr(value)}")
    return value


def json_repr(value: Any) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    return repr(value)


# --- ranks and ties ---------------------------------------------------------------------------------

Rank = tuple[int, int]


def parse_ranks(raw: Any, *, field_size: int | None = None, name: str = "ranks") -> list[Rank]:
    """Validate a list of ``[first, last]`` place ranges, one per entry (``engine-cli.md``).

    Each group ``[a, b]`` must appear exactly ``b − a + 1`` times, groups must not overlap, and, when
    ``field_size`` is given, no place may lie beyond it. Places may be left out (absent entries).
    """
    if not isinstance(raw, list):
        raise RequestError(name, f"'{name}' must be a list of [first, last] places")
    ranks: list[Rank] = []
    for i, item in enumerate(raw):
        where = f"{name}[{i}]"
        if (
            not isinstance(item, list)
            or len(item) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) for v in item)
        ):
            raise RequestError(where, f"each item of '{name}' must be [first, last] with whole numbers")
        first, last = item
        if first < 1 or last < first:
            raise RequestError(where, f"place range [{first}, {last}] is not valid: need 1 ≤ first ≤ last")
        if field_size is not None and last > field_size:
            raise RequestError(where, f"place {last} lies outside the field of {field_size}")
        ranks.append((first, last))
    counts = Counter(ranks)
    for (first, last), count in counts.items():
        if count != last - first + 1:
            raise RequestError(
                name,
                f"the tie [{first}, {last}] covers {last - first + 1} places but appears {count} times",
            )
    groups = sorted(counts)
    for (a1, b1), (a2, b2) in pairwise(groups):
        if a2 <= b1:
            raise RequestError(name, f"the places [{a1}, {b1}] and [{a2}, {b2}] overlap")
    return ranks


def tie_share(raw: Callable[[int], Fraction], first: int, last: int) -> Fraction:
    """The unrounded share of each entry tied on places ``first…last``: the sum of those places'
    unrounded values, divided equally (DBf § 405B3 / D-Q12; HBS H-7). ``raw`` returns 0 beyond the paid places."""
    total = sum((to_fraction(raw(p)) for p in range(first, last + 1)), Fraction(0))
    return total / (last - first + 1)


# --- what every engine returns per player ------------------------------------------------------------

#: Decimals of each point kind's unit: BP whole, SP tenths, GP hundredths (DBf § 402); HBS kinds whole.
KIND_DECIMALS: dict[str, int] = {"BP": 0, "SP": 1, "GP": 2, "black": 0, "red": 0, "master": 0}


@dataclass(frozen=True)
class Explanation:
    """Why an award is this many points: the rule ids applied and the inputs, in reading order.

    ``inputs`` holds (name, value) pairs with values as strings (``("N", "40")``, ``("Q", "0.713940")``)
    so the site can store them as JSON and show them to the director and the player unchanged.
    """

    rules: tuple[str, ...]
    inputs: tuple[tuple[str, str], ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {"rules": list(self.rules), "inputs": dict(self.inputs)}


@dataclass(frozen=True)
class PlayerAward:
    """One player's award from one scoring part of a tournament (a row, a match, a bonus, a day).

    ``player`` and ``entry`` are the caller's own keys (registration number, pair/team key); ``units``
    is an integer number of the kind's unit (1 BP, 0.1 SP, 0.01 GP, 1 HBS point).
    """

    player: str
    entry: str
    kind: str
    units: int
    explanation: Explanation
    part: str = ""

    @property
    def amount(self) -> str:
        return format_units(self.units, KIND_DECIMALS[self.kind])
