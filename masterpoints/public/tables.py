"""Tables of the public pages: the rankings, a club's members' standings, a player's awards, and the rows of
a tournament's page (scores as the scoring program wrote them, each row's points). Every table renders with
the site's table template (``masterpoints/table.html``): a cell is its column's value or ``render_`` method."""

from __future__ import annotations

from decimal import Decimal

import django_tables2 as tables
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from federation.schemes import decimals_of, default_scheme
from federation.tables import BoundedPages
from masterpoints.award_text import ledger_block
from masterpoints.engine.common import format_units
from masterpoints.engine.dbf.ranglist import shown_hundredths
from masterpoints.explanations import explained
from masterpoints.models import Award, Standing
from masterpoints.numbers import kind_label, short_day, shown_units
from masterpoints.standings.titles import title_label

#: The site's table template: headers that say their order, a caption, the pages as a labelled nav.
TABLE_TEMPLATE = "masterpoints/table.html"


def player_url(federation_code: str, number: str) -> str:
    return reverse("public:player", args=[federation_code, number])


def shown_name(player, see_hidden: bool) -> str:
    """The player's name, or only their number when they hide it (the secretariat sees every name)."""
    if player.hide_name and not see_hidden:
        return player.number
    return player.full_name


def home_club_name(record) -> str:
    """The home club's name a ranked row carries (``selectors.with_home_club_name``), or nothing."""
    return getattr(record, "home_club_name", None) or ""


def record_title(record) -> str:
    """The title or category of a row: a standing's own, a season row's player's."""
    standing = record if isinstance(record, Standing) else getattr(record.player, "standing", None)
    return title_label(standing.title, standing.stars) if standing is not None else ""


class PointsColumn(tables.Column):
    """An amount in integer units, shown with the kind's decimals; sorted best first on the first click."""

    def __init__(self, field: str, decimals: int, **kwargs):
        kwargs.setdefault("attrs", {"td": {"class": "num"}, "th": {"class": "num"}})
        super().__init__(accessor=field, order_by=(f"-{field}",), **kwargs)
        self.decimals = decimals

    def render(self, value):
        return shown_units(value, self.decimals)

    def value(self, value):  # the exports: data for programs, with a decimal point
        return format_units(value, self.decimals)


class StandingTable(BoundedPages, tables.Table):
    """A ranking list: each row's place in the filtered list (equal points share it), the player, home
    club, title or category and balances, a column per amount of the rule book's balance (the total where
    it has one, then each kind). Works on career standings and on one season's figures."""

    place = tables.Column(verbose_name=_("Place"), orderable=False, attrs={"td": {"class": "num"}})
    number = tables.Column(accessor="player__number", verbose_name=_("No."), order_by=("player__number",))
    name = tables.Column(
        accessor="player__last_name",
        verbose_name=_("Player"),
        order_by=("player__last_name", "player__first_name"),
    )
    club = tables.Column(accessor="player_id", verbose_name=_("Club"), orderable=False, empty_values=())
    title = tables.Column(accessor="player_id", verbose_name=_("Title or category"), orderable=False, empty_values=())

    class Meta:
        attrs = {"class": "table ranking"}
        template_name = TABLE_TEMPLATE
        empty_text = _("No player matches these filters.")

    #: A points column's header ranks the list by that kind (``?kind=``, places counted again), the one
    #: mechanism for order and rank; a club's page has no such choice.
    ranks_by_header = True

    def __init__(self, data, *, federation, see_hidden: bool = False, kind: str | None = None, **kwargs):
        info = federation.scheme_info if federation else default_scheme()
        points = [
            (b.column, PointsColumn(b.column, b.decimals, verbose_name=kind_label(b.label))) for b in info.balances
        ]
        super().__init__(data, extra_columns=points, **kwargs)
        self.federation = federation
        self.see_hidden = see_hidden
        self.kind = kind or info.ranking_kinds[0].value
        #: column name → the ranking kind its header chooses (the total or category: the MP or title column).
        self.kind_columns = {}
        for ranking in info.ranking_kinds:
            column = info.ranking_column(ranking.value)
            column = column if column in info.balance_columns else info.whole_column
            self.kind_columns[column] = ranking
        if self.ranks_by_header:
            for name in info.balance_columns:
                self.columns[name].column.orderable = False
            # The table template links such a header to the list ranked by its kind (``ranks_kind``).
            for name, ranking in self.kind_columns.items():
                if name in self.columns:
                    self.columns[name].column.ranks_kind = ranking.value
        # A phone shows the place, the name and the points that rank the list; the rest only on wider screens.
        self.secondary = {"number", "club", "title", *(set(info.balance_columns) - {info.primary_column(kind)})}
        for name in {column.name for column in self.columns}:
            if name in self.secondary:
                css = "num secondary" if name in info.balance_columns else "secondary"
                self.columns[name].column.attrs = {"td": {"class": css}, "th": {"class": css}}
            elif name in info.balance_columns:  # the points that rank the list
                self.columns[name].column.attrs = {"td": {"class": "num points"}, "th": {"class": "num"}}

    @property
    def caption(self) -> str:
        """What ranks the list, and the order it is listed in where a header sorted it otherwise."""
        if not self.ranks_by_header:
            return ""
        ranking = next((k for k in self.kind_columns.values() if k.value == self.kind), None)
        if ranking is None:
            return ""
        text = gettext("Places: ranked by %(kind)s.") % {"kind": ranking.label}
        ordered = next((column for column in self.columns if column.is_ordered), None)
        if ordered is not None:
            text += " " + gettext("Listed by %(column)s; the places stay those of the ranking.") % {
                "column": ordered.header
            }
        return text

    def render_name(self, record):
        player = record.player
        return format_html(
            '<a href="{}">{}</a>',
            player_url(self.federation.code, player.number),
            shown_name(player, self.see_hidden),
        )

    def value_name(self, record):
        return shown_name(record.player, self.see_hidden)

    def render_club(self, record):
        return home_club_name(record)

    def value_club(self, record):
        return home_club_name(record)

    def render_title(self, record):
        return record_title(record)

    def value_title(self, record):
        return record_title(record)


