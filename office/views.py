"""The officers' own pages: "My office", the API tokens of their clubs and regions, and enrolling a second
factor for the admin."""

import io
from base64 import b32encode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from django_otp import login as otp_login
from django_otp.qr import write_qrcode_image

from office.access import offices_of
from office.forms import ApiTokenForm
from office.models import Officer
from office.second_factor import (
    has_confirmed_device,
    may_enrol,
    pending_device,
    second_factor_confirm,
    second_factor_verify,
)
from office.selectors import token_organisers, tokens_managed
from office.services import api_token_create, api_token_revoke

#: Offices whose holders may enrol a second factor (club directors work on the site's pages only).
SECOND_FACTOR_ROLES = ("secretariat", "commission", "region_officer")


@login_required
def office(request):
    """What the logged-in person may act for: their clubs, regions and staff roles."""
    offices = offices_of(request.user)
    can_upload = any(office.role != Officer.Role.COMMISSION for office in offices) or request.user.is_superuser
    return render(request, "office/office.html", {"offices": offices, "can_upload": can_upload})


@never_cache  # the page that shows a new secret is never kept by a cache
@login_required
def api_tokens(request):
    """The API tokens of the clubs and regions the officer uploads for: make one (its secret is shown on this
    answer only), see each one's last use and who made it, revoke one."""
    organisers = token_organisers(request.user)
    if not organisers:
        raise PermissionDenied(_("Only officers who upload results for a club or region manage API tokens."))
    form = ApiTokenForm(request.POST or None, organisers=organisers)
    created = None
    if request.method == "POST" and form.is_valid():
        try:
            created = api_token_create(actor=request.user, name=form.cleaned_data["name"], **form.chosen())
        except ValidationError as error:
            form.add_error(None, error)
        else:
            form = ApiTokenForm(organisers=organisers)
    context = {"form": form, "tokens": tokens_managed(organisers), "created": created}
    return render(request, "office/apitoken_list.html", context)


@login_required
@require_POST
def api_token_revoke_view(request, pk: int):
    token = get_object_or_404(tokens_managed(token_organisers(request.user)), pk=pk)
    api_token_revoke(actor=request.user, token=token)
    message = _("The token %(prefix)s… is revoked; calls with it are refused.") % {"prefix": token.prefix}
    messages.success(request, message)
    return redirect("office:api_tokens")


def _may_hold_second_factor(user) -> bool:
    """Staff, and every officer who works for a region or the whole federation, may have a second factor."""
    return user.is_staff or offices_of(user).filter(role__in=SECOND_FACTOR_ROLES).exists()


@never_cache  # the page shows a secret key
@login_required
def second_factor(request):
    """The second factor (``office.second_factor``). A login with a confirmed device whose session is not
    verified types a token of that device first (this verifies the session, as the admin's login does);
    a session that may enrol scans the code and types the first token of the new device, which confirms
    it without verifying the session."""
    if not _may_hold_second_factor(request.user):
        raise PermissionDenied(_("A second factor is for the secretariat, the commission and region officers."))
    token = request.POST.get("token", "").strip()[:12]
    if not may_enrol(request):
        if request.method == "POST":
            device = second_factor_verify(user=request.user, token=token)
            if device is not None:
                otp_login(request, device)
                messages.success(request, _("This session is verified with your authenticator."))
                return redirect("office:second_factor")
            messages.error(request, _("That token is not one your enrolled authenticator shows now."))
        return render(request, "office/second_factor_verify.html")
    if request.method == "POST":
        if second_factor_confirm(user=request.user, session=request.session, token=token):
            if request.user.is_verified():
                messages.success(request, _("The authenticator is enrolled."))
            else:
                messages.success(
                    request,
                    _("The authenticator is enrolled. Verify this session with its next token to use the admin."),
                )
            return redirect("office:second_factor")
        messages.error(request, _("That token is not the one the app shows now; type the current six digits."))
    device = pending_device(request.session, request.user)
    context = {"confirmed": has_confirmed_device(request.user), "key": b32encode(device.bin_key).decode()}
    return render(request, "office/second_factor.html", context)


@never_cache
@login_required
def second_factor_qr(request):
    """The QR code of this session's pending device's ``otpauth://`` address, as SVG (an image the page links
    to); refused where the page would not offer enrolling."""
    if not _may_hold_second_factor(request.user) or not may_enrol(request):
        raise PermissionDenied
    out = io.BytesIO()
    write_qrcode_image(pending_device(request.session, request.user).config_url, out)
    return HttpResponse(out.getvalue(), content_type="image/svg+xml")
