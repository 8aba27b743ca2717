"""The two national challenge cups (DBf § 451C–E) and each club's top-16 lists (§ 451C, § 452A).

§ 451C: both cups count MP *won in Denmark* ("MP vundet i Danmark") from 16 May to 15 May the next year;
§ 451D–E: the MP the player "i perioden har erhvervet og fået registreret". D-Q31: points won in the season are
the ledger's tournament results, the entries made by hand for a tournament (§ 451A) and the commission's
corrections, with their reversals; foreign MP (§ 401B) and opening balances brought from an earlier list
(``source="transition"``: the transition imports and the demo's opening balances) are not won in the period,
nor are corrections of them and reversals of either.

- Bronze cup (§ 451D): the player with most BP registered in the season. One player wins it once in ten
  years: a player who already won it in the series is passed over and the next player wins. After the ten
  years it is kept by the player with the best winning result of the series, which may come from a later
  season than their win (the season's best result of a player who could not win again still counts).
- Gold cup (§ 451E): the player with most MP, every year. After the ten years it is kept by the player who
  won it most often; between equals, the highest single result.

A series (:class:`~masterpoints.models.CupSeries`) is data: the cup, its first season and its length.
The secretariat records each season's winner after the season (:func:`cup_win_record`); a tie at the top
is not decided by us (the rules are silent): the secretariat names the winner among the tied.

Top-16 (§ 452A): "De 16 medlemmer, der i klubbens turneringer har vundet flest BP i sæsonens løb (hver
ugentlig spilleperiode for sig), er berettigede til at deltage": the 16 members with most BP won in the club's
own tournaments in the season, each weekly playing time on its own (the playing time the tournament records,
``Tournament.playing_time``), or the whole club; the next members in BP order take the places of those who
cannot play. D-Q30: who is a member is judged on the day the list is drawn up; the BP counted are all the
player's BP from the club's tournaments of the season, also those won before joining.
"""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q, Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, ClubMembership, PlayingTime
from federation.models import Federation, Player
from federation.refusals import refusals
from federation.services import audit_record
from masterpoints.models import Award, CupSeries, CupWin
from office.access import is_secretariat
from tournaments.models import Tournament

Cup = CupSeries.Cup

#: § 451D–E: which kinds each cup counts (units: BP are whole BP; MP are hundredths, every DBf unit 0.01 MP).
CUP_KINDS: dict[str, tuple[str, ...]] = {Cup.BRONZE: ("BP",), Cup.GOLD: ("BP", "SP", "GP")}
#: § 451D: a player wins the bronze cup once in a series; the gold cup may be won again (§ 451E).
CUP_ONCE_PER_SERIES: dict[str, bool] = {Cup.BRONZE: True, Cup.GOLD: False}
#: § 452A: the places of a top-16; reserves shown after them (the next members in BP order).
TOP16_PLACES = 16
TOP16_RESERVES = 8

REFUSALS = {
    "NOT_DBF": _("The cups and top-16 lists are DBf's (§ 451C–E, § 452); %(federation)s keeps no cups."),
    "SEASON_RUNNING": _("The season %(season)s runs to %(end)s (§ 451C): its winner is recorded after that."),
    "NO_SERIES": _("No %(cup)s series covers the season %(season)s: add the series (first season, ten seasons)."),
    "ALREADY_RECORDED": _("The %(cup)s of %(season)s is already recorded: %(winner)s."),
    "EARLIER_SEASON_OPEN": _(
        "Record the season %(earlier)s first: who may win the bronze cup depends on the earlier winners (§ 451D)."
    ),
    "NO_CANDIDATE": _("Nobody eligible won points in Denmark in the season %(season)s."),
    "TIE": _("%(players)s share the top with %(result)s: name the winner among them (the rules do not say)."),
    "NOT_THE_LEADER": _("%(player)s is not at the top of the eligible players (%(leaders)s)."),
    "WON_IN_SERIES": _("%(player)s already won the bronze cup in %(season)s: once in ten years (§ 451D)."),
}


refusal = refusals(REFUSALS)


def _require_dbf(federation: Federation) -> None:
    if not federation.scheme_info.cups:
        raise refusal("NOT_DBF", federation=str(federation))