class ClubStandingTable(StandingTable):
    """A club's members with their standings; the place is the place in the club."""

    ranks_by_header = False

    class Meta(StandingTable.Meta):
        exclude = ("club",)
        empty_text = _("No member has points yet.")


class SeasonTopTable(StandingTable):
    class Meta(StandingTable.Meta):
        exclude = ("club", "title")
        empty_text = _("No member has points this season yet.")


class RankingListEntryTable(BoundedPages, tables.Table):
    """DBf's ranking list ("ranglisten", D-Q56–D-Q60): place by the exact figure (equal figures share it),
    the player, home club, title and the figure in MP per year, rounded half up to 2 decimals (D-Q60)."""

    place = tables.Column(verbose_name=_("Place"), orderable=False, attrs={"td": {"class": "num"}})
    number = tables.Column(accessor="player__number", verbose_name=_("No."), orderable=False)
    name = tables.Column(accessor="player__last_name", verbose_name=_("Player"), orderable=False)
    club = tables.Column(accessor="player_id", verbose_name=_("Club"), orderable=False, empty_values=())
    title = tables.Column(accessor="player_id", verbose_name=_("Title or category"), orderable=False, empty_values=())
    score = tables.Column(
        verbose_name=_("MP per year"), orderable=False, attrs={"td": {"class": "num"}, "th": {"class": "num"}}
    )

    class Meta:
        attrs = {"class": "table ranking"}
        template_name = TABLE_TEMPLATE
        empty_text = _("No player matches these filters.")

    def __init__(self, data, *, federation, see_hidden: bool = False, **kwargs):
        super().__init__(data, **kwargs)
        self.federation = federation
        self.rule = federation.scheme_info.ranking_list if federation else None
        self.see_hidden = see_hidden

    def render_name(self, record):
        player = record.player
        return format_html(
            '<a href="{}">{}</a>', player_url(self.federation.code, player.number), shown_name(player, self.see_hidden)
        )

    def render_club(self, record):
        return home_club_name(record)

    def render_title(self, record):
        return record_title(record)

    def render_score(self, value):
        return ranking_figure(value, self.rule)


def ranking_figure(score: int, rule) -> str:
    """A stored exact ranking figure as MP per year, rounded half up to 2 decimals (D-Q60)."""
    return shown_units(shown_hundredths(score, rule), 2)


class AwardTable(BoundedPages, tables.Table):
    """A player's ledger: every award with what it is for and why it is this many points. Corrections,
    reversals and opening balances are marked as such (each row's class names its source), with their
    reason. Its rows are :class:`~masterpoints.public.ledger.LedgerRow` (a
    :class:`~masterpoints.public.ledger.PlayerLedger`)."""

    #: 25 newest first (D-Q55 sizes up to 200 on request): a phone shows them without endless scrolling.
    default_page_size = 25

    awarded_on = tables.Column(verbose_name=_("Date"), orderable=False)
    what = tables.Column(accessor="pk", verbose_name=_("For"), orderable=False)
    amount = tables.Column(accessor="units", verbose_name=_("Points"), orderable=False, attrs={"td": {"class": "num"}})
    why = tables.Column(accessor="pk", verbose_name=_("Why"), orderable=False)

    class Meta:
        model = Award
        fields = ("awarded_on", "what", "amount", "why")
        attrs = {"class": "table awards"}
        template_name = "masterpoints/award_table.html"  # the site's table, each row's source a class
        empty_text = _("No awards yet.")

    def render_awarded_on(self, value):
        return short_day(value)

    def render_amount(self, record):
        return f"{shown_units(record.units, decimals_of(record.kind))} {kind_label(record.kind)}"

    def render_what(self, record):
        """The tournament (a link), its part and the place; an office entry's kind, what it cancels and its
        reason."""
        parts = []
        if record.tournament_id:
            address = reverse("public:tournament", args=[record.tournament_id])
            parts.append(format_html('<a href="{}">{}</a>', address, record.tournament_name))
            if record.part:
                parts.append(format_html(" <small>{}</small>", record.part))
            if record.place_first:
                places = str(record.place_first)
                if record.place_last and record.place_last != record.place_first:
                    places += f"–{record.place_last}"
                parts.append(format_html(" · {} {}", _("place"), places))
        if record.source != Award.Source.RESULT:
            note = ""
            if record.reverses_id:
                note = _("cancels the award of %(day)s") % {"day": short_day(record.reverses_on)}
            reason = format_html('<span class="reason">{}</span>', record.reason) if record.reason else ""
            parts.append(
                format_html(
                    '<div><span class="tag tag-{}">{}</span> {}{}</div>',
                    record.source,
                    record.get_source_display(),
                    note,
                    reason,
                )
            )
        return format_html_join("", "{}", ((part,) for part in parts))

    def render_why(self, record):
        return ledger_block(record)


