"""``{% load upload_tags %}``, then ``{% if user|may_upload %}``: whether the header offers "Upload results":
club directors, region officers and the secretariat upload (``uploads.views.upload``)."""

from __future__ import annotations

from django import template

from office.models import Officer

register = template.Library()

#: The offices whose holders upload results (the commission decides corrections, it uploads none).
UPLOADING_ROLES = (Officer.Role.CLUB_DIRECTOR, Officer.Role.REGION_OFFICER, Officer.Role.SECRETARIAT)


@register.filter
def may_upload(user) -> bool:
    if not user.is_authenticated:
        return False
    return user.is_superuser or Officer.objects.filter(user=user, role__in=UPLOADING_ROLES).exists()


#: The offices that work with sanction applications on the site (the commission decides corrections only).
SANCTION_ROLES = (Officer.Role.CLUB_DIRECTOR, Officer.Role.REGION_OFFICER, Officer.Role.SECRETARIAT)


@register.simple_tag
def nav_for(user) -> dict[str, bool]:
    """What the header offers ``user`` (only what that user can use): ``office`` for an officer (a
    player without an office has none), ``sanctions`` for the directors, region officers and secretariat of
    a federation whose rule book has sanctions (DBf § 403), ``cups`` unless every federation the user belongs
    to (offices, player) is one without cup series (DBf § 451C; anonymous readers see it)."""
    if not user.is_authenticated:
        return {"office": False, "sanctions": False, "cups": True}
    if user.is_superuser:
        return {"office": True, "sanctions": True, "cups": True}
    offices = list(Officer.objects.filter(user=user).select_related("federation"))
    federations = {office.federation for office in offices if office.federation_id}
    player = getattr(user, "player", None)
    if player is not None:
        federations.add(player.federation)
    return {
        "office": bool(offices),
        "sanctions": any(o.role in SANCTION_ROLES and o.federation.scheme_info.sanctions for o in offices),
        "cups": not federations or any(federation.scheme_info.cups for federation in federations),
    }


@register.filter
def group_label(group: str) -> str:
    """A group as the office reads it: empty where the file named none (``-/-/-`` is section, direction and
    row all unnamed)."""
    text = (group or "").strip()
    return "" if not text.strip("-/ ") else text
