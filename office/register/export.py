"""The current register in the import's own layout: a CSV UTF-8 file (``;``) with the header
of ``static/register-templates/`` that the import reads back unchanged (importing the export changes nothing),
so that an office can extend it and import it again."""

from __future__ import annotations

import csv
import io

from clubs.models import Club, ClubMembership
from federation.models import Federation, Player
from office.models import Officer
from office.register.reader import COLUMNS
from office.register.records import ROLES


def _row(**values) -> list[str]:
    return [str(values.get(column, "") if values.get(column) is not None else "") for column in COLUMNS]


def _date(day) -> str:
    return day.isoformat() if day else ""


def register_export(*, federation: Federation) -> bytes:
    """Every club, player, membership and office of the register's roles of ``federation``, one row each, in
    the import's layout (clubs first, so that the file reads as the import's example does)."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\n")
    writer.writerow(COLUMNS)
    for club in Club.objects.filter(federation=federation, active=True).order_by("number"):
        writer.writerow(_row(record="club", club=club.number, name=club.name, email=club.email))
    players = Player.objects.filter(federation=federation).order_by("number")
    for player in players.iterator(chunk_size=5000):
        writer.writerow(
            _row(
                record="player",
                number=player.number,
                first_name=player.first_name,
                last_name=player.last_name,
                email=player.email,
                birth_year=player.birth_year,
                status=player.status,
                dues_paid_until=_date(player.dues_paid_until),
            )
        )
    memberships = ClubMembership.objects.filter(player__federation=federation, club__active=True)
    rows = memberships.values_list("player__number", "club__number", "since", "until", "is_home")
    for number, club, since, until, home in rows.order_by("player__number", "club__number").iterator(5000):
        writer.writerow(
            _row(
                record="membership",
                number=number,
                club=club,
                since=_date(since),
                until=_date(until),
                home="1" if home else "",
            )
        )
    logins = dict(Player.objects.filter(federation=federation, user__isnull=False).values_list("user_id", "number"))
    offices = Officer.objects.filter(federation=federation, role__in=ROLES, user__in=list(logins)).select_related(
        "club", "region"
    )
    for office in sorted(offices, key=lambda o: (logins[o.user_id], o.role)):
        writer.writerow(
            _row(
                record="officer",
                number=logins[office.user_id],
                role=office.role,
                club=office.club.number if office.club_id else "",
                region=office.region.code if office.region_id else "",
            )
        )
    return ("\ufeff" + out.getvalue()).encode("utf-8")
