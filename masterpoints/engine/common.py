"""Shared pieces of the points engine: request errors, exact rounding, ranks and ties.

Pure Python: nothing here (or anywhere in ``masterpoints.engine``) may import Django or the apps.
Amounts are exact (``Fraction`` or ``Decimal``) until the final rounding, which yields integer units.
"""

from __future__ import annotations

import math
import string
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


#: Bounds on the numbers a request brings in, far above any real event and low enough that no request can
#: make the engine work long: the largest fields on record are about 1,500 pairs (an open pairs
#: championship) and a few thousand pairs in one simultaneous event across the clubs (§ 403A1); the web
#: calculator takes at most 5,000 participants too.
MAX_FIELD = 5_000
#: Boards of one tournament: a long team competition's season (HBS rule 8) stays far below this.
MAX_BOARDS = 2_000
#: Strength rows of one field (§ 405B5: a handful in practice).
MAX_ROWS = 30
#: Matches each team plays in one event (§ 412B: K).
MAX_MATCHES = 500
#: Any other whole number (a balance in units, a place): 10**12 units is ten billion MP.
MAX_WHOLE = 10**12
#: A decimal has at most this many significant digits and a magnitude between 10**-12 and 10**12.
MAX_DECIMAL_DIGITS = 30
MAX_DECIMAL_EXPONENT = 12


def get_int(
    request: Mapping[str, Any],
    name: str,
    *,
    minimum: int | None = None,
    maximum: int | None = MAX_WHOLE,
    default: int | None = None,
) -> int:
    """A whole number field (JSON integers only; ``true`` is not 1), at most ``maximum`` (:data:`MAX_WHOLE`
    unless the field has a tighter bound)."""
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
    if value and (len(value.as_tuple().digits) > MAX_DECIMAL_DIGITS or abs(value.adjusted()) > MAX_DECIMAL_EXPONENT):
        raise RequestError(
            name,
            f"'{name}' must have at most {MAX_DECIMAL_DIGITS} digits and lie between 10^-{MAX_DECIMAL_EXPONENT} "
            f"and 10^{MAX_DECIMAL_EXPONENT}",
        )
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


#: An error message quotes at most this many characters of a value it refuses.
QUOTED_CHARACTERS = 40


def json_repr(value: Any) -> str:
    """``value`` as JSON would write it, shortened to :data:`QUOTED_CHARACTERS` for a message."""
    if isinstance(value, str):
        text = f'"{value}"'
    elif value is True:
        text = "true"
    elif value is False:
        text = "false"
    elif value is None:
        text = "null"
    elif isinstance(value, int) and value.bit_length() > 128:
        text = f"a number of about {int(value.bit_length() * 0.30103)} digits"
    else:
        text = repr(value)
    return text if len(text) <= QUOTED_CHARACTERS else text[: QUOTED_CHARACTERS - 1] + "…"


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


# --- why nothing (or a zero) is awarded -----------------------------------------------------------------

