"""The dated DBf rule set: every constant and policy flag of the DBf rules as data (``dbf.md`` § 2).

§ 406 gives its formulas only as missing images; ``dbf.md`` rebuilds them, and the federation may correct
any parameter without a code change. So mass factors, board thresholds, n2 bands, row tables, team values,
fixed bonus and pair tables, the title ladder and every reading that DBf could decide differently (the
``D-Q`` ids of ``dbf.md`` § 5) are fields of the frozen :class:`DbfRuleSet`, valid from a date. The engine
receives a rule set as a value; :data:`DBF_2023` (DBf rules valid from 1 September 2023) is the default, and
:func:`ruleset_for` picks the set in force on a tournament's date.

Storage: :meth:`DbfRuleSet.to_dict` gives plain JSON types (numbers as exact strings such as ``"0.1"`` or
``"2/3"``, dates as ISO strings, mappings as objects) and :meth:`DbfRuleSet.from_dict` reads them back,
optionally as overrides on top of a base set, so the Django side can keep a set in a ``JSONField``. The
type-driven codec is :mod:`masterpoints.engine.codec`; the record types and the default tables are in
:mod:`.tables` (both importable from here as before).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from masterpoints.engine.codec import decode as _decode
from masterpoints.engine.codec import encode as _encode
from masterpoints.engine.codec import fraction_text as fraction_text
from masterpoints.engine.codec import parse_fraction as parse_fraction
from masterpoints.engine.dbf.tables import (
    BONUS_TABLES,
    CUP_TABLES,
    PAIR_TABLES,
    ROW_FACTORS,
    TEAM_TABLES,
    TITLES,
    TeamValueTable,
    TitleRung,
)

FORMS: tuple[str, ...] = ("pairs", "individual", "minihold")
CATEGORIES: tuple[str, ...] = ("BP", "SP", "GP")
ORGANIZERS: tuple[str, ...] = ("club", "district", "circle", "federation")
SPLITS: tuple[str, ...] = ("random", "strength")

F = Fraction


def _f(text: str) -> Fraction:
    return Fraction(text)


def _insert_extra(table: tuple[tuple[Fraction, ...], ...], rows: int, extra: Fraction | None, position: str):
    """Values for ``rows`` strength rows from a table of 1…L rows, inserting ``extra`` beyond L.

    § 405B5e: "flere end fem rækker, indsættes de ekstra rækker i midterniveauet med 0 %"; § 413A4e:
    "øvrige rækker: 3 SP" (appended at the bottom); § 413F7c: "øvrige rækker: 8,0 SP" (the middle).
    """
    if rows <= len(table):
        return table[rows - 1]
    if extra is None:
        return None
    longest = table[-1]
    more = (extra,) * (rows - len(longest))
    if position == "middle":
        half = len(longest) // 2
        return longest[:half] + more + longest[half:]
    return longest + more


# --- the rule set -------------------------------------------------------------------------------------------------

#: Fraction defaults of the rule set as module constants (Fractions are immutable; RUF009).
_D_2_0 = _f("2.0")
_Q_0 = F(0)
_Q_10 = F(10)
_Q_13 = F(13)
_Q_14 = F(14)
_Q_1_2 = F(1, 2)
_Q_1_3 = F(1, 3)
_Q_1_4 = F(1, 4)
_Q_1_5 = F(1, 5)
_Q_2 = F(2)
_Q_20 = F(20)
_Q_2_3 = F(2, 3)
_Q_3_8 = F(3, 8)
_Q_5_8 = F(5, 8)
_Q_601_100 = F(601, 100)


@dataclass(frozen=True)
class DbfRuleSet:
    """All parameters of the DBf masterpoint rules in force from ``valid_from`` (inclusive).

    Numbers are exact ``Fraction`` values. Mappings are tuples of ``(key, value)`` pairs, so a rule set is
    immutable; read them with :meth:`lookup`. Every field cites the section (or ``D-Q`` reading) it encodes.
    """

    name: str = "DBf 2023"
    #: The DBf rules "Gyldig fra 1. september 2023".
    valid_from: dt.date = dt.date(2023, 9, 1)

    # § 402 / dbf.md § 2.0 — the unit (= MPmin) of each kind: 1 BP, 0.1 SP, 0.01 GP.
    units: tuple[tuple[str, Fraction], ...] = (("BP", F(1)), ("SP", F(1, 10)), ("GP", F(1, 100)))
    #: § 403: what each organiser awards without a sanction (clubs BP, districts and circles SP, DBf GP);
    #: a sanction (§ 403A–B) extends it for one tournament.
    organiser_awards: tuple[tuple[str, tuple[str, ...]], ...] = (
        ("club", ("BP",)),
        ("district", ("BP", "SP")),
        ("circle", ("BP", "SP")),
        ("federation", ("BP", "SP", "GP")),
    )
    #: § 451C: a points season runs from 16 May to 15 May: (month, day) of its first day.
    season_start: tuple[int, int] = (5, 16)
    #: § 451B: the title e-mail goes to the clubs "hver måned fra september til april".
    title_mail_months: tuple[int, ...] = (9, 10, 11, 12, 1, 2, 3, 4)

    # § 2.1 — mass factor M per participant in the row, by form and category (§§ 422–444).
    mass_factors: tuple[tuple[str, tuple[tuple[str, Fraction], ...]], ...] = (
        ("pairs", (("BP", F(2)), ("SP", F(1)), ("GP", F(1, 10)))),
        ("individual", (("BP", F(3, 2)), ("SP", F(3, 4)), ("GP", F(3, 40)))),
        ("minihold", (("BP", F(3)), ("SP", F(3, 2)), ("GP", F(3, 20)))),
    )

    # § 2.2 — n1 by boards: BP per playing day (§ 405B6c), SP on the whole tournament (§ 405B7c).
    bp_boards_full: int = 18
    bp_boards_half: int = 12
    sp_boards_full: int = 42
    sp_boards_half: int = 27
    #: § 405B7g: a club with a GP sanction awards full GP from 54 boards, otherwise none.
    gp_club_boards_full: int = 54
    #: D-Q7: n1 for GP events run by DBf. ``"none"``: always 1 (the text sets no board rule outside clubs);
    #: ``"club"``: the § 405B7g 54-board rule.
    gp_federation_board_rule: str = "none"
    #: § 403B2 "halv MP-uddeling", § 433E2 simultaneous events, § 433D2a beginners' qualifiers.
    half_quota: Fraction = _Q_1_2

    # § 2.2 — n2, the large-tournament surcharge (§ 405B7f, § 423A, § 433A, § 443A).
    n2_categories: tuple[str, ...] = ("SP",)
    n2_organizers: tuple[str, ...] = ("district", "circle", "federation")
    #: (from this many boards in the whole tournament, n2), ascending.
    n2_bands: tuple[tuple[int, Fraction], ...] = ((100, F(1, 5)), (150, F(2, 5)))
    #: § 433B2a: the DM junior pairs final always counts n2, at least this.
    junior_final_min_n2: Fraction = _Q_1_5
    #: D-Q3: n2 enlarges the field (D' = ⌈D_raw·(1 + n2)⌉ sets p_max and Q); off: n2 scales the amount only.
    n2_enlarges_field: bool = True

    # § 2.3 — row-strength factor r by number of strength rows (§ 405B5); extra rows in the middle at 0.
    row_factors: tuple[tuple[Fraction, ...], ...] = ROW_FACTORS
    row_factor_extra: Fraction = _Q_0
    #: D-Q8: rows split at random use each row's own N (off); on: one common scale from the average row size.
    random_rows_common_scale: bool = False

    # § 2.5 — effective field D.
    bp_common_top_cap: int = 40
    bp_common_top_divisor: int = 5
    robots_divisor: int = 5
    sp_gp_unmet_weight: Fraction = _Q_1_2
    top16_field: int = 16

    # § 2.6 / § 2.7 — paid places and the ratio Q.
    paid_share: Fraction = _Q_1_3
    ratio_base: Fraction = _Q_2_3
    #: D-Q1: ``"min_at_last_paid"`` (Q = max(2/3, (MPmin/MPmax)^(1/(p_max−1))), the chosen A1),
    #: ``"min_after_last_paid"`` (exponent 1/p_max, A2) or ``"fixed"`` (Q = 2/3 always, A4).
    ratio_rule: str = "min_at_last_paid"
    #: D-Q2: Q from the base scale (n1 = 1, r = 0, n2 as field only, no post-Q multiplier); off: from the award.
    q_from_base_scale: bool = True

    # § 2.10 — team matches (§ 405A3, § 411B).
    team_board_reference: tuple[tuple[str, int], ...] = (("BP", 24), ("SP", 32), ("GP", 40))
    vp_win: Fraction = _Q_14
    vp_draw_min: Fraction = _Q_601_100
    vp_scale_max: Fraction = _Q_20
    bam_win_share: Fraction = _Q_5_8
    bam_loss_share: Fraction = _Q_3_8
    #: § 421B, D-Q23: a mini-team's bye counts this many VP of the 20/0 scale towards its MP placing ("fx 13
    #: KP ved 20/0-skalaen"), unless the results file gives the bye a score of its own; None: no bye score.
    minihold_bye_vp: Fraction | None = _Q_13
    #: § 421A "En miniholdturnering defineres ved": "flere end to kampe pr. sektion (spilledag)" and "mindst 2 spil
    #: og maksimalt 11 spil" a match (D-Q61: the file's matches decide the form the director leaves to the file).
    minihold_min_matches: int = 3
    minihold_match_boards: tuple[int, int] = (2, 11)
    #: § 412A: row A = 16 + R, B = 12 + R, C = 10 + R, each further row 2 less; random rows 16.
    bp_team_row_bases: tuple[Fraction, ...] = (F(16), F(12), F(10))
    bp_team_row_step: Fraction = _Q_2
    team_tables: tuple[tuple[str, TeamValueTable], ...] = TEAM_TABLES
    cup_tables: tuple[tuple[str, tuple[tuple[str, Fraction], ...]], ...] = CUP_TABLES

    # § 2.11 — BP team bonus (§ 406A3, § 412B).
    bp_bonus_per_match: Fraction = _Q_10
    #: § 412B2: A row 1, B 2/3, C 1/2 of the A row's bonus; every lower row as C.
    bp_bonus_row_fractions: tuple[Fraction, ...] = (F(1), F(2, 3), F(1, 2))
    team_bonus_paid_share: Fraction = _Q_1_3
    #: § 411D: bonus for a player (or substitute) who played at least this share of the team's boards.
    bonus_min_share: Fraction = _Q_1_2

    # § 2.12 — fixed SP/GP team bonuses.
    team_bonus_tables: tuple[tuple[str, tuple[tuple[str, tuple[Fraction, ...]], ...]], ...] = BONUS_TABLES
    #: D-Q18: the § 413B–D bonuses are multiplied by min(1, b/32); off: the printed values are fixed.
    pyramid_bonus_prorated: bool = True
    prorated_bonus_tables: tuple[str, ...] = ("sp_third_div_qual", "sp_district_promotion", "sp_women_school")
    #: § 413F: no. 1 gets X SP per team in the row; X by number of rows like the match values.
    festival_bonus_random: Fraction = _Q_2
    festival_bonus_by_rows: tuple[tuple[Fraction, ...], ...] = (
        (F(2),),
        (_f("2.2"), _f("1.8")),
        (_f("2.3"), _f("2.0"), _f("1.7")),
        (_f("2.3"), _f("2.1"), _f("1.9"), _f("1.7")),
        (_f("2.4"), _f("2.2"), _f("2.0"), _f("1.8"), _f("1.6")),
    )
    festival_bonus_extra: Fraction = _D_2_0
    #: § 413F2: no. 2 = 2/3 of no. 1, no. 3 = 3/4 of no. 2, no. 4 = 4/5 of no. 3.
    festival_bonus_chain: tuple[Fraction, ...] = (F(1), F(2, 3), F(3, 4), F(4, 5))

    # § 2.13 — pair bonus p-406d (low confidence).
    #: D-Q15: compute the § 406B2 pair bonus with the provisional formula; off: the director enters it.
    pair_bonus_enabled: bool = False
    pair_bonus_field_surcharge: Fraction = _Q_1_2
    pair_bonus_paid_share: Fraction = _Q_1_4

    # § 2.14 — fixed GP tables for pair events (§ 434A).
    pair_tables: tuple[tuple[str, tuple[Fraction, ...]], ...] = PAIR_TABLES
    #: § 434A1b, D-Q9: below this many pairs, only the first ceil(N/3) entries of the table are paid.
    pair_table_reduced_below: tuple[tuple[str, int], ...] = (("dm_open_1st_division", 40),)
    #: § 434A1c, D-Q19: DM open pairs 2nd division pays the normal GP scale times this, after Q.
    dm_open_2nd_division_multiplier: Fraction = _Q_2
    #: § 434A5–6: (at most this many pairs, or None for any number, table).
    klubsolv_gp_bands: tuple[tuple[int | None, tuple[Fraction, ...]], ...] = (
        (50, (F(1),)),
        (200, (F(2), F(1))),
        (350, (F(3), F(2), F(1))),
        (None, (F(3), F(2), F(2), F(1), F(1))),
    )
    #: D-Q10: the Klubsølv GP table is keyed on the pairs in the session in ``"total"`` or ``"per_direction"``.
    klubsolv_count: str = "total"

    # § 2.8 / § 2.16 — eligibility and special events.
    #: § 405B7b: SP/GP need at least this share of the boards planned for the player.
    sp_gp_min_share: Fraction = _Q_1_2
    #: D-Q17: ranking basis of an SP/GP handicap tournament (``"handicap"`` or ``"nominal"``); BP always nominal.
    handicap_sp_gp_ranking: str = "handicap"

    # § 2.15 — titles and revaluation (§ 404).
    titles: tuple[TitleRung, ...] = TITLES
    bp_per_sp: int = 20
    sp_per_gp: int = 20
    #: D-Q11: "5 MP (kun BP)" counts BP only (on) or total MP with no SP/GP minimum (off).
    kun_bp_literal: bool = True

    # § 2.16 — foreign MP (§ 401B): country → ((foreign kind, (DBf kind, factor)), …). Faroese and Icelandic
    # are registered without conversion; Swedish and Norwegian tables are the secretariat's to enter.
    foreign_conversion: tuple[tuple[str, tuple[tuple[str, tuple[str, Fraction]], ...]], ...] = (
        ("FO", (("BP", ("BP", F(1))), ("SP", ("SP", F(1))), ("GP", ("GP", F(1))))),
        ("IS", (("BP", ("BP", F(1))), ("SP", ("SP", F(1))), ("GP", ("GP", F(1))))),
    )

    def __post_init__(self) -> None:
        """Refuse settings the engine cannot read (a typo in a stored override must not pass silently)."""
        choices = {
            "ratio_rule": ("min_at_last_paid", "min_after_last_paid", "fixed"),
            "gp_federation_board_rule": ("none", "club"),
            "klubsolv_count": ("total", "per_direction"),
            "handicap_sp_gp_ranking": ("handicap", "nominal"),
        }
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}, not {getattr(self, name)!r}")
        bases = ("total", "bp_only", "sp_gp_or_total", "sp_gp", "gp")
        for rung in self.titles:
            if rung.basis not in bases:
                raise ValueError(f"title basis must be one of {', '.join(bases)}, not {rung.basis!r}")
        for _, table in self.team_tables:
            if table.bonus not in ("formula", "table", "festival", "none"):
                raise ValueError(f"team table bonus must be formula, table, festival or none, not {table.bonus!r}")

    # --- lookups ------------------------------------------------------------------------------------

    @staticmethod
    def lookup(pairs: Iterable[tuple[str, Any]], key: str) -> Any:
        for name, value in pairs:
            if name == key:
                return value
        raise KeyError(key)

    def awards_of(self, organiser: str) -> tuple[str, ...]:
        """The kinds ``organiser`` (club, district, circle, federation) awards without a sanction (§ 403)."""
        return dict(self.organiser_awards).get(organiser, ())

    def unit(self, category: str) -> Fraction:
        """MPmin of ``category`` (§ 402, § 406B3)."""
        return self.lookup(self.units, category)

    def mass_factor(self, form: str, category: str) -> Fraction:
        """M of § 2.1 (§ 422–§ 444)."""
        return self.lookup(self.lookup(self.mass_factors, form), category)

    def board_reference(self, category: str) -> int:
        """N of § 405A3: 24 (BP), 32 (SP), 40 (GP) boards per match."""
        return self.lookup(self.team_board_reference, category)

    def team_table(self, key: str) -> TeamValueTable:
        return self.lookup(self.team_tables, key)

    def strength_row_factors(self, rows: int) -> tuple[Fraction, ...]:
        """r for each of ``rows`` strength rows, top first (§ 405B5)."""
        return _insert_extra(self.row_factors, rows, self.row_factor_extra, "middle")

    def festival_factors(self, rows: int) -> tuple[Fraction, ...]:
        return _insert_extra(self.festival_bonus_by_rows, rows, self.festival_bonus_extra, "middle")

    def team_table_values(self, table: TeamValueTable, rows: int) -> tuple[Fraction, ...] | None:
        return _insert_extra(table.by_rows, rows, table.extra, table.extra_position)

    # --- storage --------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types: strings, ints, bools, lists, objects (exact numbers as strings)."""
        hints = typing.get_type_hints(type(self))
        return {f.name: _encode(hints[f.name], getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], base: DbfRuleSet | None = None) -> DbfRuleSet:
        """Read :meth:`to_dict` output back. With ``base``, fields absent from ``data`` keep ``base``'s
        values (overrides); without it they take the DBf 2023 defaults. Unknown fields are refused."""
        hints = typing.get_type_hints(cls)
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise ValueError(f"unknown rule-set fields: {', '.join(unknown)}")
        values = {name: _decode(hints[name], data[name], name) for name in data}
        return dataclasses.replace(base if base is not None else cls(), **values)


DBF_2023 = DbfRuleSet()
DEFAULT_RULE_SETS: tuple[DbfRuleSet, ...] = (DBF_2023,)


def ruleset_for(on_date: dt.date, sets: Iterable[DbfRuleSet] = DEFAULT_RULE_SETS) -> DbfRuleSet:
    """The newest rule set valid on ``on_date`` (``valid_from`` ≤ date): a past tournament is computed
    with the rules in force on its date. Raises ``LookupError`` when no given set was valid yet."""
    valid = [s for s in sets if s.valid_from <= on_date]
    if not valid:
        raise LookupError(f"no DBf rule set is valid on {on_date.isoformat()}")
    return max(valid, key=lambda s: s.valid_from)
