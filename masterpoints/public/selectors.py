"""Reads of standings, rankings and a player's record, with the joins each page needs.

Ranks come from the database, the same on every worker:

- the places on a federation's default list (the federation, the district of the home club, the club, DBf's
  ranking list) are derived by window functions and stored at most ``PLACES_BOUND_SECONDS`` behind the
  points (:mod:`masterpoints.standings.places`); a player's page reads them by key, and the rankings' default
  list reads a page as a range of stored positions (:mod:`masterpoints.public.placed`);
- every other list is ranked as it is read, ``RANK() OVER (ORDER BY key DESC)`` over the filtered list: a
  page at a time by :class:`masterpoints.public.placed.RankedRows`, a club's members and a download whole
  (:func:`ranked`).

Equal keys share a rank (1, 2, 2, 4). DBf ranks by total MP; HBS by category, then master, red and black
points (the packed ``sort_key``).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Exists, F, FilteredRelation, Min, OuterRef, Q, QuerySet, Subquery, Sum, Window
from django.db.models.functions import Rank
from django.urls import reverse
from django.utils import timezone

from clubs.models import Club, ClubMembership
from federation.models import Federation, Player, Region, official_list_q
from federation.names import fold_name
from federation.schemes import SchemeInfo, scheme_of
from masterpoints.models import (
    Award,
    RankingListEntry,
    SeasonStanding,
    Standing,
    StandingPlace,
    StandingPlaces,
    TitleAchievement,
)
from masterpoints.standings.ladders import LadderBook
from masterpoints.standings.titles import rung_etui, title_label
from office.access import is_secretariat
from tournaments.models import Tournament


def today() -> datetime.date:
    return timezone.localdate()


def federations_by_name() -> list[Federation]:
    """Every federation, by name, as the rankings offer them."""
    return list(Federation.objects.order_by("name"))


def federation_by_id(pk: int) -> Federation | None:
    return Federation.objects.filter(pk=pk).first()


def official_by_default(federation: Federation) -> bool:
    """HBS publishes only the official list (rule 3; guests on request, rule 4); DBf lists everyone."""
    return federation.scheme_info.official_list_by_default


# --- the rankings list ---------------------------------------------------------------------------------


def ranking_base(*, federation: Federation, season: int | None) -> QuerySet:
    """Career standings of ``federation``, or its season figures for ``season``."""
    if season is None:
        return Standing.objects.filter(federation=federation)
    return SeasonStanding.objects.filter(federation=federation, season=season)


def in_region(queryset: QuerySet, region: Region | int) -> QuerySet:
    """Players whose home club lies in ``region`` (a district includes the clubs of its circles)."""
    regions = Q(club__regions=region) | Q(club__regions__parent=region)
    home = ClubMembership.objects.filter(regions, player_id=OuterRef("player_id"), is_home=True)
    return queryset.filter(Exists(home))


def in_club(queryset: QuerySet, club: Club | int) -> QuerySet:
    """Current members of ``club`` (home club or not)."""
    members = ClubMembership.objects.filter(club=club, player_id=OuterRef("player_id"), until__isnull=True)
    return queryset.filter(Exists(members))


def on_official_list(queryset: QuerySet, on_date: datetime.date) -> QuerySet:
    return queryset.filter(official_list_q(on_date, prefix="player__"))


def with_rung(queryset: QuerySet, rung: int) -> QuerySet:
    """A title or category (the shown one, which is never lower than a held one)."""
    if queryset.model is SeasonStanding:
        return queryset.filter(player__standing__title_rung=rung)
    return queryset.filter(title_rung=rung)


def matching(queryset: QuerySet, text: str, *, see_hidden: bool, prefix: str = "player__") -> QuerySet:
    """A registration number (exact), or every word of ``text`` in the player's name, both folded
    (:mod:`federation.names`: "Jorgen" finds "Jørgen", "SØREN" "Søren", "Dordevic" "Đorđević"). Players who hide
    their name are found by number only, unless the viewer is the secretariat. ``prefix`` reaches the player
    (``""`` for a queryset of players)."""
    text = text.strip()
    if not text:
        return queryset
    if text.isdigit():
        return queryset.filter(**{f"{prefix}number": text})
    words = name_words(text)
    if not words:
        return queryset.none()
    for word in words:
        queryset = queryset.filter(**{f"{prefix}search_name__contains": word})
    return queryset if see_hidden else queryset.filter(**{f"{prefix}hide_name": False})


def name_words(text: str) -> tuple[str, ...]:
    """The words a name search looks for (:func:`matching`): folded, at most four."""
    return tuple(fold_name(text).split()[:4])


def with_home_club_name(queryset: QuerySet) -> QuerySet:
    """Each row's player's home club name as ``home_club_name`` (NULL without one), joined to the rows: a
    player has at most one home club (``membership_one_home_club``), so no row is repeated, and a whole list
    reads the clubs in one pass instead of a lookup per row."""
    home = FilteredRelation("player__memberships", condition=Q(player__memberships__is_home=True))
    return queryset.alias(home_membership=home).annotate(home_club_name=F("home_membership__club__name"))


def ranked(queryset: QuerySet, *, scheme: SchemeInfo | str, kind: str | None) -> QuerySet:
    """Each row's ``place`` in the filtered list (equal keys share it) and the list in that order."""
    key = scheme_of(scheme).ranking_column(kind)
    related = ("player", "player__standing") if queryset.model is SeasonStanding else ("player",)
    ranked = queryset.select_related(*related).annotate(place=Window(Rank(), order_by=F(key).desc()))
    return with_home_club_name(ranked).order_by(F(key).desc(), "player_id")