#: The engine's reasons, one per kind, as English templates (``{name}`` are the reason's parameters;
#: ``{form:a}`` writes the form with its article: "an individual", "a pairs"). The English text is the
#: engine's own (the CLI's ``reason``, engine-cli.md); pages translate by the code (``masterpoints.engine_text``).
REASON_TEMPLATES: dict[str, str] = {
    # DBf § 405B6c: n1 = 0 below 12 boards per playing day.
    "BP_TOO_FEW_BOARDS": "too few boards: {boards} < {need} per playing day, no BP ({rule})",
    # DBf § 405B7c (SP, 27 boards) and § 405B7g (GP at a club, 54 boards), on the whole tournament.
    "SPGP_TOO_FEW_BOARDS": "too few boards: {boards} < {need} in the tournament, no {kind} ({rule})",
    # DBf § 406B2, D-Q15: the pair bonus formula is off; § 451A: the director enters the bonus.
    "PAIR_BONUS_BY_HAND": (
        "the § 406B2 pair bonus formula is not confirmed (D-Q15): the director enters it by hand (§ 451A)"
    ),
    # DBf § 405A4: the BP team bonus is prorated by boards; none played, no bonus.
    "NO_BOARDS_NO_BONUS": "no boards were played, so there is no bonus (§ 405A4)",
    # HBS H-6 (a setting): B ≤ 0 awards nothing instead of 1 per place.
    "B_NOT_POSITIVE": "B = {b} is not positive and this rule set awards nothing then (H-6 setting)",
    # HBS H-3: the paid share of the field, rounded as set, pays no place.
    "NO_PLACE_PAID": "{share} % of {n} rounded {rounding} pays no place (H-3)",
    # HBS H-3: an entry wholly beyond the n paid places.
    "PLACE_NOT_PAID": "place {place} lies beyond the {n} paid places (H-3)",
    # HBS rule 6, H-9: a team player needs 33 % of the team's boards.
    "TEAM_SHARE_TOO_SMALL": "played less than {share} (rule 6, H-9)",
    # HBS H-5, H-9: a player needs 33 % of the boards of a won match.
    # Only where the rule set judges rule 6 per match (team_share_basis "match"); H-28 judges it over the
    # competition, whose refusal is TEAM_SHARE_TOO_SMALL.
    "MATCH_SHARE_TOO_SMALL": "played less than {share} of the match (H-9)",
    # HBS H-5 (provisional): a match scores per win only from 16 boards.
    "MATCH_TOO_SHORT_FOR_WIN": "a match of {boards} boards is not scored per win: it needs {need} (H-5)",
    # HBS rule 5, H-10: a field below the minimum of its form scores nothing.
    "FIELD_BELOW_MINIMUM": (
        "field below the minimum: {n} {noun} took part, {form:a} tournament needs at least {minimum} {noun} "
        "to score (rule 5, H-10); nothing is awarded"
    ),
}


class _ReasonFormatter(string.Formatter):
    """``str.format`` with one extra spec: ``{form:a}`` puts the English article before the value."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "a":
            return f"{'an' if str(value)[:1] in 'aeiou' else 'a'} {value}"
        return super().format_field(value, format_spec)


_FORMATTER = _ReasonFormatter()


@dataclass(frozen=True)
class Reason:
    """Why nothing (or a zero) is awarded: a stable code of :data:`REASON_TEMPLATES` and its parameters.

    ``params`` are (name, value) pairs of plain strings (numbers as the engine writes them, rule ids,
    fixed words such as ``pairs``), so a page can say the same in its reader's language by the code and
    the ledger can store it as JSON. :attr:`text` is the engine's English sentence.
    """

    code: str
    params: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if self.code not in REASON_TEMPLATES:
            raise ValueError(f"unknown reason code {self.code!r}")

    @classmethod
    def of(cls, code: str, **params: object) -> Reason:
        """``Reason.of("PLACE_NOT_PAID", place="7", n=6)``: every parameter as text."""
        return cls(code, tuple((name, str(value)) for name, value in params.items()))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Reason:
        """Back from :meth:`as_dict` (as stored in an explanation)."""
        return cls.of(str(data["code"]), **dict(data.get("params") or {}))

    @property
    def values(self) -> dict[str, str]:
        return dict(self.params)

    @property
    def text(self) -> str:
        """The English sentence (the CLI's ``reason``)."""
        return _FORMATTER.format(REASON_TEMPLATES[self.code], **self.values)

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "params": self.values}

    def __str__(self) -> str:
        return self.text


def reason_answer(reason: Reason | None) -> dict[str, Any]:
    """The CLI's fields for a reason: ``reason`` (the English sentence), ``reason_code``, ``reason_params``."""
    if reason is None:
        return {}
    return {"reason": reason.text, "reason_code": reason.code, "reason_params": reason.values}


@dataclass(frozen=True)
class Explanation:
    """Why an award is this many points: the rule ids applied and the inputs, in reading order.

    ``inputs`` holds (name, value) pairs with values as strings (``("N", "40")``, ``("Q", "0.713940")``)
    so the site can store them as JSON and show them to the director and the player unchanged. ``reason``
    says why nothing (or a zero) is awarded, when so; its English text is also the ``reason`` input.
    """

    rules: tuple[str, ...]
    inputs: tuple[tuple[str, str], ...] = ()
    reason: Reason | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rules": list(self.rules), "inputs": dict(self.inputs)}
        if self.reason is not None:
            out["reason"] = self.reason.as_dict()
        return out

    def because(self, reason: Reason, *rules: str) -> Explanation:
        """This explanation with ``reason`` (as the reason and as the ``reason`` input) and more rule ids."""
        return Explanation((*self.rules, *rules), (*self.inputs, ("reason", reason.text)), reason)


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
