"""What the office's record of a player reads: one query per part of the page."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import Min, Q, QuerySet

from federation.models import Player
from masterpoints.models import Award, CorrectionRequest, ProvisionalPlayer
from masterpoints.office_record.models import TournamentWithdrawal
from masterpoints.public.selectors import home_club, standing_of
from masterpoints.public.tables import balances
from masterpoints.standings.titles import title_status
from tournaments.models import Tournament

#: Ledger rows per page of the record.
LEDGER_PAGE = 50


def player_seasons_with_awards(player: Player) -> list[tuple[int, str]]:
    """The seasons from the player's first award to today's, newest first, as (season, label)."""
    info = player.federation.scheme_info
    first = Award.objects.filter(player=player).aggregate(first=Min("awarded_on"))["first"]
    newest = Award.objects.filter(player=player).order_by("-awarded_on").values_list("awarded_on", flat=True).first()
    if first is None:
        return []
    return [(s, info.season_label(s)) for s in range(info.season_of(newest), info.season_of(first) - 1, -1)]


def player_ledger(player: Player, *, season: int | None = None, kind: str = "") -> QuerySet[Award]:
    """The player's awards, newest first, with their tournament (and its club), the upload's file, the
    explanation, the award a reversal cancels and the correction that posted it; narrowed to one season (the
    scheme's dates) and one kind where given."""
    awards = Award.objects.filter(player=player).with_explanations()
    if season is not None:
        awards = awards.filter(awarded_on__range=player.federation.scheme_info.season_dates(season))
    if kind:
        awards = awards.filter(kind=kind)
    return awards.select_related(
        "tournament__club", "tournament__upload", "tournament__withdrawal", "reverses", "correction"
    ).order_by("-awarded_on", "-pk")


def ledger_page(player: Player, *, season: int | None, kind: str, number) -> Page:
    return Paginator(player_ledger(player, season=season, kind=kind), LEDGER_PAGE).get_page(number)


def held_provisional(player: Player) -> list[ProvisionalPlayer]:
    """Provisional players held under this player's number (credited when the office merges them) and those
    already credited to them, with their cases (the points held)."""
    rows = ProvisionalPlayer.objects.filter(
        Q(federation=player.federation, number=player.number, member__isnull=True) | Q(member=player)
    )
    return list(rows.prefetch_related("cases__tournament").order_by("-created_at"))


def player_corrections(player: Player) -> QuerySet[CorrectionRequest]:
    return (
        CorrectionRequest.objects.filter(player=player)
        .select_related("tournament", "award", "requested_by", "decided_by")
        .prefetch_related("entries")
        .order_by("-created_at")
    )


@dataclass
class PlayerRecord:
    """The head of the record: balances, title or category and what the next needs, the home club."""

    player: Player
    balances: list[tuple[str, str]]
    status: object
    club: object
    standing: object


def player_record(player: Player) -> PlayerRecord:
    standing = standing_of(player)
    info = player.federation.scheme_info
    return PlayerRecord(player, balances(info, standing), title_status(player, standing), home_club(player), standing)


def player_tournaments(player: Player) -> QuerySet[Tournament]:
    """The tournaments the player has an award in or played in, any season, newest first, with their club
    (the correction form's choices: "date · name · club")."""
    return (
        Tournament.objects.filter(
            Q(awards__player=player) | Q(groups__entries__participations__player=player),
            federation=player.federation,
        )
        .select_related("club", "region")
        .distinct()
        .order_by("-date", "name", "pk")
    )


def withdrawal_of(tournament: Tournament) -> TournamentWithdrawal | None:
    return TournamentWithdrawal.objects.filter(tournament=tournament).select_related("withdrawn_by").first()


def tournament_corrections(tournament: Tournament) -> list[Award]:
    """The ledger entries that granted corrections posted about ``tournament`` (its awards reversed or
    adjusted), with their player and request."""
    return list(
        Award.objects.filter(Q(correction__tournament=tournament) | Q(correction__award__tournament=tournament))
        .select_related("player", "correction")
        .distinct()
        .order_by("player__last_name", "pk")
    )


def reversed_awards(tournament: Tournament) -> set[int]:
    """The ids of ``tournament``'s awards that a later entry reversed (a correction, a withdrawal)."""
    rows = Award.objects.filter(tournament=tournament, source=Award.Source.REVERSAL)
    return set(rows.values_list("reverses_id", flat=True))