# --- the cup rankings ------------------------------------------------------------------------------------


@dataclass
class CupLine:
    player: Player
    units: int
    eligible: bool = True
    won_in: int | None = None  # the season of the player's earlier bronze cup in the series (§ 451D)


#: D-Q31: the ledger sources that are MP won in a Danish tournament (§ 451C–E): results, entries made by hand
#: for a tournament (§ 451A) and the commission's corrections.
WON_SOURCES = (Award.Source.RESULT, Award.Source.MANUAL, Award.Source.CORRECTION)
#: D-Q31: entries that are not won in the period: foreign MP (§ 401B) and opening balances.
NOT_WON_SOURCES = (Award.Source.FOREIGN, Award.Source.TRANSITION)


def _won(prefix: str = "") -> Q:
    """D-Q31: an entry (reached through ``prefix``) from a won source, but not a correction of an entry that
    was not won (a corrected opening balance stays an opening balance)."""
    return Q(**{f"{prefix}source__in": WON_SOURCES}) & ~Q(
        **{f"{prefix}source": Award.Source.CORRECTION, f"{prefix}correction__award__source__in": NOT_WON_SOURCES}
    )


def _won_in_denmark(federation: Federation, kinds: tuple[str, ...], first: datetime.date, last: datetime.date):
    """§ 451C–E with D-Q31: the entries of MP won in Danish tournaments dated ``first``…``last``, with the
    reversals of such entries; foreign MP, opening balances and their reversals are left out."""
    return Award.objects.filter(federation=federation, kind__in=kinds, awarded_on__range=(first, last)).filter(
        _won() | (Q(source=Award.Source.REVERSAL) & _won("reverses__"))
    )


def cup_ranking(*, federation: Federation, cup: str, season: int, limit: int | None = 50) -> list[CupLine]:
    """The season's players by BP (bronze) or MP (gold) won in Denmark, best first (§ 451C–E), with the
    bronze cup's eligibility (§ 451D: not a player who won it earlier in the series)."""
    _require_dbf(federation)
    first, last = federation.scheme_info.season_dates(season)
    totals = (
        _won_in_denmark(federation, CUP_KINDS[cup], first, last)
        .values("player_id")
        .annotate(total=Sum("units"))
        .filter(total__gt=0)
        .order_by("-total", "player_id")
    )
    rows = list(totals[:limit] if limit else totals)
    players = Player.objects.in_bulk([row["player_id"] for row in rows])
    earlier = _earlier_wins(federation, cup, season)
    lines = []
    for row in rows:
        won_in = earlier.get(row["player_id"])
        lines.append(CupLine(players[row["player_id"]], row["total"], eligible=won_in is None, won_in=won_in))
    return lines


def series_for(federation: Federation, cup: str, season: int) -> CupSeries | None:
    """The series of ``cup`` that covers ``season`` (the latest one starting on or before it)."""
    for series in CupSeries.objects.filter(federation=federation, cup=cup, first_season__lte=season).order_by(
        "-first_season"
    ):
        if season <= series.last_season:
            return series
    return None


def _earlier_wins(federation: Federation, cup: str, season: int) -> dict[int, int]:
    """Player id → the season they won the cup earlier in the series covering ``season`` (§ 451D only)."""
    if not CUP_ONCE_PER_SERIES[cup]:
        return {}
    series = series_for(federation, cup, season)
    if series is None:
        return {}
    return dict(series.wins.filter(season__lt=season).values_list("player_id", "season"))


@dataclass
class CupDecision:
    """Who wins the season (or who is tied at the top), and the season's best result (§ 451D)."""

    leaders: list[CupLine]
    top: CupLine | None

    @property
    def winner(self) -> CupLine | None:
        return self.leaders[0] if len(self.leaders) == 1 else None


def cup_decision(*, federation: Federation, cup: str, season: int) -> CupDecision:
    lines = cup_ranking(federation=federation, cup=cup, season=season, limit=None)
    eligible = [line for line in lines if line.eligible]
    best = eligible[0].units if eligible else None
    return CupDecision([line for line in eligible if line.units == best], lines[0] if lines else None)


