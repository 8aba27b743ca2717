"""The admin's second factor (django-otp TOTP devices): enrolling, verifying a session, and the secretariat's
reset of a lost one. Every write is audited in its transaction.

What keeps a password alone from reaching the admin (``ADMIN_REQUIRE_OTP``):

- A session is verified (``user.is_verified()``) only by a token of a device that was confirmed *before*
  the token was typed: confirming a new device never verifies the session that enrolled it.
- A login that already has a confirmed device enrols another only from a verified session; otherwise the
  only way is the secretariat's (or a superuser's) reset, :func:`second_factor_reset`, which is audited.
- The device waiting for its first token belongs to the session that made it: a pending device made in an
  other session (an attacker's, say, who knows the password) is dropped, never shown or confirmed here, so
  nobody can plant a secret they know for the owner to confirm.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _
from django_otp import devices_for_user, match_token
from django_otp.plugins.otp_totp.models import TOTPDevice

from federation.mail import notify
from federation.services import audit_record
from office.access import may_appoint
from office.models import Officer

#: The session key of the device this session is enrolling.
PENDING_KEY = "office.second_factor.pending"


def has_confirmed_device(user) -> bool:
    return any(True for _device in devices_for_user(user, confirmed=True))


def pending_device(session, user) -> TOTPDevice:
    """The TOTP device this session is enrolling: made on the first visit, kept by its id in the session.
    Unconfirmed devices of the user that this session did not make are deleted."""
    device = TOTPDevice.objects.filter(user=user, confirmed=False, pk=session.get(PENDING_KEY)).first()
    TOTPDevice.objects.filter(user=user, confirmed=False).exclude(pk=getattr(device, "pk", None)).delete()
    if device is None:
        device = TOTPDevice.objects.create(user=user, name=_("Authenticator app"), confirmed=False)
        session[PENDING_KEY] = device.pk
    return device


@transaction.atomic
def second_factor_confirm(*, user, session, token: str) -> bool:
    """Confirm this session's pending device with its first ``token``; audited, and the owner is told by
    mail (a device they did not add is something to report). Allowed while the user has no confirmed device,
    or from a session verified by one (the caller checks :func:`may_enrol`). The session stays as verified
    as it was."""
    device = TOTPDevice.objects.select_for_update().filter(user=user, confirmed=False, pk=session.get(PENDING_KEY))
    device = device.first()
    if device is None or not token.isdecimal() or not device.verify_token(token):
        return False
    device.confirmed = True
    device.save(update_fields=["confirmed"])
    session.pop(PENDING_KEY, None)
    audit_record(actor=user, action="second_factor.enrol", target=user, payload={"device": device.pk})
    if user.email:
        notify(template="second_factor_enrolled", to=[user.email], language=None, context={"user": user})
    return True


def may_enrol(request) -> bool:
    """A new device: while the login has none confirmed, or from a session verified by one of them."""
    return request.user.is_verified() or not has_confirmed_device(request.user)


def second_factor_verify(*, user, token: str):
    """The confirmed device whose current token ``token`` is, or ``None`` (django-otp's ``match_token``)."""
    if not token.isdecimal():
        return None
    return match_token(user, token)


def may_reset(actor, user) -> bool:
    """The secretariat resets the second factor of logins that serve its federation only (every office the
    login holds is in a federation the actor appoints for); a superuser's only a superuser resets."""
    if actor.is_superuser:
        return True
    if user.is_superuser or user.pk == actor.pk:
        return False
    offices = list(Officer.objects.filter(user=user).select_related("federation"))
    return bool(offices) and all(may_appoint(actor, office.federation) for office in offices)


@transaction.atomic
def second_factor_reset(*, actor, user) -> int:
    """Delete every second-factor device of ``user`` (a lost phone), audited, so that they enrol anew with
    their password; returns how many were deleted. Refused unless :func:`may_reset`."""
    if not may_reset(actor, user):
        raise PermissionDenied(
            _("Only the secretariat of every federation %(user)s serves, or a superuser, resets their second factor.")
            % {"user": user.get_username()}
        )
    devices = list(devices_for_user(user, confirmed=None))
    for device in devices:
        device.delete()
    audit_record(
        actor=actor,
        action="second_factor.reset",
        target=user,
        payload={"devices": [f"{device._meta.label_lower}:{device.pk}" for device in devices]},
    )
    return len(devices)
