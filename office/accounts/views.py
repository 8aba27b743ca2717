"""The login pages: the password reset request (rate-limited, mailed through the outbox) and a player's own
login: asking for the link, and following it (``office.accounts.services``)."""

from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth.views import PasswordResetView
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from django_ratelimit.core import is_ratelimited

from office.accounts.forms import OutboxPasswordResetForm, PlayerLoginRequestForm, PlayerLoginSetForm
from office.accounts.services import LINK_MAX_AGE, player_for_token, player_login_create, player_login_request

#: Requests (password reset, player login) one address may send, and requests about one e-mail address from
#: anywhere: enough for a typo or two, too few to flood a mailbox or to try many numbers.
RATE_PER_ADDRESS = "10/h"
RATE_PER_EMAIL = "3/h"


def _email_key(_group, request) -> str:
    return request.POST.get("email", "").strip().lower()[:254]


def _limited(request, group: str) -> str | None:
    """The rate a POST exceeds (counted per client address and per e-mail address asked about), or ``None``."""
    if request.method != "POST":
        return None
    for key, rate in (("ip", RATE_PER_ADDRESS), (_email_key, RATE_PER_EMAIL)):
        if is_ratelimited(
            request, group=f"{group}.{'ip' if key == 'ip' else 'email'}", key=key, rate=rate, increment=True
        ):
            return rate
    return None


def _too_many(request, rate: str):
    message = _("Too many requests from here or about this address: at most %(rate)s. Try again later.")
    return render(request, "registration/rate_limited.html", {"message": message % {"rate": rate}}, status=429)


def site_of(request) -> str:
    """The scheme and host the request came to: the start of every link a mail of it carries."""
    return request.build_absolute_uri("/").rstrip("/")


_reset_view = PasswordResetView.as_view(
    form_class=OutboxPasswordResetForm,
    email_template_name="registration/password_reset_email.txt",
    subject_template_name="registration/password_reset_subject.txt",
)


@require_http_methods(["GET", "POST"])
def password_reset(request):
    """Django's password reset request, rate-limited; the answer is the same page whether or not an account
    has the address (Django's own behaviour), and the mail goes through the outbox."""
    rate = _limited(request, "accounts.password_reset")
    if rate:
        return _too_many(request, rate)
    return _reset_view(request)


@require_http_methods(["GET", "POST"])
def player_login_ask(request):
    """A player asks for a login with their registration number and the register's address; the next page
    is the same whether or not they matched."""
    form = PlayerLoginRequestForm(request.POST or None)
    if request.method == "POST":
        rate = _limited(request, "accounts.player_login")
        if rate:
            return _too_many(request, rate)
        if form.is_valid():
            player_login_request(
                number=form.cleaned_data["number"], email=form.cleaned_data["email"], site=site_of(request)
            )
            return redirect("accounts:player_login_sent")
    return render(request, "office/player_login_request.html", {"form": form})


def player_login_sent(request):
    return render(request, "office/player_login_sent.html", {"days": LINK_MAX_AGE.days})


@require_http_methods(["GET", "POST"])
def player_login_set(request, token: str):
    """Behind the mailed link: choose a username and a password; the login is linked to the player and used
    at once. A forged, expired or used link is refused with its reason (status 400)."""
    try:
        player = player_for_token(token)
    except ValidationError as error:
        return render(request, "office/player_login_refused.html", {"error": error}, status=400)
    form = PlayerLoginSetForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = player_login_create(
                token=token, username=form.cleaned_data["username"], password=form.cleaned_data["password1"]
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect("notices:account")
    return render(request, "office/player_login_set.html", {"form": form, "player": player})
