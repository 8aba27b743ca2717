"""The rows of the member file (``masterpoints.member_file``): reads only."""

from __future__ import annotations

import datetime

from django.db.models import Exists, OuterRef, Q

from clubs.models import Club, ClubMembership
from federation.models import Federation, Player
from masterpoints.engine.common import format_units
from masterpoints.standings.titles import title_label

#: The columns before the points: what a scoring program needs to know a player at the table, and no more
#: (no e-mail, birth year, status or dues).
HEAD = ("number", "first_name", "last_name", "club_number", "club", "title")
#: Who is in the file: members and guests (a lapsed player's number makes the upload warn, PLAYER_NOT_MEMBER).
LISTED_STATUSES = (Player.Status.MEMBER, Player.Status.GUEST)


def point_columns(federation: Federation) -> list[tuple[str, str, int]]:
    """(column, standing field, decimals) of the federation's points, each column named by its kind: DBf's
    MP total and then its kinds (§ 402), HBS's kinds kept apart (H-2), as :mod:`federation.schemes` says."""
    return [(b.label.lower(), b.column, b.decimals) for b in federation.scheme_info.balances]


def member_file_rows(*, federation: Federation, club: Club | None, on: datetime.date) -> list[list]:
    """The header and one row per player, by number: the federation's members and guests, or those of them
    with a membership of ``club`` current on ``on``. A player who hides their name (``Player.hide_name``, as
    on the public lists) has the name columns empty: the number only."""
    points = point_columns(federation)
    players = Player.objects.filter(federation=federation, status__in=LISTED_STATUSES)
    if club is not None:
        current = Q(until__isnull=True) | Q(until__gte=on)
        players = players.filter(Exists(ClubMembership.objects.filter(current, club=club, player=OuterRef("pk"))))
    fields = ["pk", "number", "first_name", "last_name", "hide_name", "standing__title", "standing__stars"]
    fields += [f"standing__{field}" for _column, field, _decimals in points]
    homes = dict(
        ClubMembership.objects.filter(player__in=players.values("pk"), is_home=True).values_list(
            "player_id", "club__number"
        )
    )
    names = dict(Club.objects.filter(federation=federation).values_list("number", "name"))
    rows = [[*HEAD, *(column for column, _field, _decimals in points)]]
    for values in players.order_by("number").values_list(*fields).iterator(chunk_size=5000):
        pk, number, first, last, hidden, title, stars, *amounts = values
        home = homes.get(pk, "")
        shown = ("", "") if hidden else (first, last)
        rank = title_label(title or "", stars or 0)
        units = [
            format_units(amount or 0, decimals) for amount, (_c, _f, decimals) in zip(amounts, points, strict=True)
        ]
        rows.append([number, *shown, home, names.get(home, ""), rank, *units])
    return rows
