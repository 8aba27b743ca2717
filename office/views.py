"""The officers' own pages: "My office", and enrolling a second factor for the admin."""

import io
from base64 import b32encode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django_otp import login as otp_login
from django_otp.plugins.otp_totp.models import TOTPDevice
from django_otp.qr import write_qrcode_image

from office.access import offices_of

#: Offices whose holders may enrol a second factor (club directors work on the site's pages only).
SECOND_FACTOR_ROLES = ("secretariat", "commission", "region_officer")


@login_required
def office(request):
    """What the logged-in person may act for: their clubs, regions and staff roles."""
    return render(request, "office/office.html", {"offices": offices_of(request.user)})


def _may_enrol(user) -> bool:
    """Staff, and every officer who works for a region or the whole federation, may add a second factor."""
    return user.is_staff or offices_of(user).filter(role__in=SECOND_FACTOR_ROLES).exists()


def _pending_device(user) -> TOTPDevice:
    """The user's TOTP device waiting for its first token (made on the first visit; one at a time)."""
    device = TOTPDevice.objects.filter(user=user, confirmed=False).order_by("-pk").first()
    return device or TOTPDevice.objects.create(user=user, name=str(_("Authenticator app")), confirmed=False)


@login_required
def second_factor(request):
    """Enrol a TOTP authenticator (django-otp): scan the code, type the first token, and the device is
    confirmed and this session verified (the admin asks for it with ``ADMIN_REQUIRE_OTP``)."""
    if not _may_enrol(request.user):
        raise PermissionDenied(_("A second factor is for the secretariat, the commission and region officers."))
    confirmed = TOTPDevice.objects.filter(user=request.user, confirmed=True).exists()
    device = _pending_device(request.user)
    if request.method == "POST":
        token = request.POST.get("token", "").strip()[:12]
        if token.isdecimal() and device.verify_token(token):
            device.confirmed = True
            device.save(update_fields=["confirmed"])
            otp_login(request, device)
            messages.success(request, _("The authenticator is enrolled; this session is verified."))
            return redirect("office:home")
        messages.error(request, _("That token is not the one the app shows now; type the current six digits."))
    context = {"device": device, "confirmed": confirmed, "key": b32encode(device.bin_key).decode()}
    return render(request, "office/second_factor.html", context)


@login_required
def second_factor_qr(request):
    """The QR code of the pending device's ``otpauth://`` address, as SVG (an image the page links to)."""
    if not _may_enrol(request.user):
        raise PermissionDenied
    out = io.BytesIO()
    write_qrcode_image(_pending_device(request.user).config_url, out)
    return HttpResponse(out.getvalue(), content_type="image/svg+xml")