# --- DBf's ranking list ("ranglisten", D-Q56–D-Q60) -------------------------------------------------------


def ranking_list_federations() -> list[Federation]:
    """The federations whose scheme publishes the weighted ranking list (``SchemeInfo.ranking_list``), by name."""
    return [f for f in federations_by_name() if f.scheme_info.ranking_list is not None]


def ranking_list_base(*, federation: Federation) -> QuerySet:
    """The stored figures of ``federation`` (:class:`~masterpoints.models.RankingListEntry`)."""
    return RankingListEntry.objects.filter(federation=federation)


def player_ranking_entry(player: Player) -> RankingListEntry | None:
    """``player``'s figure on the ranking list (D-Q56–D-Q60) with its ``place`` on the federation's whole list
    (equal figures share it, D-Q60), as stored with their places (:mod:`masterpoints.standings.places`, at
    most ``PLACES_BOUND_SECONDS`` behind the figure). ``None`` without a row (a figure of 0) and, without a
    query, for a scheme that publishes no ranking list (HBS)."""
    if player.federation.scheme_info.ranking_list is None:
        return None
    entry = RankingListEntry.objects.filter(player=player).first()
    if entry is not None:
        entry.place = (
            StandingPlace.objects.filter(standing_id=player.pk).values_list("ranking_place", flat=True).first()
        )
    return entry


def title_choices(federation: Federation) -> list[tuple[int, str]]:
    """The rungs of the ladder in force today, lowest first, as (rung, label)."""
    ladder = LadderBook(federation).on(today())
    return [(rung.rung, title_label(rung.title, rung.stars)) for rung in ladder.rungs]


def season_choices(federation: Federation) -> list[tuple[int, str]]:
    """Seasons from the first award to today, newest first (the first award read from the date index)."""
    first = Award.objects.filter(federation=federation).aggregate(first=Min("awarded_on"))["first"]
    info = federation.scheme_info
    current = info.season_of(today())
    oldest = info.season_of(first) if first else current
    return [(season, info.season_label(season)) for season in range(current, oldest - 1, -1)]


def can_see_hidden(user, federation: Federation) -> bool:
    """The secretariat sees every name; everyone else sees the number of a player who hides their name."""
    return is_secretariat(user, federation)


# --- one player --------------------------------------------------------------------------------------------


def players_numbered(number: str) -> QuerySet:
    return Player.objects.filter(number=number).select_related("federation").order_by("federation__name")