@transaction.atomic
def cup_win_record(
    *,
    actor,
    federation: Federation,
    cup: str,
    season: int,
    player: Player | None = None,
    today: datetime.date | None = None,
    note: str = "",
) -> CupWin:
    """Record the season's winner of ``cup`` (§ 451D–E): the eligible player with most BP/MP won in Denmark.

    ``player`` is needed only to choose among players tied at the top. The secretariat's; audited.
    """
    _require_dbf(federation)
    if not is_secretariat(actor, federation):
        raise PermissionDenied(_("Only the secretariat records the cups."))
    today = today or timezone.localdate()
    label = dict(Cup.choices)[cup]
    end = federation.scheme_info.season_dates(season)[1]
    if today <= end:
        raise refusal("SEASON_RUNNING", season=season, end=end)
    series = series_for(federation, cup, season)
    if series is None:
        raise refusal("NO_SERIES", cup=label, season=season)
    series = CupSeries.objects.select_for_update().get(pk=series.pk)
    recorded = series.wins.filter(season=season).select_related("player").first()
    if recorded is not None:
        raise refusal("ALREADY_RECORDED", cup=label, season=season, winner=str(recorded.player))
    if CUP_ONCE_PER_SERIES[cup]:
        done = set(series.wins.values_list("season", flat=True))
        missing = [s for s in range(series.first_season, season) if s not in done]
        if missing:
            raise refusal("EARLIER_SEASON_OPEN", earlier=missing[0])
    decision = cup_decision(federation=federation, cup=cup, season=season)
    if not decision.leaders:
        raise refusal("NO_CANDIDATE", season=season)
    if player is not None:
        earlier = _earlier_wins(federation, cup, season)
        if player.pk in earlier:
            raise refusal("WON_IN_SERIES", player=str(player), season=earlier[player.pk])
        chosen = next((line for line in decision.leaders if line.player.pk == player.pk), None)
        if chosen is None:
            leaders = ", ".join(str(line.player) for line in decision.leaders)
            raise refusal("NOT_THE_LEADER", player=str(player), leaders=leaders)
    elif decision.winner is None:
        players = ", ".join(str(line.player) for line in decision.leaders)
        raise refusal("TIE", players=players, result=decision.leaders[0].units)
    else:
        chosen = decision.winner
    win = CupWin.objects.create(
        series=series,
        season=season,
        player=chosen.player,
        units=chosen.units,
        top_player=decision.top.player,
        top_units=decision.top.units,
        recorded_by=actor,
        note=note,
    )
    audit_record(
        actor=actor,
        action="cup.win.record",
        target=win,
        payload={"cup": cup, "season": season, "player": chosen.player.number, "units": chosen.units},
    )
    return win


@dataclass
class Keeper:
    """Who keeps the cup after the series (§ 451D–E), or who is still tied."""

    complete: bool
    players: list[Player] = field(default_factory=list)
    result: int | None = None
    wins: int | None = None


def cup_keeper(series: CupSeries) -> Keeper:
    """§ 451D: the best winning result of the series (a season's best, also of a player who could not win
    again); § 451E: the most wins, then the highest single result. ``complete`` once all seasons are in."""
    wins = list(series.wins.select_related("player", "top_player"))
    complete = len({win.season for win in wins}) >= series.seasons
    if not wins:
        return Keeper(complete)
    if series.cup == Cup.BRONZE:
        best = max(win.top_units for win in wins)
        players = {win.top_player_id: win.top_player for win in wins if win.top_units == best}
        return Keeper(complete, list(players.values()), result=best)
    count = Counter(win.player_id for win in wins)
    most = max(count.values())
    best_single: dict[int, int] = defaultdict(int)
    for win in wins:
        if count[win.player_id] == most:
            best_single[win.player_id] = max(best_single[win.player_id], win.units)
    result = max(best_single.values())
    players = {win.player_id: win.player for win in wins if best_single.get(win.player_id) == result}
    return Keeper(complete, list(players.values()), result=result, wins=most)


# --- top-16 (§ 452A) ---------------------------------------------------------------------------------------


