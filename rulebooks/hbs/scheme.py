"""HBS's rule book (pravilnik o kategorizaciji) as the registry sees it: kinds, ladder, workflows, words.

Built when the plugin is ready (:mod:`rulebooks.hbs.apps`), so the scoring adapter it names is imported
after every model.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from federation.schemes import EventNature, RankingKind, SchemeInfo
from masterpoints.engine.hbs.calculator import handle
from masterpoints.engine.hbs.rules import HBS_DRAFT, KINDS, HbsRuleSet, ruleset_for
from masterpoints.engine.ladders import HbsLadder
from rulebooks.hbs.awards import hbs_awards_beyond
from rulebooks.hbs.calculator import HbsCategoryForm, HbsScaleForm
from rulebooks.hbs.categories import category_progress
from rulebooks.hbs.ordering import hbs_season_key_sql, hbs_sort_key
from rulebooks.hbs.scoring import score_hbs
from rulebooks.hbs.upload import HbsUploadForm

HBS = SchemeInfo(
    code="hbs",
    label=_("HBS (Croatia): black, red and master points"),
    kinds=KINDS,
    # H-1: every point is a whole point.
    kind_decimals=dict.fromkeys(KINDS, 0),
    kind_names={"black": _("black"), "red": _("red"), "master": _("master")},
    kind_counted={
        "black": lambda count: ngettext("%(n)s black point", "%(n)s black points", count),
        "red": lambda count: ngettext("%(n)s red point", "%(n)s red points", count),
        "master": lambda count: ngettext("%(n)s master point", "%(n)s master points", count),
    },
    kind_titles={
        "black": _("black points (crni)"),
        "red": _("red points (crveni)"),
        "master": _("master points (majstorski)"),
    },
    total=None,
    sort_key=hbs_sort_key,
    season_key_sql=hbs_season_key_sql,
    rung_status=category_progress,
    rule_set_class=HbsRuleSet,
    built_in=(HBS_DRAFT,),
    choose=ruleset_for,
    ladder_class=HbsLadder,
    rung_mail_subject=_("New categories, %(month)s: %(club)s"),
    rule_book_title=_("the HBS categorisation rules"),
    ranking_kinds=(
        RankingKind("category", _("category")),
        RankingKind("master", _("master points")),
        RankingKind("red", _("red points")),
        RankingKind("black", _("black points")),
    ),
    default_category="black",
    fallback_encodings=("cp1250", "iso8859-2", "cp1252"),
    award_rule=_(
        "H-1: an unlisted event awards black points; other kinds come from the list of recognised tournaments."
    ),
    upload_form=HbsUploadForm,
    calculators={"hbs": HbsScaleForm, "category": HbsCategoryForm},
    calculate=handle,
    awards_beyond=hbs_awards_beyond,
    scoring_adapter=score_hbs,
    office_forms=(),
    office_scoring_adapter=None,
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
)
