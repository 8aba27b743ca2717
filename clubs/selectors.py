"""Reads for the club pages."""

from django.db.models import Count, Q

from clubs.models import Club, ClubMembership


def club_list():
    return (
        Club.objects.filter(active=True)
        .select_related("federation")
        .annotate(members=Count("memberships", filter=Q(memberships__until__isnull=True)))
        .order_by("federation__name", "name")
    )


def club_members(club: Club):
    return (
        ClubMembership.objects.filter(club=club, until__isnull=True)
        .select_related("player")
        .order_by("player__last_name", "player__first_name")
    )
