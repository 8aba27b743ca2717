"""The cups (§ 451C–E) and the clubs' top-16 lists (§ 452A): public pages and the secretariat's report.

The cups are the federation's public trophies and the top-16 list is published in the club (§ 451C), so
both pages are public; names of players who hide them show as numbers except to the secretariat and the
club's directors. Recording a winner is the secretariat's (``cup_win_record``).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club
from federation.models import Federation, Player
from federation.params import MAX_ID, BadParameter, bad_request, bounded_int, season_number
from federation.selectors import federation_asked
from masterpoints.cups.services import (
    Cup,
    cup_decision,
    cup_keeper,
    cup_ranking,
    cup_win_record,
    series_for,
    top16,
    top16_playing_times,
)
from masterpoints.numbers import shown_units
from masterpoints.public.tables import shown_name
from office.access import can_act_for_club, is_secretariat


def _federation(request) -> Federation:
    federation = federation_asked(request, "cups")
    if federation is None:
        raise PermissionDenied(_("No federation here keeps cups (§ 451C–E are DBf's)."))
    return federation


def _int(value, default: int) -> int:
    return bounded_int(value, name="playing_time", default=default, minimum=0, maximum=MAX_ID)


def _cup(value) -> str:
    return value if value in Cup.values else Cup.BRONZE


def _decimals(cup: str) -> int:
    """The gold cup counts MP in hundredths; the others whole BP (§ 451D–E, § 402)."""
    return 2 if cup == Cup.GOLD else 0


def _lines(lines, see_hidden: bool, decimals: int = 0):
    """Rows with the name as the viewer may see it and the result as shown (gold: MP, § 402)."""
    return [
        {"line": line, "name": shown_name(line.player, see_hidden), "amount": shown_units(line.units, decimals)}
        for line in lines
    ]


def cup_list(request):
    """A cup's season ranking (§ 451D–E, MP won in Denmark only, § 451C), its winners and its keeper."""
    federation = _federation(request)
    info = federation.scheme_info
    current = info.season_of(timezone.localdate())
    try:
        season = season_number(request.GET.get("season"), default=current)
    except BadParameter as error:
        return bad_request(request, error)
    cup = _cup(request.GET.get("cup"))
    see_hidden = is_secretariat(request.user, federation)
    series = series_for(federation, cup, season)
    decimals = _decimals(cup)
    context = {
        "federation": federation,
        "cup": cup,
        "cup_label": dict(Cup.choices)[cup],
        "cups": Cup.choices,
        "season": season,
        "season_label": info.season_label(season),
        "seasons": [(s, info.season_label(s)) for s in range(current, current - 10, -1)],
        "lines": _lines(cup_ranking(federation=federation, cup=cup, season=season, limit=25), see_hidden, decimals),
        "decimals": decimals,
        "series": series,
        "wins": [
            {"win": win, "name": shown_name(win.player, see_hidden)}
            for win in (series.wins.select_related("player") if series else [])
        ],
        "keeper": cup_keeper(series) if series else None,
        "is_secretariat": see_hidden,
    }
    return render(request, "masterpoints/cup_list.html", context)


@login_required
def cup_report(request):
    """The secretariat's report: the season's decision per cup, and recording the winner (§ 451D–E)."""
    federation = _federation(request)
    if not is_secretariat(request.user, federation):
        raise PermissionDenied(_("The cup report is the secretariat's."))
    info = federation.scheme_info
    try:
        raw = request.GET.get("season") or request.POST.get("season")
        season = season_number(raw, default=info.season_of(timezone.localdate()) - 1)
    except BadParameter as error:
        return bad_request(request, error)
    if request.method == "POST":
        cup = _cup(request.POST.get("cup"))
        chosen = request.POST.get("player")
        player = Player.objects.filter(federation=federation, pk=chosen).first() if chosen else None
        try:
            win = cup_win_record(actor=request.user, federation=federation, cup=cup, season=season, player=player)
        except ValidationError as error:
            for text in error.messages:
                messages.error(request, text)
        else:
            messages.success(request, _("Recorded: %(win)s.") % {"win": win})
        return redirect(f"{request.path}?federation={federation.pk}&season={season}")
    reports = []
    for cup, label in Cup.choices:
        series = series_for(federation, cup, season)
        decision = cup_decision(federation=federation, cup=cup, season=season)
        reports.append(
            {
                "cup": cup,
                "label": label,
                "decimals": _decimals(cup),
                "series": series,
                "recorded": series.wins.filter(season=season).select_related("player").first() if series else None,
                "decision": decision,
                "ranking": cup_ranking(federation=federation, cup=cup, season=season, limit=10),
                "keeper": cup_keeper(series) if series else None,
            }
        )
    context = {
        "federation": federation,
        "season": season,
        "season_label": info.season_label(season),
        "reports": reports,
    }
    return render(request, "masterpoints/cup_report.html", context)


def _top16_lines(lines, see_hidden: bool):
    return [{"line": line, "name": shown_name(line.player, see_hidden)} for line in lines]


def top16_list(request, pk: int):
    """§ 452A: the club's top-16 per playing time (or club-wide) from the season's BP in its tournaments."""
    club = get_object_or_404(Club.objects.select_related("federation"), pk=pk)
    info = club.federation.scheme_info
    if not info.cups:
        raise PermissionDenied(_("Top-16 lists are DBf's (§ 452)."))
    current = info.season_of(timezone.localdate())
    try:
        season = season_number(request.GET.get("season"), default=current)
        chosen = _int(request.GET.get("playing_time"), 0)
    except BadParameter as error:
        return bad_request(request, error)
    playing_times = top16_playing_times(club, season)
    playing_time = next((pt for pt in playing_times if pt.pk == chosen), None)
    see_hidden = can_act_for_club(request.user, club)
    lines = top16(club=club, season=season, playing_time=playing_time)
    context = {
        "club": club,
        "season": season,
        "season_label": info.season_label(season),
        "seasons": [(s, info.season_label(s)) for s in range(current, current - 5, -1)],
        "playing_times": playing_times,
        "playing_time": playing_time,
        "lines": [{**item, "bp": item["line"].bp} for item in _top16_lines(lines, see_hidden)],
    }
    return render(request, "masterpoints/top16_list.html", context)
