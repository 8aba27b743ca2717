"""My page (a player's login: their public page, their correction requests, their notices) and the one-click
unsubscribe link of the monthly statement."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from masterpoints.notices.forms import NoticePreferenceForm
from masterpoints.notices.selectors import corrections_of, player_of, wants_statement
from masterpoints.notices.services import notice_preference_set, player_for_unsubscribe


def _own_player(request):
    """The one access check of My page: a login linked to a player (``Player.user``)."""
    player = player_of(request.user)
    if player is None:
        raise PermissionDenied(_("My page is for players: this login is not linked to a player."))
    return player


@login_required
def account(request):
    player = _own_player(request)
    context = {
        "player": player,
        "corrections": corrections_of(player),
        "form": NoticePreferenceForm(initial={"monthly_statement": wants_statement(player)}),
        "address": player.email or request.user.email,
    }
    return render(request, "masterpoints/notices/account.html", context)


@login_required
@require_POST
def preference(request):
    """The player's choice of the monthly statement, from My page or from their public page (``back=player``:
    the answer is that page again, never an address the request names)."""
    player = _own_player(request)
    form = NoticePreferenceForm(request.POST)
    form.is_valid()  # one check box: absent is off
    on = bool(form.cleaned_data.get("monthly_statement"))
    notice_preference_set(actor=request.user, player=player, monthly_statement=on)
    if on:
        messages.success(request, _("You will get the monthly statement by e-mail."))
    else:
        messages.success(request, _("You will no longer get the monthly statement."))
    if request.POST.get("back") == "player":
        return redirect("public:player", player.federation.code, player.number)
    return redirect("notices:account")


# The signed token is the credential, and a mail program's one-click POST (RFC 8058) carries no CSRF token.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token: str):
    """GET: a page asking to confirm; POST (the page's button, or a mail program's one-click, RFC 8058):
    the monthly statement is turned off. No login needed; a forged token is refused (status 400)."""
    try:
        player = player_for_unsubscribe(token)
    except ValidationError as error:
        return render(request, "masterpoints/notices/unsubscribe.html", {"error": error}, status=400)
    if request.method == "POST":
        notice_preference_set(actor=None, player=player, monthly_statement=False)
        return render(request, "masterpoints/notices/unsubscribe.html", {"done": True, "player": player})
    return render(request, "masterpoints/notices/unsubscribe.html", {"player": player, "token": token})
