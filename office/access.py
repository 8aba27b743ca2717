"""Staff roles as Django groups with admin permissions, and who may act for which club or region.

Secretariat and commission members work in the admin (``is_staff`` plus their group's permissions);
club directors and region officers use the site's own pages and never get admin access.
Every view that acts for a club or region asks one of the ``can_…`` helpers below.
"""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission

from clubs.models import Club
from office.models import Officer

SECRETARIAT_GROUP = "Secretariat"
COMMISSION_GROUP = "Commission"

#: Apps whose models the secretariat manages in full through the admin.
SECRETARIAT_APPS = ("federation", "clubs", "office", "tournaments", "masterpoints")
#: Models the commission may change (it decides correction requests); it may view everything else.
COMMISSION_CHANGES: tuple[str, ...] = ("correctionrequest",)
#: The audit log is append-only: nobody changes or deletes it, not even the secretariat.
READ_ONLY_MODELS = ("auditevent",)


def sync_groups(**_kwargs) -> None:
    """Create or refresh the staff groups' permissions (run after every migrate)."""
    perms = Permission.objects.filter(content_type__app_label__in=SECRETARIAT_APPS).select_related("content_type")
    secretariat, commission = [], []
    for perm in perms:
        action = perm.codename.split("_", 1)[0]
        model = perm.content_type.model
        if model in READ_ONLY_MODELS and action != "view":
            continue
        secretariat.append(perm)
        if action == "view" or model in COMMISSION_CHANGES:
            commission.append(perm)
    Group.objects.get_or_create(name=SECRETARIAT_GROUP)[0].permissions.set(secretariat)
    Group.objects.get_or_create(name=COMMISSION_GROUP)[0].permissions.set(commission)


def offices_of(user):
    """The offices ``user`` holds, with what each serves, in role order."""
    return Officer.objects.filter(user=user).select_related("federation", "club", "region").order_by("role")


def _offices(user):
    if not user.is_authenticated:
        return None
    return Officer.objects.filter(user=user)


def is_secretariat(user, federation) -> bool:
    """The secretariat of ``federation`` (or a superuser) may act for everything in it."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return _offices(user).filter(role="secretariat", federation=federation).exists()


def can_act_for_club(user, club) -> bool:
    """A club's own directors, and its federation's secretariat."""
    if is_secretariat(user, club.federation_id and club.federation):
        return True
    offices = _offices(user)
    return offices is not None and offices.filter(role="club_director", club=club).exists()


def can_act_for_region(user, region) -> bool:
    """The officers of the region or of the district that contains it, and the secretariat."""
    if is_secretariat(user, region.federation):
        return True
    offices = _offices(user)
    if offices is None:
        return False
    regions = [region.pk] + ([region.parent_id] if region.parent_id else [])
    return offices.filter(role="region_officer", region_id__in=regions).exists()


def clubs_for(user):
    """The clubs ``user`` may act for (their own as director; all of the federation for the secretariat)."""
    offices = _offices(user)
    if offices is None:
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.all()
    staff_feds = offices.filter(role="secretariat").values("federation")
    directed = offices.filter(role="club_director").values("club")
    return Club.objects.filter(federation__in=staff_feds) | Club.objects.filter(pk__in=directed)
