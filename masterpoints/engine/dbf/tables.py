"""The DBf rule set's record types and default tables (``dbf.md`` §§ 2.3, 2.4, 2.12, 2.14, 2.15).

:class:`TitleRung` (the § 404A ladder) and :class:`TeamValueTable` (§§ 412–414 per-player match values) are
the records a :class:`~masterpoints.engine.dbf.rules.DbfRuleSet` holds; the tuples below are the DBf 2023
defaults of its fields, each citing the section it copies. Everything is also importable from
``masterpoints.engine.dbf.rules``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

F = Fraction


def _f(text: str) -> Fraction:
    return Fraction(text)


# --- small immutable record types used inside the rule set --------------------------------------------------------


@dataclass(frozen=True)
class TitleRung:
    """One title of the § 404A ladder (``dbf.md`` § 2.15), lowest first in :attr:`DbfRuleSet.titles`.

    ``basis`` says how the condition reads (all amounts in MP, thresholds inclusive, § 404C3):

    * ``"total"``: T ≥ ``total``.
    * ``"bp_only"``: "kun BP": Bc/100 ≥ ``total`` when the rule set's ``kun_bp_literal`` is on (D-Q11),
      otherwise T ≥ ``total``.
    * ``"sp_gp_or_total"``: T ≥ ``total`` and (SG ≥ ``minimum`` or T ≥ ``alternative_total``); no
      revaluation (Distriktsmester).
    * ``"sp_gp"``: SGcheck(``minimum``, ``total``): SP+GP minimum, BP revalued 20 : 1 (§ 404B1, C1).
    * ``"gp"``: Gcheck(``minimum``, ``total``): GP minimum, SP and then BP revalued (§ 404B1–2, C2–C5).

    ``etui`` is what the new title holder receives, the column "Modtager" of the § 404A table as printed
    ("1★ grønt etui"), handed over in the club (§ 451B "Systemkortetui overrækkes i klubben"); empty when
    the rule set names none (D-Q22).
    """

    title: str
    stars: int
    basis: str
    total: Fraction
    minimum: Fraction = Fraction(0)
    alternative_total: Fraction | None = None
    etui: str = ""


@dataclass(frozen=True)
class TeamValueTable:
    """Per-player MP for a won full match in one kind of team event (§§ 412–414, ``dbf.md`` § 2.4).

    ``levels`` (when given) are the values by level/division 1, 2, … whatever the number of rows.
    Otherwise ``random`` applies to rows split at random and ``by_rows[R − 1]`` lists the values of the
    R strength rows from the top; for more rows than the longest list, ``extra`` is inserted at
    ``extra_position`` (``"middle"`` or ``"end"``). ``bonus`` names how final placings are rewarded:
    ``"formula"`` (§ 406A3, BP), ``"table"`` (:attr:`DbfRuleSet.team_bonus_tables`), ``"festival"``
    (§ 413F) or ``"none"``.
    """

    category: str
    random: Fraction | None = None
    by_rows: tuple[tuple[Fraction, ...], ...] = ()
    extra: Fraction | None = None
    extra_position: str = "end"
    levels: tuple[Fraction, ...] = ()
    bonus: str = "none"
    source: str = ""


ROW_FACTORS = (
    (F(0),),
    (F(1, 10), F(-1, 10)),
    (F(3, 20), F(0), F(-3, 20)),
    (F(3, 20), F(1, 20), F(-1, 20), F(-3, 20)),
    (F(1, 5), F(1, 10), F(0), F(-1, 10), F(-1, 5)),
)

TEAM_TABLES: tuple[tuple[str, TeamValueTable], ...] = (
    # § 412A: the BP row values are a formula of the number of rows (bp_team_* fields); random rows 16.
    ("bp", TeamValueTable("BP", random=F(16), bonus="formula", source="§ 412A")),
    (
        "sp_outside_pyramid",
        TeamValueTable(
            "SP",
            random=F(5),
            by_rows=((F(5),), (F(5), F(4)), (F(6), F(5), F(4)), (F(7), F(6), F(5), F(4))),
            extra=F(3),
            extra_position="end",
            source="§ 413A",
        ),
    ),
    (
        "sp_third_div_qual",
        TeamValueTable("SP", by_rows=((F(6),), (F(7), F(6))), bonus="table", source="§ 413B2a, B3a"),
    ),
    (
        "sp_district_promotion",
        TeamValueTable(
            "SP", by_rows=((F(5),), (F(5), F(4)), (F(5), F(4), F(3))), bonus="table", source="§ 413C2a, C3a"
        ),
    ),
    ("sp_women_school", TeamValueTable("SP", levels=(F(4),), bonus="table", source="§ 413D2a")),
    ("sp_junior_qual", TeamValueTable("SP", levels=(F(4),), bonus="none", source="§ 413E2")),
    (
        "sp_festival",
        TeamValueTable(
            "SP",
            random=F(8),
            by_rows=(
                (F(8),),
                (_f("8.8"), _f("7.2")),
                (_f("9.2"), _f("8.0"), _f("6.8")),
                (_f("9.2"), _f("8.4"), _f("7.6"), _f("6.8")),
                (_f("9.6"), _f("8.8"), _f("8.0"), _f("7.2"), _f("6.4")),
            ),
            extra=_f("8.0"),
            extra_position="middle",
            bonus="festival",
            source="§ 413F3–7",
        ),
    ),
    ("gp_division", TeamValueTable("GP", levels=(F(5), F(4), _f("2.5")), bonus="table", source="§ 414B2a")),
    ("gp_women_division", TeamValueTable("GP", levels=(_f("1.25"), _f("0.75")), bonus="table", source="§ 414C2a")),
    ("gp_dm_junior", TeamValueTable("GP", levels=(_f("1.25"), _f("0.75")), bonus="table", source="§ 414D2a")),
    ("gp_dm_senior", TeamValueTable("GP", levels=(_f("1.25"), _f("0.75")), bonus="table", source="§ 414E2a")),
    ("gp_dm_mixed", TeamValueTable("GP", levels=(_f("2.5"),), bonus="table", source="§ 414F2a")),
    # § 414G: 1.67 is normative as printed, not 5/3 (dbf.md § 2.10).
    ("gp_dm_club", TeamValueTable("GP", levels=(_f("1.67"),), bonus="table", source="§ 414G2a")),
)

CUP_ROUNDS = ("final", "semifinal", "quarterfinal", "round_of_16", "up_to_128", "ordinary", "extraordinary")
CUP_TABLES = (
    ("gp_cup_main", tuple(zip(CUP_ROUNDS, (F(24), F(12), F(6), F(4), F(3), F(2), F(1)), strict=True))),
    (
        "gp_cup_breadth",
        tuple(
            zip(
                CUP_ROUNDS,
                (F(10), F(5), _f("2.5"), _f("1.67"), _f("1.25"), _f("0.83"), _f("0.42")),
                strict=True,
            )
        ),
    ),
)

#: § 413B–D and § 414B–G: bonus per player by level (as a string "1", "2", …) and place. Printed values are
#: used exactly (13.3 and 6.7 are printed rounded to nearest, D-Q16). GP 1st division: "14 GP til ligelig
#: deling" between 3rd and 4th is 7 per place; 3rd division's 14 and 8 are shared between the parallel rows
#: East and West by the caller's ``parallel_rows`` (§ 411D2a).
BONUS_TABLES = (
    (
        "sp_third_div_qual",
        (("1", (F(60), F(40), F(30), F(24))), ("2", (F(20), _f("13.3"), F(10)))),
    ),
    ("sp_district_promotion", (("1", (F(15), F(10))), ("2", (F(10), _f("6.7"))), ("3", (_f("7.5"), F(5))))),
    ("sp_women_school", (("1", (F(10), _f("6.7"))),)),
    ("gp_division", (("1", (F(28), F(20), F(7), F(7))), ("2", (F(10), F(7))), ("3", (F(14), F(8))))),
    ("gp_women_division", (("1", (F(7), F(5), F(3))), ("2", (F(2), F(1))))),
    ("gp_dm_junior", (("1", (F(7), F(5), F(3))), ("2", (F(2), F(1))))),
    ("gp_dm_senior", (("1", (F(7), F(5), F(3))), ("2", (F(2), F(1))), ("3", (F(1),)))),
    ("gp_dm_mixed", (("1", (F(10), F(8), F(6), F(4), F(3), F(2), F(1))),)),
    ("gp_dm_club", (("1", (F(6), F(4), F(2))),)),
)

PAIR_TABLES = (
    ("dm_open_superliga", (F(40), F(27), F(18), F(12), F(8), F(6), F(4), F(3), F(2), F(1), F(1))),
    (
        "dm_open_1st_division",
        (F(20), F(14), F(9), F(6), F(4), F(3), F(2), F(2), F(1), F(1), F(1), F(1), F(1), F(1)),
    ),
    ("dm_mixed_a", (F(24), F(18), F(12), F(10), F(8), F(7), F(6), F(5), F(4), F(3), F(2), F(1))),
    ("dm_mixed_b", (F(4), F(3), F(3), F(2), F(2), F(2), F(1), F(1), F(1), F(1))),
    ("dm_women", (F(12), F(10), F(9), F(8), F(7), F(6), F(5), F(4), F(3), F(2), F(1))),
    ("dm_senior", (F(12), F(10), F(9), F(8), F(7), F(6), F(5), F(4), F(3), F(2), F(1))),
)

TITLES = (  # § 404A, with the column "Modtager" as printed (D-Q22)
    TitleRung("klubmester", 0, "total", F(2), etui="grønt etui"),
    TitleRung("klubmester", 1, "bp_only", F(5), etui="1★ grønt etui"),
    TitleRung("klubmester", 2, "bp_only", F(20), etui="2★ grønt etui"),
    TitleRung("distriktsmester", 0, "sp_gp_or_total", F(15), F(5), F(30), etui="rødt etui"),
    TitleRung("kredsmester", 0, "sp_gp", F(50), F(25), etui="blåt etui"),
    TitleRung("kredsmester", 1, "sp_gp", F(100), F(25), etui="1★ blåt etui"),
    TitleRung("kredsmester", 2, "sp_gp", F(150), F(25), etui="2★ blåt etui"),
    TitleRung("forbundsmester", 0, "gp", F(150), F(75), etui="orange etui"),
    TitleRung("forbundsmester", 1, "gp", F(300), F(75), etui="1★ orange etui"),
    TitleRung("forbundsmester", 2, "gp", F(500), F(75), etui="2★ orange etui"),
    TitleRung("stormester", 0, "gp", F(500), F(250), etui="gult etui"),
    TitleRung("stormester", 1, "gp", F(1000), F(250), etui="1★ gult etui"),
    TitleRung("stormester", 2, "gp", F(2000), F(250), etui="2★ gult etui"),
    TitleRung("stormester", 3, "gp", F(4000), F(250), etui="3★ gult etui"),
)


# --- tournament forms the office enters (§ 451A, D-Q33) -----------------------------------------------------------


@dataclass(frozen=True)
class OfficeForm:
    """A tournament form no results upload reaches, which the secretariat enters by its facts and places and
    the engine computes by the section's own table (§ 451A second paragraph: "Hvis turneringsformen ikke på
    forhånd er lagt ind i BC, skal turneringsarrangøren selv udregne uddelingen af MP"; D-Q33).

    ``entry`` is how the places are entered: ``"pairs"`` (a ranking of pairs, computed by
    :func:`~masterpoints.engine.dbf.events.pair_event_awards` with ``special``), ``"teams"`` (a ranking of
    teams with their won and drawn matches, § 414B–G, by the team table ``table``) or ``"cup"`` (the matches
    each team won, by round, § 414H, by the cup table ``table``). ``pair_bonus``: the § 406B2 bonus is paid
    (§ 433B2b). ``section`` is cited on every award the form gives.
    """

    code: str
    section: str
    entry: str
    category: str
    special: str = "standard"
    table: str = ""
    pair_bonus: bool = False


OFFICE_FORMS: tuple[OfficeForm, ...] = (
    OfficeForm("dm_open_superliga", "§ 434A1a", "pairs", "GP", special="dm_open_superliga"),
    OfficeForm("dm_open_1st_division", "§ 434A1b", "pairs", "GP", special="dm_open_1st_division"),
    OfficeForm("dm_open_2nd_division", "§ 434A1c", "pairs", "GP", special="dm_open_2nd_division"),
    OfficeForm("dm_mixed_a", "§ 434A2a", "pairs", "GP", special="dm_mixed_a"),
    OfficeForm("dm_mixed_b", "§ 434A2b", "pairs", "GP", special="dm_mixed_b"),
    OfficeForm("dm_women", "§ 434A3", "pairs", "GP", special="dm_women"),
    OfficeForm("dm_senior", "§ 434A4", "pairs", "GP", special="dm_senior"),
    # § 434A5–6: NS and EW are ranked apart ("rangeres hver for sig"): one entry per direction.
    OfficeForm("klubsolv_national", "§ 434A5", "pairs", "GP", special="simultaneous_national"),
    OfficeForm("handicap_national", "§ 434A6", "pairs", "GP", special="simultaneous_national"),
    OfficeForm("junior_pairs_final_sp", "§ 433B2", "pairs", "SP", special="junior_pairs_final", pair_bonus=True),
    OfficeForm("junior_pairs_final_gp", "§ 433B2c", "pairs", "GP", special="junior_pairs_final"),
    # § 433C: "I den bedste række uddeles SP efter de almene regler. I den næstbedste række uddeles BP".
    OfficeForm("school_pairs_best", "§ 433C", "pairs", "SP"),
    OfficeForm("school_pairs_second", "§ 433C", "pairs", "BP"),
    OfficeForm("beginners_qualifier", "§ 433D2a", "pairs", "SP", special="beginners_qualifier"),
    OfficeForm("beginners_final", "§ 433D2b", "pairs", "SP", special="beginners_final"),
    OfficeForm("gp_division", "§ 414B", "teams", "GP", table="gp_division"),
    OfficeForm("gp_women_division", "§ 414C", "teams", "GP", table="gp_women_division"),
    OfficeForm("gp_dm_junior", "§ 414D", "teams", "GP", table="gp_dm_junior"),
    OfficeForm("gp_dm_senior", "§ 414E", "teams", "GP", table="gp_dm_senior"),
    OfficeForm("gp_dm_mixed", "§ 414F", "teams", "GP", table="gp_dm_mixed"),
    OfficeForm("gp_dm_club", "§ 414G", "teams", "GP", table="gp_dm_club"),
    OfficeForm("gp_cup_main", "§ 414H2", "cup", "GP", table="gp_cup_main"),
    OfficeForm("gp_cup_breadth", "§ 414H3", "cup", "GP", table="gp_cup_breadth"),
)


def office_form(code: str) -> OfficeForm:
    """The office form named ``code``; ``KeyError`` when there is none."""
    for form in OFFICE_FORMS:
        if form.code == code:
            return form
    raise KeyError(code)