def members_on(club: Club, day: datetime.date):
    """D-Q30: the club's memberships current on ``day`` (begun by then, not ended before it)."""
    return ClubMembership.objects.filter(club=club).filter(
        Q(since__isnull=True) | Q(since__lte=day), Q(until__isnull=True) | Q(until__gte=day)
    )


def top16_playing_times(club: Club, season: int) -> list[PlayingTime]:
    """The playing times a top-16 list of ``season`` can be drawn up for (§ 452A): the club's active ones and
    those its tournaments of the season record (a playing time given up since still has its list)."""
    first, last = club.federation.scheme_info.season_dates(season)
    return list(
        PlayingTime.objects.filter(club=club)
        .filter(Q(active=True) | Q(tournaments__date__range=(first, last), tournaments__is_current=True))
        .distinct()
    )


@dataclass
class Top16Line:
    place: int
    player: Player
    bp: int
    qualified: bool
    tied: bool = False


def top16(
    *,
    club: Club,
    season: int | None = None,
    playing_time: PlayingTime | None = None,
    on: datetime.date | None = None,
    reserves: int = TOP16_RESERVES,
) -> list[Top16Line]:
    """§ 452A: the club's members by BP won in the club's tournaments in ``season`` (§ 451C), for one
    playing time or club-wide: the first 16 qualify, the next members are the reserves. Members tied on the
    16th place all show as qualified and ``tied`` (the rules do not say; the club decides).

    D-Q30: "De 16 medlemmer ... er berettigede til at deltage" names who may play, so the list holds the
    club's members on ``on``, the day it is drawn up (default today): a player who has left is not on it,
    nor is a guest. The list may well be drawn up after the season ("Det er valgfrit, hvornår top-16
    afvikles. Man kan fx overveje at starte sæsonen med denne turnering"), and then too it is today's
    members who are entitled. Their BP are all those won "i klubbens turneringer ... i sæsonens løb"; the
    rule does not restrict them to BP won while a member. "Hver ugentlig spilleperiode for sig": a playing
    time's list counts the tournaments that record that playing time (``Tournament.playing_time``); a
    tournament that records none counts club-wide only."""
    _require_dbf(club.federation)
    info = club.federation.scheme_info
    on = on or timezone.localdate()
    season = season if season is not None else info.season_of(on)
    first, last = info.season_dates(season)
    tournaments = Tournament.objects.current().filter(club=club, date__range=(first, last))
    if playing_time is not None:
        tournaments = tournaments.filter(playing_time=playing_time)
    members = members_on(club, on)
    totals = list(
        Award.objects.filter(
            kind="BP", player_id__in=members.values("player_id"), tournament_id__in=tournaments.values("pk")
        )
        .exclude(source=Award.Source.REVERSAL)
        .values("player_id")
        .annotate(total=Sum("units"))
        .filter(total__gt=0)
        .order_by("-total", "player__last_name", "player__first_name")
    )
    # A re-upload reverses the superseded version's awards; those tournaments are not current, so only the
    # current versions' result awards are summed (reversals of current awards, by corrections, are added).
    reversals = dict(
        Award.objects.filter(
            kind="BP", source=Award.Source.REVERSAL, reverses__tournament_id__in=tournaments.values("pk")
        )
        .values("player_id")
        .annotate(total=Sum("units"))
        .values_list("player_id", "total")
    )
    net = [(row["player_id"], row["total"] + reversals.get(row["player_id"], 0)) for row in totals]
    net = sorted([row for row in net if row[1] > 0], key=lambda row: -row[1])
    players = Player.objects.in_bulk([pk for pk, _units in net])
    cut = net[TOP16_PLACES - 1][1] if len(net) >= TOP16_PLACES else None
    lines = []
    place = 0
    previous = None
    for index, (pk, units) in enumerate(net, start=1):
        if units != previous:
            place, previous = index, units
        qualified = index <= TOP16_PLACES or (cut is not None and units == cut)
        tied = cut is not None and units == cut and any(u == cut for _p, u in net[TOP16_PLACES:])
        if not qualified and index > TOP16_PLACES + reserves:
            break
        lines.append(Top16Line(place, players[pk], units, qualified, tied))
    return lines
