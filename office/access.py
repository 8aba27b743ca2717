"""Staff roles as Django groups with admin permissions, and who may act for which club or region.

Secretariat and commission members work in the admin (``is_staff`` plus their group's permissions);
club directors and region officers use the site's own pages and never get admin access.
Every view that acts for a club or region asks one of the ``can_…`` helpers below; every admin page asks
:func:`admin_scope` which federations its user reaches (``federation.admin_base.FederationScopedAdmin``).
"""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission

from clubs.models import Club
from federation.models import Federation
from office.models import Officer

SECRETARIAT_GROUP = "Secretariat"
COMMISSION_GROUP = "Commission"

#: Apps whose models the secretariat manages in full through the admin.
SECRETARIAT_APPS = ("federation", "clubs", "office", "tournaments", "masterpoints")
#: Models the commission may change (it decides correction requests); it may view everything else.
COMMISSION_CHANGES: tuple[str, ...] = ("correctionrequest",)
#: The audit log is append-only: nobody changes or deletes it, not even the secretariat.
READ_ONLY_MODELS = ("auditevent",)
#: The offices that work in the admin, each for its own federation only.
STAFF_ROLES: tuple[str, ...] = (Officer.Role.SECRETARIAT, Officer.Role.COMMISSION)


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


def token_maker_may_act(token) -> bool:
    """An API token acts only while the login that made it is active and may still act for the token's club
    or region (an ended office, a moved club or a deactivated login stops it at once)."""
    maker = token.created_by
    if not maker.is_active:
        return False
    return can_act_for_club(maker, token.club) if token.club_id else can_act_for_region(maker, token.region)


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


# --- the admin: which federations a member of staff serves ------------------------------------------------


def federations_served(user, *, roles: tuple[str, ...] = STAFF_ROLES):
    """The federations ``user`` serves as staff (secretariat or commission, or the ``roles`` given): every
    federation for a superuser, none for anyone without such an office."""
    if not user.is_authenticated:
        return Federation.objects.none()
    if user.is_superuser:
        return Federation.objects.all()
    return Federation.objects.filter(officers__user=user, officers__role__in=roles).distinct()


def admin_scope(user, action: str, model_name: str) -> frozenset[int] | None:
    """The ids of the federations in which ``user`` may ``action`` (``view``, ``add``, ``change``,
    ``delete``) rows of the model ``model_name`` in the admin; ``None`` means every federation (a superuser).

    Viewing is for the federations served as secretariat or commission; writing is the secretariat's, of
    its own federation only; the commission changes only the models of :data:`COMMISSION_CHANGES` (it
    decides correction requests), and nobody writes the models of :data:`READ_ONLY_MODELS`. The Django
    permissions of the user's groups are asked as well, by the admin itself: both must agree.
    """
    if user.is_authenticated and user.is_superuser:
        return None
    if action != "view" and model_name in READ_ONLY_MODELS:
        return frozenset()
    if action == "view" or (action == "change" and model_name in COMMISSION_CHANGES):
        roles = STAFF_ROLES
    else:
        roles = (Officer.Role.SECRETARIAT,)
    return frozenset(federations_served(user, roles=roles).values_list("pk", flat=True))


def may_appoint(user, federation) -> bool:
    """Who may appoint officers of ``federation``: its own secretariat (or a superuser); the commission and
    the secretariat of another federation never (nobody grants themselves an office elsewhere)."""
    return federation is not None and is_secretariat(user, federation)
