"""The public pages players use (no login): rankings, a player's page, a tournament's page (their JSON
is the API's: ``api.public``).

Views are thin: the filter set and the selectors read, the tables render, the services write. A title or
category is shown as held: the higher of the computed and the registered rung (§ 404, H-2); HBS lists show
the official list unless asked otherwise (rule 3; guests on request, rule 4).
"""

from __future__ import annotations

import hashlib
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_filters.views import FilterView
from django_ratelimit.core import is_ratelimited
from django_tables2 import RequestConfig, SingleTableMixin
from django_tables2.data import TableListData

from federation.models import Player
from federation.params import MAX_ID, BadParameter, bad_request, bounded_int, page_number
from federation.tables import DEFAULT_PAGE_SIZE, PAGE_SIZES, page_size
from masterpoints.models import RankingListEntry, Standing
from masterpoints.notices.forms import NoticePreferenceForm
from masterpoints.notices.selectors import wants_statement
from masterpoints.office_record.selectors import reversed_awards, tournament_corrections, withdrawal_of
from masterpoints.public import exports, selectors
from masterpoints.public.charts import points_chart
from masterpoints.public.filters import FederationListFilter, RankingListEntryFilter, StandingFilter
from masterpoints.public.ledger import PlayerLedger, points_over_time
from masterpoints.public.page_cache import anonymous_page_cache, kept_address, player_federation, rankings_federation
from masterpoints.public.placed import PlacedRows, RankedData, placed_rows, ranked_rows, ranking_list_rows
from masterpoints.public.tables import (
    AwardTable,
    RankingListEntryTable,
    StandingTable,
    balances,
    ranking_figure,
    season_table,
    shown_name,
    tournament_rows,
)
from masterpoints.standings.ladders import LadderBook
from masterpoints.standings.services import player_hide_name_set
from masterpoints.standings.titles import title_status
from masterpoints.standings.versions import federation_in, standings_version_cached
from tournaments.models import Tournament
from tournaments.selectors import tournament_detail

#: How long a rendered rankings list is kept. Standings changes and a player hiding their name raise the
#: standings version in the key and show at once; other changes to the register (a new name, a club
#: membership) show within this time.
RANKINGS_CACHE_SECONDS = 300
#: The CSV download holds the whole list as filtered and sorted; an XLSX one at most this many rows (a
#: workbook is built whole before it is sent, :mod:`masterpoints.public.exports`). The page says so.
EXPORT_MAX_ROWS = exports.XLSX_MAX_ROWS


#: Rankings pages one client may have rendered a minute (a page served from the cache is not counted): each
#: reads the database, and every address differs, so a client within it cannot keep the database busy.
LISTS_RATE_PER_MINUTE = 120


def _lists_too_many(request) -> HttpResponse:
    message = _("Too many list pages from this address: at most %(count)s a minute. Try again in a minute.")
    context = {"message": message % {"count": LISTS_RATE_PER_MINUTE}}
    response = render(request, "registration/rate_limited.html", context, status=429)
    response["Retry-After"] = "60"
    return response


#: The parameter a table is sorted by (django-tables2's ``order_by_field``).
ORDER_PARAMETER = "sort"
#: The query parameters the rankings read: the filters, the page, the order and the page size.
RANKINGS_PARAMETERS = (*StandingFilter.base_filters, "page", ORDER_PARAMETER, "per_page")
KEPT_PARAMETERS = frozenset(RANKINGS_PARAMETERS)


