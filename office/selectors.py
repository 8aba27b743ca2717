"""Reads of the office: the clubs and regions whose API tokens an officer manages, and a token by its secret."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from clubs.models import Club
from federation.models import Region
from office.models import ApiToken, Officer

#: The longest secret looked up (ours are 47 characters): anything longer is no token of ours.
TOKEN_MAX_LENGTH = 100


def token_by_secret(secret: str) -> ApiToken | None:
    """The token whose digest the secret has (revoked ones too: the caller says why it refuses them)."""
    if not secret or len(secret) > TOKEN_MAX_LENGTH:
        return None
    return (
        ApiToken.objects.select_related("federation", "club", "region", "created_by")
        .filter(digest=ApiToken.digest_of(secret))
        .first()
    )


def token_organisers(user) -> list[tuple[str, str, object]]:
    """The clubs and regions ``user`` may upload for, so make tokens for: ``(value, label, object)``.

    As the upload page offers them: a director their clubs, a region officer their regions and the circles
    inside a district, the secretariat every club and region of its federation."""
    if not user.is_authenticated:
        return []
    if user.is_superuser:
        clubs, regions = Club.objects.filter(active=True), Region.objects.all()
    else:
        offices = Officer.objects.filter(user=user)
        staff = offices.filter(role=Officer.Role.SECRETARIAT).values("federation")
        own = offices.filter(role=Officer.Role.REGION_OFFICER).values("region")
        directed = offices.filter(role=Officer.Role.CLUB_DIRECTOR).values("club")
        clubs = Club.objects.filter(Q(federation__in=staff, active=True) | Q(pk__in=directed))
        regions = Region.objects.filter(Q(federation__in=staff) | Q(pk__in=own) | Q(parent__in=own))
    choices = [(f"club:{club.pk}", str(club), club) for club in clubs.select_related("federation").order_by("name")]
    choices += [
        (f"region:{region.pk}", str(region), region) for region in regions.select_related("federation").order_by("name")
    ]
    return choices


def tokens_managed(organisers: list[tuple[str, str, object]]) -> QuerySet:
    """The tokens, active and revoked, of the organisers of :func:`token_organisers`, newest first."""
    clubs = [obj.pk for value, _label, obj in organisers if value.startswith("club:")]
    regions = [obj.pk for value, _label, obj in organisers if value.startswith("region:")]
    return ApiToken.objects.filter(Q(club__in=clubs) | Q(region__in=regions)).select_related(
        "club", "region", "created_by", "revoked_by"
    )