def player_by_number(code: str, number: str) -> Player:
    """The player with ``number`` in the federation ``code``, with their federation, their standing
    (:func:`standing_of`) and their home club's id (``home_club_pk``, read by :func:`home_club`), in one
    query; ``Player.DoesNotExist`` otherwise."""
    home = ClubMembership.objects.filter(player=OuterRef("pk"), is_home=True).order_by().values("club_id")[:1]
    players = Player.objects.select_related("federation", "standing").annotate(home_club_pk=Subquery(home))
    return players.get(federation__code=code, number=number)


def standing_of(player: Player) -> Standing | None:
    """The player's career standing (``None`` before their first award), read with the player where
    :func:`player_by_number` found them."""
    try:
        return player.standing
    except Standing.DoesNotExist:
        return None


@dataclass(frozen=True)
class HomeClub:
    """A player's home club as their page shows it: its id and name, and the district it lies in
    (:func:`district_of`) as (id, name), read together by :func:`home_club`."""

    pk: int
    name: str
    district: tuple[int, str] | None

    def get_absolute_url(self) -> str:
        return reverse("clubs:detail", args=[self.pk])


#: What a club row reads of the club and each of its regions (a row per region, the region's district above).
_CLUB_ROW = ("pk", "name", "regions", "regions__kind", "regions__name", "regions__parent", "regions__parent__name")


def home_club(player: Player) -> HomeClub | None:
    """The player's home club (a player has at most one, ``membership_one_home_club``) with its district: the
    membership read with the player or alone, then the club with its regions."""
    if hasattr(player, "home_club_pk"):  # read with the player (player_by_number)
        club_id = player.home_club_pk
    else:
        club_id = ClubMembership.objects.filter(player=player, is_home=True).values_list("club_id", flat=True).first()
    if club_id is None:
        return None
    return _clubs(Club.objects.filter(pk=club_id)).get(club_id)


def _clubs(clubs) -> dict[int, HomeClub]:
    regions: dict[int, list[tuple]] = {}
    names: dict[int, str] = {}
    for pk, name, *region in clubs.order_by().values_list(*_CLUB_ROW):
        names[pk] = name
        if region[0] is not None:
            regions.setdefault(pk, []).append(tuple(region))
    return {pk: HomeClub(pk, name, _district(regions.get(pk, []))) for pk, name in names.items()}


def district_of(club: Club | HomeClub | None) -> tuple[int, str] | None:
    """The district a club lies in, as (id, name): one of its regions, or the district of its circle."""
    if club is None:
        return None
    if isinstance(club, HomeClub):
        return club.district
    regions = club.regions.order_by().values_list("pk", "kind", "name", "parent", "parent__name")
    return _district(list(regions))


def _district(regions: list[tuple]) -> tuple[int, str] | None:
    """Of a club's regions as (id, kind, name, parent id, parent name): the one that is a district, else the
    parent of one (a circle's district)."""
    for pk, kind, name, _parent, _parent_name in regions:
        if kind == Region.Kind.DISTRICT:
            return pk, name
    for _pk, _kind, _name, parent, parent_name in regions:
        if parent is not None:
            return parent, parent_name
    return None


@dataclass
class Ranks:
    """A player's rank in the federation, the district of their home club and that club (``None``: not
    ranked there), among the players of the federation's default list."""

    federation: int | None = None
    federation_size: int = 0
    district: int | None = None
    district_name: str = ""
    club: int | None = None
    club_name: str = ""


def player_ranks(player: Player, standing: Standing | None, club: Club | HomeClub | None) -> Ranks:
    """The player's places in the federation, the district of their home club and that club (equal keys
    share a rank), among the players of the federation's default list, as stored by
    :mod:`masterpoints.standings.places` (at most ``PLACES_BOUND_SECONDS`` behind the points): a player
    listed since has no rank yet."""
    ranks = Ranks()
    federation = player.federation
    run = StandingPlaces.objects.filter(federation=federation).values_list("listed", flat=True).first()
    ranks.federation_size = run or 0
    listed = standing is not None and (not official_by_default(federation) or player.on_official_list(today()))
    if not listed:
        return ranks
    placing = StandingPlace.objects.select_related("district").filter(standing_id=player.pk).first()
    if placing is None:
        return ranks
    ranks.federation = placing.place
    if placing.district_id is not None:
        ranks.district, ranks.district_name = placing.district_place, placing.district.name
    if club is not None and placing.club_id == club.pk:
        ranks.club, ranks.club_name = placing.club_place, club.name
    return ranks


