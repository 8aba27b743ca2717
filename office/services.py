"""Writes of offices: appointing and ending them, and the API tokens of clubs and regions, each audited in the
same transaction."""

from __future__ import annotations

import secrets

from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club
from federation.models import Federation, Region
from federation.services import audit_record
from office.access import (
    COMMISSION_GROUP,
    SECRETARIAT_GROUP,
    can_act_for_club,
    can_act_for_region,
    may_appoint,
    token_maker_may_act,
)
from office.models import ApiToken, Officer

_STAFF_GROUPS = {Officer.Role.SECRETARIAT: SECRETARIAT_GROUP, Officer.Role.COMMISSION: COMMISSION_GROUP}


@transaction.atomic
def officer_assign(
    *,
    actor,
    user,
    role: str,
    federation: Federation,
    club: Club | None = None,
    region: Region | None = None,
) -> Officer:
    """Give ``user`` an office. Secretariat and commission members get admin access through their group;
    club directors and region officers never do (they use the site's own pages). Only the federation's own
    secretariat (or a superuser) appoints; ``actor=None`` is the office's own code (the demo, migrations)."""
    if actor is not None and not may_appoint(actor, federation):
        raise PermissionDenied(
            _("Only the secretariat of %(federation)s appoints its officers.") % {"federation": federation}
        )
    officer, _created = Officer.objects.get_or_create(
        user=user, role=role, federation=federation, club=club, region=region
    )
    group_name = _STAFF_GROUPS.get(role)
    if group_name:
        user.groups.add(Group.objects.get_or_create(name=group_name)[0])
        if not user.is_staff:
            user.is_staff = True
            user.save(update_fields=["is_staff"])
    audit_record(
        actor=actor,
        action="officer.assign",
        target=officer,
        payload={
            "user": user.get_username(),
            "role": role,
            "club": club and club.number,
            "region": region and region.code,
        },
    )
    return officer


@transaction.atomic
def officer_revoke(*, actor, officer: Officer) -> None:
    """End an office; a user left without any staff office loses admin access."""
    user = officer.user
    payload = {"user": user.get_username(), "role": officer.role}
    audit_record(actor=actor, action="officer.revoke", target=officer, payload=payload)
    group_name = _STAFF_GROUPS.get(officer.role)
    officer.delete()
    if group_name and not Officer.objects.filter(user=user, role=officer.role).exists():
        user.groups.remove(*Group.objects.filter(name=group_name))
    if not user.is_superuser and not Officer.objects.filter(user=user, role__in=list(_STAFF_GROUPS)).exists():
        user.is_staff = False
        user.save(update_fields=["is_staff"])
    _revoke_tokens_of_ended_office(actor=actor, user=user, federation=officer.federation)


def _revoke_tokens_of_ended_office(*, actor, user, federation: Federation) -> None:
    """The API tokens ``user`` made in ``federation`` for clubs or regions they may no longer act for are
    revoked with the office's end, each audited (``reason: office_ended``)."""
    tokens = ApiToken.objects.active().filter(created_by=user, federation=federation)
    now = timezone.now()
    for token in tokens.select_related("club", "region", "created_by").select_for_update(of=("self",)):
        if token_maker_may_act(token):
            continue
        token.revoked_at, token.revoked_by = now, actor if actor is not None and actor.is_authenticated else None
        token.save(update_fields=["revoked_at", "revoked_by"])
        payload = {"prefix": token.prefix, "reason": "office_ended", "maker": user.get_username()}
        audit_record(actor=actor, action="api.token.revoke", target=token, payload=payload)


# --- API tokens of clubs and regions -------------------------------------------------------------------------

#: Every secret starts so (a scanner of leaked secrets can recognise one); the rest is 32 random bytes.
TOKEN_START = "mpo_"  # noqa: S105 - a public marker, not a secret
#: Characters of the secret kept in the clear to tell tokens apart on the office page.
TOKEN_PREFIX_LENGTH = 12
#: Tokens that may be active at once for one club or region (a bound on what one organiser keeps open).
TOKENS_PER_ORGANISER = 10


def _check_may_hold(actor, club: Club | None, region: Region | None) -> None:
    """Only an officer who may upload for the club or region (``masterpoints.uploads.services.check_organiser``
    asks the same) may make or revoke its tokens."""
    if club is not None:
        allowed = can_act_for_club(actor, club)
    else:
        allowed = region is not None and can_act_for_region(actor, region)
    if not allowed:
        raise PermissionDenied(
            _("Only officers who may upload results for %(organiser)s manage its API tokens.")
            % {"organiser": club or region}
        )


@transaction.atomic
def api_token_create(*, actor, name: str, club: Club | None = None, region: Region | None = None):
    """Make a token for ``club`` or ``region``; return it with its secret, which is never stored and never
    shown again (only its digest is kept). At most :data:`TOKENS_PER_ORGANISER` active per organiser."""
    _check_may_hold(actor, club, region)
    organiser = club or region
    active = ApiToken.objects.active().filter(club=club, region=region).count()
    if active >= TOKENS_PER_ORGANISER:
        raise ValidationError(
            _("%(organiser)s has %(count)s active API tokens, the most allowed: revoke one first."),
            code="TOKENS_TOO_MANY",
            params={"organiser": organiser, "count": active},
        )
    secret = TOKEN_START + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        federation_id=organiser.federation_id,
        club=club,
        region=region,
        name=name.strip()[:100],
        prefix=secret[:TOKEN_PREFIX_LENGTH],
        digest=ApiToken.digest_of(secret),
        created_by=actor,
    )
    audit_record(actor=actor, action="api.token.create", target=token, payload={"prefix": token.prefix})
    return token, secret


@transaction.atomic
def api_token_revoke(*, actor, token: ApiToken) -> None:
    """Revoke a token for good: every later call with it is refused."""
    token = ApiToken.objects.select_for_update(of=("self",)).select_related("club", "region").get(pk=token.pk)
    _check_may_hold(actor, token.club, token.region)
    if token.revoked_at is not None:
        return
    token.revoked_at = timezone.now()
    token.revoked_by = actor
    token.save(update_fields=["revoked_at", "revoked_by"])
    audit_record(actor=actor, action="api.token.revoke", target=token, payload={"prefix": token.prefix})


def api_token_used(*, token: ApiToken) -> None:
    """Record the token's last use (a single UPDATE of a derived value; the call itself is audited)."""
    now = timezone.now()
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    token.last_used_at = now
