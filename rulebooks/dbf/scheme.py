"""DBf's rule book (mesterpointreglement 2023) as the registry sees it: kinds, ladder, workflows, words.

Built when the plugin is ready (:mod:`rulebooks.dbf.apps`), so the scoring adapters it names are imported
after every model.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from federation.schemes import TOTAL_COLUMN, Balance, RankingKind, SchemeInfo
from masterpoints.engine.dbf.calculator import handle
from masterpoints.engine.dbf.ranglist import DBF_RANKING_LIST
from masterpoints.engine.dbf.rules import DEFAULT_RULE_SETS, DbfRuleSet, ruleset_for
from masterpoints.engine.dbf.scale import KIND_DECIMALS
from masterpoints.engine.dbf.tables import OFFICE_FORMS
from masterpoints.engine.ladders import DbfLadder
from rulebooks.dbf.awards import dbf_awards_beyond
from rulebooks.dbf.calculator import DbfScaleForm, DbfTitleForm
from rulebooks.dbf.office_scoring import score_dbf_office
from rulebooks.dbf.scoring import score_dbf
from rulebooks.dbf.titles import title_progress
from rulebooks.dbf.upload import DbfUploadForm

#: Bronze, silver and gold points (§ 402).
KINDS = ("BP", "SP", "GP")


def mp_sort_key(balances: tuple[int, ...], rung: int) -> int:
    """§ 402: the list ranks by total MP, a unit of every kind being 0.01 MP (the title follows from it)."""
    return sum(balances)


def mp_season_key_sql(columns: tuple[str, ...]) -> str:
    """:func:`mp_sort_key` over a season's sums in SQL."""
    return " + ".join(columns)


DBF = SchemeInfo(
    code="dbf",
    label=_("DBf (Denmark): bronze, silver and gold points"),
    kinds=KINDS,
    kind_decimals=KIND_DECIMALS,
    # BP, SP and GP are written so in every language (§ 402).
    kind_names={kind: kind for kind in KINDS},
    kind_titles={"BP": _("bronze points"), "SP": _("silver points"), "GP": _("gold points")},
    total=Balance("MP", TOTAL_COLUMN, 2),
    sort_key=mp_sort_key,
    season_key_sql=mp_season_key_sql,
    rung_status=title_progress,
    rule_set_class=DbfRuleSet,
    built_in=DEFAULT_RULE_SETS,
    choose=ruleset_for,
    ladder_class=DbfLadder,
    rung_mail_subject=_("New titles, %(month)s: %(club)s"),
    rule_book_title=_("DBf mesterpointregler 2023"),
    ranking_kinds=(
        RankingKind("MP", _("total MP")),
        RankingKind("BP", _("bronze points")),
        RankingKind("SP", _("silver points")),
        RankingKind("GP", _("gold points")),
    ),
    default_category="BP",
    fallback_encodings=("cp1252", "iso8859-15", "cp1250"),
    award_rule=_("§ 403: clubs award BP, districts and circles SP, DBf GP; more needs a sanction (§ 403A–B)."),
    upload_form=DbfUploadForm,
    calculators={"dbf": DbfScaleForm, "title": DbfTitleForm},
    calculate=handle,
    awards_beyond=dbf_awards_beyond,
    scoring_adapter=score_dbf,
    office_forms=OFFICE_FORMS,
    office_scoring_adapter=score_dbf_office,
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
)