class RankingListView(SingleTableMixin, FilterView):
    """``/rankings/``: the list of one federation, filtered, sorted and paginated, exportable as CSV/XLSX.

    The rankings are the busiest page and change only when standings do: the filters and the table are
    cached per query, language and viewer kind, under the federation's standings version (raised in the
    transaction of every standings change) and today's date (the official list follows dues paid), so a
    change shows at once. The page around them (login, language form) is rendered for each request.
    """

    table_class = StandingTable
    filterset_class = StandingFilter
    template_name = "masterpoints/ranking_list.html"
    table_pagination = {"per_page": DEFAULT_PAGE_SIZE}
    #: The federation's standings version as the table's cache key read it (``None``: not read).
    standings_version: str | None = None
    #: The list's rows by their stored positions (``None``: ranked as read), see :meth:`get`.
    placed: PlacedRows | None = None

    def get_queryset(self):
        return Standing.objects.none()  # the filter set reads the table the season asks for

    def get_table_data(self):
        if self.placed is not None:
            return TableListData(self.placed)
        filterset = self.filterset
        if self.request.GET.get("export"):  # streamed whole from one query (masterpoints.public.exports)
            return selectors.ranked(self.object_list, scheme=filterset.scheme, kind=filterset.chosen_kind)
        kind = filterset.chosen_kind
        return RankedData(ranked_rows(self.object_list, scheme=filterset.scheme, kind=kind, size=self._kept_count()))

    def get_table_kwargs(self):
        federation = self.filterset.federation
        return {
            "federation": federation,
            "see_hidden": self._see_hidden(federation),
            "kind": self.filterset.chosen_kind,
        }

    def _see_hidden(self, federation) -> bool:
        return federation is not None and selectors.can_see_hidden(self.request.user, federation)

    def _kept_count(self) -> int | None:
        """The number of rows of a list the stored positions do not order (a season, a rung, another kind):
        counting them reads a season's whole list for every page of that list, and the number depends on
        nothing the page, the order or the language change. Kept in the cache under the standings version,
        the day (the official list follows dues paid), who may find hidden names and the filter's cleaned
        values, for as long as the rankings' table; ``None`` (counted with the rows) for a filter that is not
        valid or a version not read."""
        form = self.filterset.form
        if self.standings_version is None or not form.is_valid():
            return None
        filters = repr(sorted((name, str(value)) for name, value in form.cleaned_data.items()))
        viewer = "all" if self._see_hidden(self.filterset.federation) else "public"
        digest = hashlib.sha256(f"{viewer}\n{filters}".encode()).hexdigest()[:32]
        key = f"rankings-count:{self.standings_version}:{selectors.today()}:{digest}"
        return cache.get_or_set(key, self.object_list.count, RANKINGS_CACHE_SECONDS)

    def get(self, request, *args, **kwargs):
        try:
            page_number(request)
            _federation_param(request)
        except BadParameter as error:
            return bad_request(request, error)
        export = request.GET.get("export")
        key = None if export else self._cache_key()
        part = cache.get(key) if key else None
        if part is None:
            if is_ratelimited(
                request, group="public.rankings", key="ip", rate=f"{LISTS_RATE_PER_MINUTE}/m", increment=True
            ):
                return _lists_too_many(request)
            self.filterset = self.get_filterset(self.get_filterset_class())
            valid = self.filterset.is_valid() or not self.get_strict()
            sorted_otherwise = bool(request.GET.get(ORDER_PARAMETER) or export)
            self.placed = placed_rows(self.filterset, sorted_otherwise=sorted_otherwise)
            if self.placed is not None:
                self.object_list = self.filterset.queryset.none()  # the rows are read by their positions
            else:
                self.object_list = self.filterset.qs if valid else self.filterset.queryset.none()
            if export in ("csv", "xlsx") and self.filterset.federation is not None:
                return _export(request, self.get_table(**self.get_table_kwargs()), export, self.filterset)
            context = self.get_context_data(filter=self.filterset, object_list=self.object_list)
            part = {
                "body": render_to_string("masterpoints/ranking_body.html", context, request),
                "federation_name": context.get("federation", ""),
                "season_label": context.get("season_label", ""),
            }
            if key:
                cache.set(key, part, RANKINGS_CACHE_SECONDS)
        return render(request, self.template_name, part)

    def _cache_key(self) -> str | None:
        """The cached table's key; ``None`` (not kept) where the page cache would not keep the page either:
        a federation written otherwise or none such, which the filter answers with the first one, and an
        address with a parameter the page does not read, twice, or a page beyond the kept ones
        (:func:`~masterpoints.public.page_cache.kept_address`)."""
        handle = rankings_federation(self.request)
        version = getattr(self.request, "standings_version", None) or (
            standings_version_cached(handle) if handle else None
        )
        self.standings_version = version
        if version is None or not kept_address(self.request, KEPT_PARAMETERS):
            return None  # as the page cache: an address made up to fill the cache fills nothing
        user = self.request.user
        see_hidden = user.is_authenticated and self._see_hidden(selectors.federation_by_id(federation_in(version)))
        viewer = "all" if see_hidden else "public"
        query = self.request.GET
        digest = hashlib.sha256(urlencode(sorted(query.lists()), doseq=True).encode()).hexdigest()[:32]
        return f"rankings:{version}:{selectors.today()}:{get_language()}:{viewer}:{digest}"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        filterset = self.filterset
        if filterset.federation is not None:
            context["federation"] = filterset.federation
            season = filterset.chosen_season
            context["season_label"] = filterset.scheme.season_label(season) if season else ""
            query = self.request.GET.copy()
            query.pop("page", None)
            context["export_query"] = query
        size = page_size(self.request.GET.get("per_page"))
        context["filters"] = _filters_html(filterset, _("Filter the rankings"), size)
        context["export_max_rows"] = EXPORT_MAX_ROWS
        return context


