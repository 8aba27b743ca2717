"""The one registry of what is structural per scheme: where DBf and HBS differ, and nowhere else.

A federation carries its scheme's code (``Federation.scheme``); everything that follows from it is read
here (``scheme_of(federation)``): its point kinds and their decimals, its rule-set class with the built-in
sets and how one is chosen for a date, its ladder, what a ranking can be ordered by, which workflows its
rule book has, and the season helpers. Values a rule book fixes (who may award what, § 403 and H-1; the
season's first day, § 451C; the title-mail months, § 451B; the HBS 1991 share, transition rule 3) are
fields of the dated rule set; the registry reads them from there.

No code outside this module and the engine compares a scheme code: it asks the registry.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from masterpoints.engine.common import KIND_DECIMALS
from masterpoints.engine.dbf import rules as dbf_rules
from masterpoints.engine.dbf.ranglist import DBF_RANKING_LIST, RankingListRule
from masterpoints.engine.dbf.tables import OFFICE_FORMS as DBF_OFFICE_FORMS
from masterpoints.engine.hbs import rules as hbs_rules
from masterpoints.engine.ladders import DbfLadder, HbsLadder


@dataclass(frozen=True)
class RankingKind:
    """One order of a ranking list: the query value, its label and the standings column it sorts by."""

    value: str
    label: Promise
    column: str


@dataclass(frozen=True)
class EventNature:
    """One answer to the upload's question what kind of event it was (HBS rules 1, 8 and 11): ``scored``
    False refuses the upload with the rule the label cites."""

    value: str
    label: Promise
    scored: bool = True


@dataclass(frozen=True)
class SchemeInfo:
    """Everything structural about one scheme. Instances are the two entries of :data:`SCHEMES`."""

    code: str
    #: The point kinds in the order pages show them.
    kinds: tuple[str, ...]
    #: DBf adds its kinds into one MP total (§ 402: 100 BP = 10 SP = 1 GP = 1 MP); HBS keeps them apart.
    has_mp_total: bool
    #: DBf revalues BP → SP → GP for a title check (§ 404B); HBS kinds never convert (H-2).
    kinds_revalue: bool
    rule_set_class: type
    #: The rule sets the engine ships, oldest first.
    built_in: tuple[Any, ...]
    #: ``choose(on_date, candidates)``: the newest candidate valid on the date (``LookupError`` if none).
    choose: Callable[[datetime.date, Iterable[Any]], Any]
    ladder_class: type
    #: What the ladder's rungs are: DBf "titles" (§ 404), HBS "categories" (H-2).
    ladder_kind: str
    #: What a list can be ranked by; the first is the default.
    ranking_kinds: tuple[RankingKind, ...]
    #: The kind an upload or import awards when nobody names one.
    default_category: str
    #: The 8-bit code pages a results file without a declared encoding is tried in (formats.md § 5.3):
    #: Danish text is Windows-1252 or Latin-1 far more often than Windows-1250, Croatian the other way round.
    fallback_encodings: tuple[str, ...]
    #: The rule an upload cites when its organiser may not award the kind asked for.
    award_rule: Promise
    #: The upload adapter that turns a checked file into the engine's input (``module.function``, called
    #: with the preview; a dotted path because the uploads sit above this registry).
    scoring_adapter: str
    #: The tournament forms the secretariat enters because no upload reaches them (DBf § 451A, D-Q33; empty:
    #: the scheme has none) and the adapter that scores such an entry (``module.function``, as above).
    office_forms: tuple[Any, ...]
    office_scoring_adapter: str
    #: HBS publishes only the official list by default (rule 3; guests on request, rule 4).
    official_list_by_default: bool
    #: Workflows of the scheme's rule book.
    sanctions: bool  # DBf § 403A–B
    #: A tournament is played in one of the club's weekly playing times, which the rules count by (DBf
    #: § 403A2, § 403B1–2, § 452A "hver ugentlig spilleperiode for sig"): the upload records it.
    playing_times: bool
    foreign_points: bool  # DBf § 401B
    cups: bool  # DBf § 451C–E
    recognised_list: bool  # HBS H-1: the annual list of recognised tournaments
    transition: bool  # HBS transition rules 1–8
    #: The rule that limits correction requests to the windows the office opens ("" = no windows).
    correction_window_rule: str
    #: How long that rule's period lasts, in years: every window lies within it (H-12; 0 without windows).
    correction_window_years: int
    #: The rule that makes a correction request carry a document ("" = a document is optional; H-14).
    correction_document_rule: str
    #: Words the pages use for the scheme's ladder and season.
    rung_label: Promise
    rung_reached_intro: Promise
    season_note: Promise
    ranking_note: Promise
    #: What each symbol of the engine's explanations stands for in this rule book.
    symbols: dict[str, Promise]
    #: What the upload asks about the event's nature, the first the default (empty: it does not ask).
    event_natures: tuple[EventNature, ...]
    #: The refusal of an event whose nature is not scored (``%(nature)s`` is the director's answer).
    unscored_refusal: Promise
    #: Forms whose several session rankings in one file are one compound tournament (HBS rule 7, H-16).
    compound_forms: tuple[str, ...]
    #: The upload form's help texts that depend on the rule book (field name → text; none: no help text).
    upload_help: dict[str, Promise]
    #: The weighted list of the last three years beside the lifetime points (DBf's "ranglisten", published
    #: on DBf's site, not in the rule book; D-Q56–D-Q60); ``None``: the scheme has none.
    ranking_list: RankingListRule | None = None
    #: HBS rule 2 (tourist tournaments approved one by one) and rule 10 (licensed internet directors).
    tourists_and_licences: bool = False

    # --- rule sets ---------------------------------------------------------------------------------

    @property
    def current_rules(self):
        """The newest built-in rule set: the source of the structural values below."""
        return self.built_in[-1]

    def nature(self, value: str | None) -> EventNature | None:
        """The nature ``value`` names; empty is the default (the first); ``None`` when it names none."""
        if not self.event_natures:
            return None
        if not value:
            return self.event_natures[0]
        return next((nature for nature in self.event_natures if nature.value == value), None)

    def decimals(self, kind: str) -> int:
        return KIND_DECIMALS[kind]

    def ladder(self, rules):
        return self.ladder_class(rules)

    @property
    def balance_columns(self) -> tuple[str, ...]:
        """The standings columns a list shows: DBf ``mp, bp, sp, gp``; HBS ``black, red, master``."""
        return (("mp",) if self.has_mp_total else ()) + tuple(kind.lower() for kind in self.kinds)

    def primary_column(self, kind: str | None) -> str:
        """The balance column a narrow screen keeps next to the place and the name: the ranked kind's, or in
        the default order the measure the ladder uses (DBf total MP, § 404; HBS master points, the highest
        kind, rule 5)."""
        column = self.ranking_column(kind)
        if column in self.balance_columns:
            return column
        return self.balance_columns[0 if self.has_mp_total else -1]

    def ranking_column(self, kind: str | None) -> str:
        """The standings column a list is ranked by for ``kind`` (the default order when unknown)."""
        return next((k.column for k in self.ranking_kinds if k.value == kind), self.ranking_kinds[0].column)

    # --- seasons (DBf § 451C: 16 May – 15 May; HBS the calendar year) ------------------------------

    @property
    def season_start(self) -> tuple[int, int]:
        """(month, day) of a season's first day, from the rule set. One boundary for the whole history:
        a season that moved with a dated rule set would put one award in two seasons."""
        return tuple(self.current_rules.season_start)

    def season_of(self, day: datetime.date) -> int:
        """The season ``day`` falls in, named by the year it starts in."""
        month, first = self.season_start
        return day.year if (day.month, day.day) >= (month, first) else day.year - 1

    def season_dates(self, season: int) -> tuple[datetime.date, datetime.date]:
        """First and last day of ``season`` (both inclusive)."""
        month, first = self.season_start
        start = datetime.date(season, month, first)
        return start, datetime.date(season + 1, month, first) - datetime.timedelta(days=1)

    def season_label(self, season: int) -> str:
        """``2024/25`` for a season across the new year (DBf), ``2024`` for a calendar year (HBS)."""
        return str(season) if self.season_start == (1, 1) else f"{season}/{(season + 1) % 100:02d}"


SCHEMES: dict[str, SchemeInfo] = {
    "dbf": SchemeInfo(
        code="dbf",
        kinds=("BP", "SP", "GP"),
        has_mp_total=True,
        kinds_revalue=True,
        rule_set_class=dbf_rules.DbfRuleSet,
        built_in=dbf_rules.DEFAULT_RULE_SETS,
        choose=dbf_rules.ruleset_for,
        ladder_class=DbfLadder,
        ladder_kind="titles",
        ranking_kinds=(
            RankingKind("MP", _("total MP"), "sort_key"),
            RankingKind("BP", _("bronze points"), "bp"),
            RankingKind("SP", _("silver points"), "sp"),
            RankingKind("GP", _("gold points"), "gp"),
        ),
        default_category="BP",
        fallback_encodings=("cp1252", "iso8859-15", "cp1250"),
        award_rule=_("§ 403: clubs award BP, districts and circles SP, DBf GP; more needs a sanction (§ 403A–B)."),
        scoring_adapter="masterpoints.uploads.scoring.score_dbf",
        office_forms=DBF_OFFICE_FORMS,
        office_scoring_adapter="masterpoints.office_entry.scoring.score_dbf_office",
        official_list_by_default=False,
        sanctions=True,
        playing_times=True,
        foreign_points=True,
        cups=True,
        recognised_list=False,
        transition=False,
        correction_window_rule="",
        correction_window_years=0,
        correction_document_rule="",
        rung_label=_("Title"),
        rung_reached_intro=_(
            "These members of your club have registered enough masterpoints for a higher title since our last "
            "mail (§ 451B). Please hand over the system card case in the club."
        ),
        season_note=_("A season runs from 16 May to 15 May (§ 451C)."),
        ranking_note=_("Ranked by total MP (100 BP = 10 SP = 1 GP = 1 MP). Equal points share a place."),
        # dbf.md § 1 and § 405–406, 412.
        symbols={
            "N": _("participants present in the section (§ 405B1)"),
            "D_raw": _("field met, before rounding and the surcharge (§ 405B6d–e)"),
            "D": _("field the scale is computed for (§ 406B3)"),
            "M": _("mass factor (§ 406)"),
            "MPmax": _("the winner's award on the base scale (§ 406B3)"),
            "p_max": _("places that receive points (§ 406B3)"),
            "Q": _("ratio between neighbouring places (§ 406B3)"),
            "n1": _("quota factor by number of boards (§ 405A3, B6c, B7c)"),
            "n2": _("large-tournament surcharge (§ 405B7f)"),
            "r": _("row-strength differential (§ 405B5)"),
            "S": _("the player's participation: 1 counts, 0 does not (§ 405A1)"),
            "m_post": _("multiplier after Q (§ 434A1c)"),
            "B": _("bonus factor (§ 412B)"),
            "K": _("matches each team plays (§ 412B)"),
            "T": _("number of teams"),
            "T_eff": _("teams counted: at most K + 1 in Monrad and Swiss (§ 405A5)"),
            "N_ref": _("boards for a full quota in a team match (§ 405A3)"),
            "f_row": _("row factor (§ 412B2)"),
            "place": _("place"),
            "boards": _("boards"),
            "boards_played": _("boards the player played, of those planned"),
            "category": _("point kind"),
            "form": _("form of play"),
            "organizer": _("organiser"),
            "eligibility": _("whether the player's participation counts"),
            "result": _("match result"),
            "tie": _("tie"),
            "reason": _("why"),
            "quota": _("sanction quota (§ 403B2)"),
            "w": _("result weight: 1 win, ½ draw, 0 loss (§ 411C)"),
            "share": _("share of the match the player played (§ 405A1)"),
        },
        event_natures=(),
        unscored_refusal=_("Every organised event is scored."),
        compound_forms=(),
        upload_help={
            "event_form": _("Mini-teams must be chosen here: no results file names them."),
            "boards": _("Leave empty to take the number from the file (per playing day for BP, in all for SP/GP)."),
        },
        ranking_list=DBF_RANKING_LIST,
    ),
    "hbs": SchemeInfo(
        code="hbs",
        kinds=("black", "red", "master"),
        has_mp_total=False,
        kinds_revalue=False,
        rule_set_class=hbs_rules.HbsRuleSet,
        built_in=(hbs_rules.HBS_DRAFT,),
        choose=hbs_rules.ruleset_for,
        ladder_class=HbsLadder,
        ladder_kind="categories",
        ranking_kinds=(
            RankingKind("category", _("category"), "sort_key"),
            RankingKind("master", _("master points"), "master"),
            RankingKind("red", _("red points"), "red"),
            RankingKind("black", _("black points"), "black"),
        ),
        default_category="black",
        fallback_encodings=("cp1250", "iso8859-2", "cp1252"),
        award_rule=_(
            "H-1: an unlisted event awards black points; other kinds come from the list of recognised tournaments."
        ),
        scoring_adapter="masterpoints.uploads.scoring_hbs.score_hbs",
        office_forms=(),
        office_scoring_adapter="",
        official_list_by_default=True,
        sanctions=False,
        playing_times=False,
        foreign_points=False,
        cups=False,
        recognised_list=True,
        tourists_and_licences=True,
        transition=True,
        # Transition rule 6: "U prijelaznom razdoblju od jedne godine, svaki registrirani igrač može
        # dokumentirano zatražiti ispravak bodovanja." One year (H-12), with documents (H-14).
        correction_window_rule="HBS transition rule 6",
        correction_window_years=1,
        correction_document_rule="HBS transition rule 6",
        rung_label=_("Category"),
        rung_reached_intro=_("These members of your club reached a higher category since our last mail:"),
        season_note=_("A season is a calendar year."),
        ranking_note=_(
            "Ranked by category, then master, red and black points. The official list holds members whose dues "
            "are paid (rule 3) and guests who asked to be listed (rule 4)."
        ),
        # The HBS formula, H-3 … H-9.
        symbols={
            "B": _("points for first place, per player (HBS formula)"),
            "N": _("units in the field: players, pairs or teams"),
            "T": _("½ individual, 1 pairs, 2 teams"),
            "S": _("tournament strength (list of recognised tournaments)"),
            "D": _("boards"),
            "n": _("units that receive points: half the field (H-3)"),
            "s_k": _("share of the place: ln((n + 1) / (k − 0.7))"),
            "s_1": _("share of first place"),
            "P_k": _("points for the place: B · s_k / s_1, rounded up (H-6)"),
            "B from": _("where B comes from (H-8)"),
            "kind": _("point kind"),
            "kinds from": _("where the point kind comes from"),
            "place": _("place"),
            "boards": _("boards"),
            "form": _("form of play"),
            "result": _("match result"),
            "tie": _("tie"),
            "reason": _("why"),
            "stages": _("stages of a compound event and their boards (rule 7, H-11)"),
            "match": _("match of a long-running team competition (rule 8, H-5)"),
        },
        # H-15: rule 11 asks what the event was, and H-19 whether it is rule 8's long-running competition: no
        # results file says either.
        event_natures=(
            EventNature("competition", _("An organised competition (rule 1)")),
            EventNature(
                "long_running",
                _("A long-running team competition in matches of at least 16 boards, e.g. a league (rule 8)"),
            ),
            EventNature("friendly", _("A friendly match (rule 11: not scored)"), scored=False),
            EventNature("training", _("A training match (rule 11: not scored)"), scored=False),
            EventNature(
                "selection",
                _("A closed tournament played in preparation for a selection (rule 11: not scored)"),
                scored=False,
            ),
        ),
        unscored_refusal=_(
            "HBS rule 11: friendly and training matches are not scored, nor closed tournaments played in "
            "preparation for any selection. You said this event was: %(nature)s. Nothing was stored."
        ),
        compound_forms=("pairs",),
        upload_help={
            "boards": _("Leave empty to take the number from the file."),
        },
    ),
}


#: The scheme pages assume before any federation exists (an empty list, whatever its columns).
FALLBACK = SCHEMES["dbf"]


def scheme_of(federation_or_code) -> SchemeInfo:
    """The registry entry of a federation (anything with ``.scheme``), of a scheme code, or the entry itself."""
    if isinstance(federation_or_code, SchemeInfo):
        return federation_or_code
    code = getattr(federation_or_code, "scheme", federation_or_code)
    return SCHEMES[code]


def scheme_with(workflow: str) -> SchemeInfo:
    """The scheme whose rule book has ``workflow`` (each workflow belongs to one rule book)."""
    return next(info for info in SCHEMES.values() if getattr(info, workflow))


def scheme_for(kind_or_code: str) -> SchemeInfo:
    """The scheme of a scheme code or of one of its point kinds (BP/SP/GP are DBf's; black/red/master HBS')."""
    if kind_or_code in SCHEMES:
        return SCHEMES[kind_or_code]
    return next(info for info in SCHEMES.values() if kind_or_code in info.kinds)


def codes_with(workflow: str) -> tuple[str, ...]:
    """The scheme codes whose rule book has ``workflow`` (a boolean field of :class:`SchemeInfo`)."""
    return tuple(code for code, info in SCHEMES.items() if getattr(info, workflow))