def player_seasons(player: Player) -> list[SeasonStanding]:
    """The player's season rows, the newest first; not season 0, the history brought in."""
    return list(SeasonStanding.objects.filter(player=player, season__gt=0).order_by("-season"))


@dataclass(frozen=True)
class AchievementRow:
    """A title or category reached: the day (§ 404A "efter registrering", D-Q21), the title as shown and
    what its holder receives (§ 404A "Modtager", D-Q22)."""

    reached_on: datetime.date
    title: str
    etui: str


def player_achievements(player: Player, *, book: LadderBook | None = None) -> list[AchievementRow]:
    """The player's register of titles or categories, highest first (``book``: as :func:`title_status`)."""
    book = book or LadderBook(player.federation)
    return [
        AchievementRow(reached_on, title_label(title, stars), rung_etui(book, rung, reached_on))
        for reached_on, title, stars, rung in TitleAchievement.objects.filter(player=player)
        .order_by("-rung")
        .values_list("reached_on", "title", "stars", "rung")
    ]


# --- clubs ---------------------------------------------------------------------------------------------------


def club_member_standings(club: Club) -> QuerySet:
    """The standings of a club's current members, best first, each with its place in the club."""
    queryset = in_club(Standing.objects.filter(federation_id=club.federation_id), club)
    return ranked(queryset, scheme=club.federation.scheme_info, kind=None)


def club_top_scorers(club: Club, *, limit: int = 10) -> QuerySet:
    """The members who earned most in the current season (§ 451C for DBf, the calendar year for HBS)."""
    info = club.federation.scheme_info
    season = info.season_of(today())
    queryset = in_club(SeasonStanding.objects.filter(federation_id=club.federation_id, season=season), club)
    return ranked(queryset, scheme=info, kind=None)[:limit]


def club_tournaments(club: Club, *, limit: int = 20) -> QuerySet:
    return Tournament.objects.current().filter(club=club).order_by("-date", "-pk")[:limit]


def tournament_awards(tournament: Tournament) -> dict[int, list[Award]]:
    """The result awards of ``tournament`` per player id, by kind and part."""
    awards: dict[int, list[Award]] = {}
    results = Award.objects.filter(tournament=tournament, source=Award.Source.RESULT).with_explanations()
    for award in results.order_by("kind", "part"):
        awards.setdefault(award.player_id, []).append(award)
    return awards


def tournament_points(tournament: Tournament) -> dict[int, dict[str, int]]:
    """Each player's result points of ``tournament`` from the ledger, per kind in integer units, in one query
    (the awards the page explains next to them; a replaced upload's page says it was replaced)."""
    totals: dict[int, dict[str, int]] = {}
    rows = (
        Award.objects.filter(tournament=tournament, source=Award.Source.RESULT)
        .values("player_id", "kind")
        .annotate(units=Sum("units"))
        .order_by("player_id", "kind")
    )
    for row in rows:
        if row["units"]:
            totals.setdefault(row["player_id"], {})[row["kind"]] = row["units"]
    return totals


# --- "find a player" (the home page's box) -------------------------------------------------------------

#: Players the search lists at most: a name the box finds more often than this needs another word.
FOUND_MAX = 50


def players_found(text: str, *, user) -> tuple[list[Player], set[int]]:
    """Players of every federation whose number is ``text`` or whose name holds each word of it, folded as
    the rankings fold them (:func:`matching`), by name, at most :data:`FOUND_MAX`; and the federations whose
    hidden names ``user`` may see (the secretariat's: elsewhere a player who hides their name is found by
    number only, as on the rankings)."""
    seeing = {federation.pk for federation in Federation.objects.all() if can_see_hidden(user, federation)}
    found = matching(Player.objects.select_related("federation"), text, see_hidden=True, prefix="")
    if not text.strip().isdigit():
        found = found.filter(Q(hide_name=False) | Q(federation_id__in=seeing))
    return list(found.order_by("last_name", "first_name", "federation__name", "number")[:FOUND_MAX]), seeing