def _filters_html(filterset: FederationListFilter, label: str, size: int | None = None) -> str:
    """A list's filter form named ``label``, with the rows per page when ``size`` is given (the rankings),
    and the filters applied as a line for print."""
    line = filters_line(filterset) if filterset.federation is not None else ""
    context = {"filter": filterset, "label": label, "filters_line": line}
    if size is not None:
        context.update(page_sizes=PAGE_SIZES, page_size=size)
    return render_to_string("masterpoints/list_filters.html", context)


class RankingListEntryListView(SingleTableMixin, FilterView):
    """``/rankings/ranking-list/``: DBf's ranking list ("ranglisten", D-Q56–D-Q60), the MP of the last three
    years weighted by age, read from the stored figures (computed with the standings, never per request).
    Offered only for a federation whose scheme publishes it (``SchemeInfo.ranking_list``): any other is a 404."""

    table_class = RankingListEntryTable
    filterset_class = RankingListEntryFilter
    template_name = "masterpoints/rankinglistentry_list.html"
    table_pagination = {"per_page": DEFAULT_PAGE_SIZE}

    def get(self, request, *args, **kwargs):
        try:
            page_number(request)
            _federation_param(request)
        except BadParameter as error:
            return bad_request(request, error)
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        return RankingListEntry.objects.none()  # the filter set reads the chosen federation's list

    def get_filterset(self, filterset_class):
        filterset = super().get_filterset(filterset_class)
        if filterset.federation is None or filterset.refused:
            raise Http404(_("This federation publishes no ranking list."))
        return filterset

    def get_table_data(self):
        return RankedData(ranking_list_rows(self.object_list))

    def get_table_kwargs(self):
        federation = self.filterset.federation
        return {"federation": federation, "see_hidden": selectors.can_see_hidden(self.request.user, federation)}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["federation"] = self.filterset.federation
        context["as_of"] = selectors.today()
        filterset = self.filterset
        context["filters"] = _filters_html(filterset, _("Filter the ranking list"))
        return context


def filters_line(filterset: FederationListFilter) -> str:
    """The filters applied, as one line for the printed list (``Federation: DBf · Club: BK Syd``): each
    field with a value, by the label of the option chosen; a value that is none of the offered options (the
    filter ignores it) is left out."""
    if not filterset.is_valid():
        return ""
    parts = []
    for field in filterset.form:
        value = filterset.form.cleaned_data.get(field.name)
        if value in (None, ""):
            continue
        label = str(value)
        choices = dict((str(key), text) for key, text in getattr(field.field, "choices", ()) or ())
        if str(value) in choices:
            label = str(choices[str(value)])
        elif choices:
            continue  # a choice the list does not offer filters nothing, so the printed line does not name it
        parts.append(f"{field.label}: {label}")
    return " · ".join(parts)


def _export(request, table: StandingTable, export: str, filterset: StandingFilter) -> HttpResponse:
    """The list as filtered and sorted on the page, all its pages (:mod:`masterpoints.public.exports`)."""
    name = f"rankings-{filterset.federation.code}"
    if filterset.chosen_season:
        name += f"-{filterset.chosen_season}"
    return exports.rankings_export(request, table, export, name)


# --- a player's page ------------------------------------------------------------------------------------------


def _player_or_404(code: str, number: str) -> Player:
    try:
        return selectors.player_by_number(code, number)
    except Player.DoesNotExist:
        raise Http404(_("No player with this number.")) from None


def player_lookup(request, number: str):
    """``/players/<number>/``: numbers are unique per federation only; one match redirects, more are listed."""
    players = list(selectors.players_numbered(number))
    if not players:
        raise Http404(_("No player with this number."))
    if len(players) == 1:
        return redirect("public:player", players[0].federation.code, number)
    return render(request, "masterpoints/player_choose.html", {"players": players, "number": number})


