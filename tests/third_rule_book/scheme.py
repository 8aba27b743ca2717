"""The table rule book as the registry sees it (:class:`federation.schemes.SchemeInfo`): one kind, TP, paid by a
fixed table of places (rule 1), three titles by total TP (rule 2), the calendar year as season (rule 3).

The test registers :data:`TABLE` with ``federation.schemes.register`` and takes it out again with
``unregister("tbl")``: no ``INSTALLED_APPS`` entry, no migration.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from federation.schemes import RankingKind, SchemeInfo
from tests.third_rule_book.calculator import TableScaleForm, TableTitleForm, answer
from tests.third_rule_book.rules import KINDS, TABLE_RULES, TP, TableRuleSet, ruleset_for
from tests.third_rule_book.scoring import score_table
from tests.third_rule_book.titles import TableLadder, table_progress, tp_season_key_sql, tp_sort_key
from tests.third_rule_book.upload import TableUploadForm

CODE = "tbl"


def no_awards_beyond(preview, allowed: tuple[str, ...], today) -> tuple[str, ...]:
    """Rule 3: every organiser awards TP; nothing is added beyond the rule set's table of organisers."""
    return allowed


TABLE = SchemeInfo(
    code=CODE,
    label=_("Table league: table points"),
    kinds=KINDS,
    # Rule 1: every TP is a whole point.
    kind_decimals={TP: 0},
    kind_names={TP: "TP"},
    kind_titles={TP: _("table points")},
    total=None,
    sort_key=tp_sort_key,
    season_key_sql=tp_season_key_sql,
    rung_status=table_progress,
    rule_set_class=TableRuleSet,
    built_in=(TABLE_RULES,),
    choose=ruleset_for,
    ladder_class=TableLadder,
    rung_mail_subject=_("New titles, %(month)s: %(club)s"),
    rule_book_title=_("the table rules"),
    ranking_kinds=(RankingKind(TP, _("table points")),),
    default_category=TP,
    fallback_encodings=("cp1252", "iso8859-15"),
    award_rule=_("Table rule 3: every organiser awards table points."),
    upload_form=TableUploadForm,
    calculators={"tbl": TableScaleForm, "tbltitle": TableTitleForm},
    calculate=answer,
    awards_beyond=no_awards_beyond,
    scoring_adapter=score_table,
    rung_label=_("Title"),
    rung_reached_intro=_("These members of your club reached a higher title since our last mail:"),
    season_note=_("A season is a calendar year."),
    ranking_note=_("Ranked by table points; equal points share a place."),
    symbols={"place": _("place"), TP: _("table points for the place (rule 1)")},
)
