"""Writes of offices: appointing and ending them, each audited in the same transaction."""

from __future__ import annotations

from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Club
from federation.models import Federation, Region
from federation.services import audit_record
from office.access import COMMISSION_GROUP, SECRETARIAT_GROUP, may_appoint
from office.models import Officer

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
