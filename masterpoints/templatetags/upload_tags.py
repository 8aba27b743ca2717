"""``{% load upload_tags %}``, then ``{% if user|may_upload %}``: whether the header offers "Upload results"
(issue 19): club directors, region officers and the secretariat upload (``uploads.views.upload``)."""

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