@anonymous_page_cache(player_federation, parameters=("page", "per_page"))
def player_page(request, code: str, number: str):
    """``/players/<federation>/<number>/``: balances, title or category and what the next one needs, ranks,
    season figures, the chart of points over time and the whole ledger with each award's explanation."""
    player = _player_or_404(code, number)
    federation = player.federation
    standing = selectors.standing_of(player)
    club = selectors.home_club(player)
    own = request.user.is_authenticated and player.user_id == request.user.pk
    see_hidden = own or selectors.can_see_hidden(request.user, federation)
    over_time = points_over_time(player)
    awards = AwardTable(TableListData(PlayerLedger(player, size=over_time.awards)))
    RequestConfig(request, paginate={"per_page": AwardTable.default_page_size}).configure(awards)
    info = federation.scheme_info
    season = info.season_of(selectors.today())
    book = LadderBook(federation)  # the ladders the title, what the next needs and the register are read by
    achievements = selectors.player_achievements(player, book=book)
    ranking = selectors.player_ranking_entry(player)
    context = {
        "player": player,
        "federation": federation,
        "name": shown_name(player, see_hidden),
        "own": own,
        "standing": standing,
        "balances": balances(info, standing),
        "status": title_status(player, standing, book=book),
        "ranks": selectors.player_ranks(player, standing, club),
        "club": club,
        "seasons": season_table(info, selectors.player_seasons(player), season),
        "achievements": achievements,
        "chart": points_chart(over_time.series, info, [(row.reached_on, row.title) for row in achievements]),
        "awards": awards,
        "ranking": ranking,
        "ranking_figure": ranking_figure(ranking.score, info.ranking_list) if ranking else "",
        **(_own_notices(request, player) if own else {}),
    }
    return render(request, "masterpoints/player_detail.html", context)


def _own_notices(request, player: Player) -> dict:
    """The player chooses the monthly statement on their own page too, with My page's form (posted
    to ``notices:preference``). Only for the player's own login; the page is rendered per request (never
    cached), so no other reader's page carries it."""
    return {
        "statement_form": NoticePreferenceForm(initial={"monthly_statement": wants_statement(player)}),
        "statement_address": player.email or request.user.email,
    }


@login_required
@require_POST
def player_privacy(request, code: str, number: str):
    """A player hides their name on the public lists, or shows it again (their own page only)."""
    player = _player_or_404(code, number)
    if player.user_id != request.user.pk:
        raise PermissionDenied(_("Only the player may change this."))
    hide = request.POST.get("hide_name") == "on"
    player_hide_name_set(actor=request.user, player=player, hide_name=hide)
    if hide:
        messages.success(request, _("Your name is now hidden on the public lists; they show your number."))
    else:
        messages.success(request, _("Your name is shown on the public lists again."))
    return redirect("public:player", code, number)


def _federation_param(request) -> None:
    """``?federation=`` names a federation by id: a number too large for one is refused (others are read
    by the filter, which falls back to the first federation)."""
    raw = request.GET.get("federation", "")
    if raw.isdecimal():
        bounded_int(raw, name="federation", default=0, minimum=0, maximum=MAX_ID)


def tournament_page(request, pk: int):
    """A tournament's groups and entries: each row's score as the scoring program wrote it (D-Q54) and the
    points it received, each player's name linking to their page."""
    try:
        tournament = tournament_detail(pk)
    except Tournament.DoesNotExist:
        raise Http404 from None
    awards = selectors.tournament_awards(tournament)
    tournament_rows(tournament, selectors.tournament_points(tournament), awards)
    reversed_ids = reversed_awards(tournament)
    for group in tournament.groups.all():
        for entry in group.entries.all():
            for participation in entry.participations.all():
                participation.award_list = awards.get(participation.player_id, [])
                for award in participation.award_list:
                    award.is_reversed = award.pk in reversed_ids
    context = {
        "tournament": tournament,
        "withdrawal": withdrawal_of(tournament),  # withdrawn by the secretariat, and why
        "corrections": tournament_corrections(tournament),  # and the corrections granted about it
    }
    return render(request, "masterpoints/tournament_detail.html", context)
