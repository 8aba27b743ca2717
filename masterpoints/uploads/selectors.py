"""Reads of the upload flow: for whom a user may upload, the playing times of those clubs, and the lists of
uploads ("My uploads", a club's uploads)."""

from __future__ import annotations

from django.db.models import Case, F, Q, Value, When
from django.utils.translation import gettext as _

from clubs.models import Club, PlayingTime
from federation.models import Federation, Region
from office.models import Officer
from tournaments.models import ResultUpload
from tournaments.recognised import licensed_federations

#: The state of a confirmed upload whose tournament a re-upload replaced (beside ``ResultUpload.Status``).
SUPERSEDED = "superseded"


def upload_organisers(user) -> dict[Federation, list[tuple[str, str, object]]]:
    """For each federation, the organisers ``user`` may upload for: ``(value, label, object)``.

    Club directors get their clubs, region officers their regions (and the circles inside a district),
    the secretariat every club and region of its federation and the federation itself.
    """
    result: dict[Federation, list[tuple[str, str, object]]] = {}
    if not user.is_authenticated:
        return result
    offices = Officer.objects.filter(user=user).select_related("federation", "club", "region")
    federations = {o.federation for o in offices}
    # HBS rule 10 (H-26): "Te rezultate prijavljuje voditelj": a licensed internet director reports without an office.
    licensed = set(licensed_federations(user))
    federations |= licensed
    if user.is_superuser:
        federations = set(Federation.objects.all())
    for federation in sorted(federations, key=lambda f: f.name):
        staff = user.is_superuser or any(o.role == "secretariat" and o.federation == federation for o in offices)
        if staff:
            clubs = Club.objects.filter(federation=federation, active=True)
            regions = Region.objects.filter(federation=federation)
        else:
            clubs = Club.objects.filter(
                pk__in=[o.club_id for o in offices if o.role == "club_director" and o.federation == federation]
            )
            own = [o.region_id for o in offices if o.role == "region_officer" and o.federation == federation]
            regions = Region.objects.filter(pk__in=own) | Region.objects.filter(parent_id__in=own)
        choices = [(f"club:{c.pk}", str(c), c) for c in clubs.order_by("name")]
        choices += [(f"region:{r.pk}", str(r), r) for r in regions.order_by("name")]
        if staff:
            choices.append((f"federation:{federation.pk}", str(federation), federation))
        elif federation in licensed:
            label = _("%(federation)s: an internet tournament under my licence (rule 10)") % {"federation": federation}
            choices.append((f"federation:{federation.pk}", label, federation))
        if choices:
            result[federation] = choices
    return result


def organiser_playing_times(choices: list[tuple[str, str, object]]) -> list[PlayingTime]:
    """The active playing times of the clubs among ``choices`` (those of :func:`upload_organisers`), by club,
    weekday and part of day: what the upload offers for the tournament's playing time (§ 452A)."""
    clubs = [obj for value, _label, obj in choices if value.startswith("club:")]
    return list(
        PlayingTime.objects.filter(club__in=clubs, active=True)
        .select_related("club")
        .order_by("club__name", "weekday", "part_of_day")
    )


def upload_playing_times(upload) -> list[PlayingTime]:
    """The playing times an upload's tournament may be given (§ 452A): the organising club's active ones,
    and the one already chosen when it has since been made inactive."""
    if upload.club_id is None:
        return []
    chosen = str(upload.facts.get("playing_time") or "")
    found = PlayingTime.objects.filter(club_id=upload.club_id).select_related("club")
    return [pt for pt in found.order_by("weekday", "part_of_day") if pt.active or str(pt.pk) == chosen]


def uploads_list(*, user, club: Club | None = None):
    """The uploads of "My uploads": those ``user`` uploaded, or with ``club`` every upload of that
    club (the caller checks the user may act for it), newest first, each with its ``state``: awaiting
    confirmation, confirmed, superseded (confirmed, then replaced by a re-upload) or discarded.

    D-Q41: "my uploads" are those the user uploaded (whoever's club); a club's list holds every upload for the
    club, whoever uploaded it; an upload for a region or the federation is only in its uploader's list."""
    found = (
        ResultUpload.objects.filter(club=club) if club is not None else ResultUpload.objects.filter(uploaded_by=user)
    )
    superseded = Q(status=ResultUpload.Status.CONFIRMED, tournament__is_current=False)
    return (
        found.select_related("federation", "club", "region", "tournament")
        .annotate(state=Case(When(superseded, then=Value(SUPERSEDED)), default=F("status")))
        .order_by("-created_at", "-pk")
    )
