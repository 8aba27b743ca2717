"""The dated HBS rule set: every constant of the rules as data (``hbs.md``, ``interpretations.md`` H-1…H-11).

The Croatian original is a draft: its parameters are to be checked against past years (transition rule 8)
and put to public consultation (rule 9). So the formula's 3, 5, 12 and −7, the 0.7 of the spread, T, the
50 % of paid units, the 33 % board minimum, the minimum fields and the category table are fields of a
frozen, dated :class:`HbsRuleSet`, which the Django side stores as plain JSON (:meth:`HbsRuleSet.to_dict`,
:meth:`HbsRuleSet.from_dict`) and passes in as a value.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

FORMS: tuple[str, ...] = ("individual", "pairs", "teams")
KINDS: tuple[str, ...] = ("black", "red", "master")

#: Readings of the empty black cells of the category table (H-2, H-25). H-25 keeps "as above": vector H-C2
#: (500 black, 200 red: karo, not karo ekspert) pins it; transition rule 7's "Na temelju dobivenih rezultata
#: (broja crvenih i majstorskih poena) dodijelit će se nove kategorije" names the points the transition derives
#: (rules 2 and 5; black comes from the old list, rule 1), not a ladder without black minimums.
BLACK_AS_ABOVE = "as_above"
BLACK_NO_MINIMUM = "no_minimum"
#: Which categories stay when the points fall below them (H-24): those kept under transition rule 4, or all.
KEPT_TRANSITION_RULE_4 = "transition_rule_4"
KEPT_ALL = "all"
PAID_ROUNDING = ("up", "down")
#: Over what rule 6's 33 % is judged in a long-running team competition (H-28): once over the competition (the team's
#: boards), or match by match (H-5's former provisional reading).
SHARE_OVER_COMPETITION = "competition"
SHARE_PER_MATCH = "match"


@dataclass(frozen=True)
class CategoryRow:
    """One row of the category ladder as the original prints it (``hbs.md``, H-2).

    ``None`` is an empty cell. How an empty *black* cell reads is the rule set's ``empty_black_cells``
    setting (H-2: "2000, as above" by default); empty red and master cells mean no minimum.
    """

    code: str
    name: str
    black: int | None = None
    red: int | None = None
    master: int | None = None

    def minimum(self, kind: str) -> int | None:
        return getattr(self, kind)


#: The ladder exactly as ``seeds/000_…`` prints it, lowest first, empty cells kept empty (H-2).
DRAFT_CATEGORIES: tuple[CategoryRow, ...] = (
    CategoryRow("VK", "vankategornik", 50),
    CategoryRow("", "tref", 200),
    CategoryRow("", "karo", 500),
    CategoryRow("", "herc", 1000),
    CategoryRow("", "pik", 2000),
    CategoryRow("E", "tref ekspert", 2000, 100),
    CategoryRow("E", "karo ekspert", None, 200),
    CategoryRow("E", "herc ekspert", None, 300),
    CategoryRow("E", "pik ekspert", None, 500),
    CategoryRow("MK", "majstorski kandidat", None, 200, 10),
    CategoryRow("M", "majstor", None, 500, 50),
    CategoryRow("MM", "međunarodni majstor", None, 1000, 100),
    CategoryRow("VM", "velemajstor", None, 2000, 200),
)


@dataclass(frozen=True)
class HbsRuleSet:
    """All parameters of the HBS rules in force from ``valid_from`` (inclusive).

    Numbers are exact ``Fraction`` values (JSON: decimal strings). Mappings by form or kind are tuples of
    pairs so the value stays immutable and hashable; use :meth:`form_factor`, :meth:`minimum_field`.
    """

    name: str = "HBS draft"
    #: The draft applies to all results since 1991 (transition rules 2 and 8: the what-if run over history).
    valid_from: dt.date = dt.date(1991, 1, 1)

    # HBS formula: B = (base + N·T/field_divisor) · S · (1 + D/boards_divisor) + constant
    base: Fraction = Fraction(3)
    field_divisor: Fraction = Fraction(5)
    boards_divisor: Fraction = Fraction(12)
    constant: Fraction = Fraction(-7)
    #: T per form ("tip natjecanja": ½ individual, 1 pairs, 2 teams).
    form_factors: tuple[tuple[str, Fraction], ...] = (
        ("individual", Fraction(1, 2)),
        ("pairs", Fraction(1)),
        ("teams", Fraction(2)),
    )
    #: The 0.7 of s_k = ln((n + 1)/(k − 0.7)); must stay below 1 so s_1 is finite.
    place_offset: Fraction = Fraction(7, 10)

    # H-3: n = paid_share · N, rounded up (the only rounding rule the text has) or down (a setting).
    paid_share: Fraction = Fraction(1, 2)
    paid_rounding: str = "up"

    # H-6: every paid place gets at least this many points, also when B ≤ 0 unless the setting below is on.
    minimum_award: int = 1
    nothing_when_b_nonpositive: bool = False

    #: H-10 / rule 5: minimum units per form for a tournament to score.
    minimum_fields: tuple[tuple[str, int], ...] = (("individual", 10), ("pairs", 6), ("teams", 3))
    #: H-9 / rule 6: a team player scores with at least this share of the team's boards (≥, exact).
    team_board_share: Fraction = Fraction(33, 100)
    #: H-28, rule 6: "Da bi ostvario pravo na bodovanje u timskim natjecanjima, igrač mora sudjelovati u barem 33%
    #: djeljenja." The right to be scored is earned in the competition, over its boards: in a long-running one the
    #: share is judged once, over the team's boards, and a player who has it scores every win and the placing
    #: (``SHARE_OVER_COMPETITION``); ``SHARE_PER_MATCH`` judges each won match by its own boards (H-5's former reading).
    team_share_basis: str = SHARE_OVER_COMPETITION

    # H-5 (provisional): per won match of a long-running team competition, B with N = win_field,
    # T = win_form_factor and D = the match's boards, for matches of at least win_min_boards boards.
    win_min_boards: int = 16
    win_field: int = 2
    win_form_factor: Fraction = Fraction(2)
    #: Share of a win's points a drawn match scores: 0 (the text names only wins; a setting).
    draw_share: Fraction = Fraction(0)

    #: H-1 / H-4: what an event absent from the list of recognised tournaments awards: (kind, S) pairs.
    unlisted_awards: tuple[tuple[str, Fraction], ...] = (("black", Fraction(1)),)
    #: H-4: S is a tournament's strength factor ("snaga turnira iskazana faktorom S", Način
    #: bodovanja 2), 1 for an ordinary club event (``unlisted_awards``). The usual range is half to twice that:
    #: an S outside it is a warning to check. Above ``strength_maximum`` S is refused: at S = 5 a club evening
    #: of 20 pairs and 24 boards already pays its winners 98 black points, seven times the 14 of S = 1 (an S of
    #: 999.999 paid 13,793). Configuration until HBS lists real strengths (transition rule 8).
    strength_usual_low: Fraction = Fraction(1, 2)
    strength_usual_high: Fraction = Fraction(2)
    strength_maximum: Fraction = Fraction(5)
    #: H-1: what each organiser awards when its event is not on the list: clubs and regions black points,
    #: the federation's own events every kind; a listed event awards the kinds of its entry on the list.
    organiser_awards: tuple[tuple[str, tuple[str, ...]], ...] = (
        ("club", ("black",)),
        ("district", ("black",)),
        ("circle", ("black",)),
        ("federation", ("black", "red", "master")),
        # H-26: an internet tournament its licensed director reports (rule 10), when it is not on the list.
        ("internet", ("black",)),
    )
    #: Rule 3 lists by calendar year: (month, day) of a season's first day.
    season_start: tuple[int, int] = (1, 1)
    #: HBS has no mail rule of its own; the category e-mail follows DBf's § 451B months.
    title_mail_months: tuple[int, ...] = (9, 10, 11, 12, 1, 2, 3, 4)
    #: Transition rule 3: the share of a 1991 category's master minimum (and, with the next setting, its red
    #: minimum) its holder is credited.
    transition_1991_share: Fraction = Fraction(1, 2)
    #: H-21: rule 3's "prema ovom kriteriju" is rule 2's criterion, the master points: red is credited only when
    #: the commission sets this (off in the draft).
    transition_1991_red: bool = False

    #: H-2: the category ladder, lowest first, and how its empty black cells read (H-25 keeps "as above").
    categories: tuple[CategoryRow, ...] = DRAFT_CATEGORIES
    empty_black_cells: str = BLACK_AS_ABOVE
    #: H-24: which categories are kept when the points fall below them. Transition rule 4: "Igrači s
    #: kategorijama, koji ne budu zadovoljavali nove uvjete, zadržavaju svoje kategorije" (players with
    #: categories who do not meet the new conditions keep their categories): only the old categories kept
    #: under it (``KEPT_TRANSITION_RULE_4``); every other category follows the points, also after a granted
    #: correction takes them away. ``KEPT_ALL`` (a category once reached is never lost) is the former reading.
    categories_kept: str = KEPT_TRANSITION_RULE_4

    def __post_init__(self) -> None:
        forms = dict(self.form_factors)
        if set(forms) != set(FORMS) or set(dict(self.minimum_fields)) != set(FORMS):
            raise ValueError(f"form_factors and minimum_fields need exactly the forms {', '.join(FORMS)}")
        if self.field_divisor == 0 or self.boards_divisor == 0:
            raise ValueError("field_divisor and boards_divisor must not be 0")
        if not 0 <= self.place_offset < 1:
            raise ValueError("place_offset must lie in [0, 1) so that s_1 = ln((n + 1)/(1 − offset)) is finite")
        if not 0 < self.paid_share <= 1:
            raise ValueError("paid_share must lie in (0, 1]")
        if self.paid_rounding not in PAID_ROUNDING:
            raise ValueError(f"paid_rounding must be one of {', '.join(PAID_ROUNDING)}")
        if not 0 <= self.team_board_share <= 1:
            raise ValueError("team_board_share must lie in [0, 1]")
        if self.team_share_basis not in (SHARE_OVER_COMPETITION, SHARE_PER_MATCH):
            raise ValueError(f"team_share_basis must be {SHARE_OVER_COMPETITION!r} or {SHARE_PER_MATCH!r}")
        if self.minimum_award < 0:
            raise ValueError("minimum_award must not be negative")
        if self.categories_kept not in (KEPT_TRANSITION_RULE_4, KEPT_ALL):
            raise ValueError(f"categories_kept must be {KEPT_TRANSITION_RULE_4!r} or {KEPT_ALL!r}")
        if self.empty_black_cells not in (BLACK_AS_ABOVE, BLACK_NO_MINIMUM):
            raise ValueError(f"empty_black_cells must be {BLACK_AS_ABOVE!r} or {BLACK_NO_MINIMUM!r}")
        names = [row.name for row in self.categories]
        if len(set(names)) != len(names):
            raise ValueError("category names must be unique")
        for kind, s in self.unlisted_awards:
            if kind not in KINDS:
                raise ValueError(f"unlisted_awards: unknown kind {kind!r}")
            if not 0 < s <= self.strength_maximum:
                raise ValueError(f"unlisted_awards: S of {kind} must lie in (0, strength_maximum]")
        if not 0 < self.strength_usual_low <= self.strength_usual_high <= self.strength_maximum:
            raise ValueError("the strengths must keep 0 < strength_usual_low ≤ strength_usual_high ≤ strength_maximum")

    # --- look-ups ----------------------------------------------------------------------------------------

    def form_factor(self, form: str) -> Fraction:
        """T of the HBS formula for ``form``."""
        return dict(self.form_factors)[form]

    def strength_refusal(self, strength: Fraction) -> str | None:
        """Why S cannot be used (H-4): not above 0, or above :attr:`strength_maximum`; ``None`` when it can."""
        if strength <= 0:
            return f"'strength' (S) must be greater than 0, not {number_text(strength)} (H-4)"
        if strength > self.strength_maximum:
            return (
                f"'strength' (S) is {number_text(strength)}, above the rule set's strength_maximum "
                f"{number_text(self.strength_maximum)} ({self.name}, H-4)"
            )
        return None

    def minimum_field(self, form: str) -> int:
        """Fewest units for a tournament of ``form`` to score (rule 5, H-10)."""
        return dict(self.minimum_fields)[form]

    def awards_of(self, organiser: str) -> tuple[str, ...]:
        """The kinds ``organiser`` awards at an event not on the list of recognised tournaments (H-1)."""
        return dict(self.organiser_awards).get(organiser, ())

    def category_minimums(self) -> tuple[tuple[str, int, int, int], ...]:
        """The ladder as read by H-2: ``(name, black, red, master)`` with every minimum a number.

        With ``empty_black_cells == "as_above"`` an empty black cell repeats the nearest black value
        above it (karo ekspert … velemajstor: 2000); with ``"no_minimum"`` (the literal reading) it is 0.
        Empty red and master cells are 0 (no minimum).
        """
        rows = []
        black_above = 0
        for row in self.categories:
            if row.black is not None:
                black = row.black
                black_above = row.black
            else:
                black = black_above if self.empty_black_cells == BLACK_AS_ABOVE else 0
            rows.append((row.name, black, row.red or 0, row.master or 0))
        return tuple(rows)

    # --- plain JSON --------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON (strings, ints, bools, lists, dicts); :meth:`from_dict` reverses it exactly."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "valid_from":
                out[f.name] = value.isoformat()
            elif f.name == "form_factors":
                out[f.name] = {form: number_text(t) for form, t in value}
            elif f.name == "minimum_fields":
                out[f.name] = dict(value)
            elif f.name == "organiser_awards":
                out[f.name] = {organiser: list(kinds) for organiser, kinds in value}
            elif f.name in ("season_start", "title_mail_months"):
                out[f.name] = list(value)
            elif f.name == "unlisted_awards":
                out[f.name] = [{"kind": kind, "strength": number_text(s)} for kind, s in value]
            elif f.name == "categories":
                out[f.name] = [
                    {"code": r.code, "name": r.name, "black": r.black, "red": r.red, "master": r.master} for r in value
                ]
            elif isinstance(value, Fraction):
                out[f.name] = number_text(value)
            else:
                out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HbsRuleSet:
        """Build a rule set from :meth:`to_dict` output; missing keys take the draft's values.

        Unknown keys are refused (a typo must not silently keep a draft value). Raises ``ValueError``.
        """
        known = {f.name: f for f in fields(cls)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise ValueError(f"unknown rule set keys: {', '.join(unknown)}")
        kwargs: dict[str, Any] = {}
        for name, raw in data.items():
            try:
                kwargs[name] = _from_json(name, raw, known[name].default)
            except (TypeError, ValueError, KeyError, InvalidOperation, ZeroDivisionError) as exc:
                raise ValueError(f"rule set key {name!r}: {exc}") from None
        return cls(**kwargs)


def _from_json(name: str, raw: Any, default: Any) -> Any:
    if name == "valid_from":
        return dt.date.fromisoformat(raw)
    if name == "form_factors":
        return tuple((form, _num(raw[form])) for form in FORMS)
    if name == "minimum_fields":
        return tuple((form, _int(raw[form])) for form in FORMS)
    if name == "unlisted_awards":
        return tuple((str(item["kind"]), _num(item["strength"])) for item in raw)
    if name == "organiser_awards":
        return tuple((str(organiser), tuple(str(kind) for kind in kinds)) for organiser, kinds in raw.items())
    if name == "season_start":
        month, day = (_int(part) for part in raw)
        return (month, day)
    if name == "title_mail_months":
        return tuple(_int(month) for month in raw)
    if name == "categories":
        return tuple(
            CategoryRow(
                code=str(item.get("code", "")),
                name=str(item["name"]),
                black=_opt_int(item.get("black")),
                red=_opt_int(item.get("red")),
                master=_opt_int(item.get("master")),
            )
            for item in raw
        )
    if isinstance(default, Fraction):
        return _num(raw)
    if isinstance(default, bool):
        if not isinstance(raw, bool):
            raise TypeError(f"expected true or false, not {raw!r}")
        return raw
    if isinstance(default, int):
        return _int(raw)
    if not isinstance(raw, str):
        raise TypeError(f"expected a string, not {raw!r}")
    return raw


def number_text(value: Fraction) -> str:
    """Exact display and JSON form of a number: a terminating decimal as a decimal string (``"0.7"``),
    anything else as ``"p/q"``."""
    den = value.denominator
    twos = fives = 0
    while den % 2 == 0:
        den //= 2
        twos += 1
    while den % 5 == 0:
        den //= 5
        fives += 1
    if den != 1:
        return f"{value.numerator}/{value.denominator}"
    places = max(twos, fives)
    scaled = value * 10**places
    return str(Decimal(scaled.numerator).scaleb(-places))


def _num(raw: Any) -> Fraction:
    """Exact number from JSON: an int or a string (``"0.7"``, ``"-7"``, ``"1/3"``); never a binary float."""
    if isinstance(raw, bool) or not isinstance(raw, int | str):
        raise TypeError(f"expected a decimal string, not {raw!r}")
    if isinstance(raw, int):
        return Fraction(raw)
    text = raw.strip()
    if "/" in text:
        num, den = text.split("/", 1)
        return Fraction(int(num), int(den))
    value = Decimal(text)
    if not value.is_finite():
        raise ValueError(f"not a finite number: {raw!r}")
    return Fraction(value)


def _int(raw: Any) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise TypeError(f"expected a whole number, not {raw!r}")
    return raw


def _opt_int(raw: Any) -> int | None:
    return None if raw is None else _int(raw)


HBS_DRAFT = HbsRuleSet()
"""The draft as the Croatian original states it, read with H-1…H-11 (``hbs.md``, ``interpretations.md``)."""


def ruleset_for(on: dt.date, sets: Iterable[HbsRuleSet] = (HBS_DRAFT,)) -> HbsRuleSet:
    """The rule set in force on ``on``: the one with the latest ``valid_from`` not after it.

    Raises ``LookupError`` when no set is in force yet, and ``ValueError`` when two sets start the same day
    (which one applies would be ambiguous).
    """
    candidates = [s for s in sets if s.valid_from <= on]
    if not candidates:
        raise LookupError(f"no HBS rule set is in force on {on.isoformat()}")
    latest = max(s.valid_from for s in candidates)
    chosen = [s for s in candidates if s.valid_from == latest]
    if len(chosen) > 1:
        raise ValueError(f"{len(chosen)} HBS rule sets start on {latest.isoformat()}")
    return chosen[0]


__all__ = [
    "BLACK_AS_ABOVE",
    "BLACK_NO_MINIMUM",
    "DRAFT_CATEGORIES",
    "FORMS",
    "HBS_DRAFT",
    "KEPT_ALL",
    "KEPT_TRANSITION_RULE_4",
    "KINDS",
    "SHARE_OVER_COMPETITION",
    "SHARE_PER_MATCH",
    "CategoryRow",
    "HbsRuleSet",
    "number_text",
    "ruleset_for",
]