def balances(info, row) -> list[tuple[str, str]]:
    """(kind, amount) of a standing or season row in the kind's decimals; DBf adds the total in MP first (§ 402)."""
    return [(b.label, format_units(getattr(row, b.column, 0) if row else 0, b.decimals)) for b in info.balances]


def season_table(info, rows, current: int) -> str:
    """A player's season rows (``SeasonStanding``, newest first; § 451C, HBS calendar years) as the head and
    body of their table (``masterpoints/season_table.html``): a column per kind (DBf's MP total first,
    § 402), each amount in its kind's decimals and the reader's writing, the current season's row marked.
    Nothing for a player without season rows."""
    if not rows:
        return ""
    seasons = [
        {
            "label": info.season_label(row.season),
            "current": row.season == current,
            "amounts": [shown_units(getattr(row, b.column), b.decimals) for b in info.balances],
        }
        for row in rows
    ]
    context = {"kinds": [kind_label(b.label) for b in info.balances], "seasons": seasons}
    return render_to_string("masterpoints/season_table.html", context)


# --- a tournament's page ------------------------------------------------------------------------------------


def score_decimals(values) -> int:
    """D-Q54: the decimals a group's scores (or percentages) are shown with. The file's own precision is not
    stored (the columns keep 4 and 3 decimals), so it is read back as the most decimals any value of the
    group has once trailing zeros are dropped: ``596.2200`` and ``601.1500`` show as ``596.22`` and
    ``601.15``, a column of ``55.100`` and ``48.250`` as ``55.10`` and ``48.25``, whole IMPs without any."""
    decimals = 0
    for value in values:
        if value is not None:
            exponent = Decimal(value).normalize().as_tuple().exponent
            decimals = max(decimals, -exponent if isinstance(exponent, int) and exponent < 0 else 0)
    return decimals


def shown_score(value, decimals: int) -> str:
    """A score in the reader's writing (``596,22`` in Danish) with the group's decimals; nothing for none."""
    return "" if value is None else number_format(value, decimals)


def entry_points(entry, totals: dict[int, dict[str, int]]) -> str:
    """The points a row received, per kind with its decimals (``12.34 BP``): the amount each of its members
    received; members who received different amounts (a team's players who played different numbers of
    boards) are shown each, separated by a slash."""
    shown: list[str] = []
    for participation in entry.participations.all():
        kinds = totals.get(participation.player_id) if participation.player_id else None
        if not kinds:
            continue
        text = " + ".join(f"{shown_units(units, decimals_of(k))} {kind_label(k)}" for k, units in kinds.items())
        if text not in shown:
            shown.append(text)
    return " / ".join(shown)


def group_scale(awards: list) -> tuple:
    """The inputs every award of a group shares (the field, the boards, the factors of the scale): stored
    with each award, shown once above the group's table, each symbol with its meaning
    (:func:`masterpoints.explanations.explained`); what differs between rows stays with the row."""
    if not awards:
        return ()
    shared = dict(awards[0].explanation_data.get("inputs") or {})
    for award in awards[1:]:
        inputs = award.explanation_data.get("inputs") or {}
        shared = {name: value for name, value in shared.items() if inputs.get(name) == value}
    shared.pop("reason", None)
    return explained({"inputs": shared}, awards[0].kind).inputs


def tournament_rows(tournament, totals: dict[int, dict[str, int]], awards: dict[int, list] | None = None) -> None:
    """Prepares the tournament page's groups (prefetched by ``tournaments.selectors.tournament_detail``):
    each entry's score, percentage and points as the page shows them, and the group's scale, without a query
    per row (``awards``: the result awards per player, :func:`masterpoints.public.selectors.tournament_awards`)."""
    awards = awards or {}
    for group in tournament.groups.all():
        entries = list(group.entries.all())
        group.scale = group_scale(
            [
                award
                for entry in entries
                for participation in entry.participations.all()
                for award in awards.get(participation.player_id, ())
                if participation.player_id
            ]
        )
        score_places = score_decimals(entry.score for entry in entries)
        percentage_places = score_decimals(entry.percentage for entry in entries)
        group.has_percentage = any(entry.percentage is not None for entry in entries)
        for entry in entries:
            entry.shown_score = shown_score(entry.score, score_places)
            entry.shown_percentage = shown_score(entry.percentage, percentage_places)
            entry.points = entry_points(entry, totals)
