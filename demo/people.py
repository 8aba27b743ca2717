"""The demo federations' regions, clubs (with playing times) and players (the logins: :mod:`demo.logins`).

Every builder is idempotent: it creates what is missing and leaves what exists as it is, so a second run
changes nothing and a larger run only adds.
"""

from __future__ import annotations

from datetime import date

from clubs.models import Club, ClubMembership, PlayingTime
from demo.data import demo_player, demo_playing_times
from demo.profiles import DemoClub, DemoProfile
from federation.models import Federation, Player, Region

#: Players generated and written per round.
BATCH = 5000


def federation_build(profile: DemoProfile, club_count: int) -> Federation:
    """The profile's federation with its regions and the clubs of a run that asks for ``club_count`` clubs."""
    federation, _ = Federation.objects.get_or_create(
        code=profile.code,
        defaults={
            "name": profile.name,
            "scheme": profile.scheme,
            "default_language": profile.language,
            "time_zone": profile.time_zone,
            "contact_email": profile.contact_email,
        },
    )
    regions: dict[str, Region] = {}
    for region in profile.regions:
        regions[region.code], _ = Region.objects.get_or_create(
            federation=federation,
            code=region.code,
            defaults={"name": region.name, "kind": region.kind, "parent": regions.get(region.parent)},
        )
    for index, club in enumerate(profile.clubs(club_count)):
        _club_build(federation, index, club, [regions[code] for code in club.regions], profile.language)
    return federation


def _club_build(federation: Federation, index: int, demo_club: DemoClub, regions: list[Region], language: str) -> Club:
    """The club numbered ``demo_club.number``; a new one gets its regions and the ``index``-th club's
    playing times."""
    number = demo_club.number
    club, created = Club.objects.get_or_create(
        federation=federation,
        number=number,
        defaults={"name": demo_club.name, "email": f"club{number}@{federation.code}.example", "language": language},
    )
    if created:
        club.regions.set(regions)
        PlayingTime.objects.bulk_create(
            PlayingTime(club=club, weekday=day, part_of_day=part)
            for day, part in demo_playing_times(federation.scheme, index)
        )
    return club


def players_build(federation: Federation, count: int, season_end: date) -> int:
    """The federation's first ``count`` demo players, each with a home club (and some a second club);
    members have paid their dues until ``season_end``. Returns how many were new."""
    scheme = federation.scheme
    clubs = list(Club.objects.filter(federation=federation).order_by("pk"))
    existing = set(Player.objects.filter(federation=federation).values_list("number", flat=True))
    made = 0
    for start in range(0, count, BATCH):
        rows = [demo_player(scheme, i, len(clubs), season_end) for i in range(start, min(count, start + BATCH))]
        rows = [row for row in rows if row.number not in existing]
        if not rows:
            continue
        Player.objects.bulk_create(
            Player(
                federation=federation,
                number=row.number,
                first_name=row.first_name,
                last_name=row.last_name,
                birth_year=row.birth_year,
                status=row.status,
                dues_paid_until=row.dues_paid_until,
                email=f"player{row.number}@{scheme}.example",
            )
            for row in rows
        )
        ids = dict(
            Player.objects.filter(federation=federation, number__in=[row.number for row in rows]).values_list(
                "number", "pk"
            )
        )
        memberships = []
        for row in rows:
            memberships.append(ClubMembership(player_id=ids[row.number], club=clubs[row.club_index], is_home=True))
            if row.second_club_index is not None:
                memberships.append(ClubMembership(player_id=ids[row.number], club=clubs[row.second_club_index]))
        ClubMembership.objects.bulk_create(memberships)
        made += len(rows)
    return made
