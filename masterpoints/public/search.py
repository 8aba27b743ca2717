"""``/players/?q=``: "find a player" across the federations, the home page's search box (no login).

The name is folded as on the rankings (:func:`masterpoints.public.selectors.matching`): "Jorgen" finds
"Jørgen", "Dordevic" finds "Đorđević". A player who hides their name is found by number only and listed by
number, unless the viewer is the secretariat of their federation.
"""

from __future__ import annotations

from django import forms
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from masterpoints.public import selectors
from masterpoints.public.tables import shown_name


class PlayerSearchForm(forms.Form):
    q = forms.CharField(
        label=_("Name or number"),
        max_length=100,
        required=False,
        widget=forms.TextInput(attrs={"type": "search", "autocomplete": "off"}),
    )


@require_GET
def player_search(request):
    form = PlayerSearchForm(request.GET)
    text = form.cleaned_data["q"].strip() if form.is_valid() else ""
    rows = []
    if text:
        players, seeing = selectors.players_found(text, user=request.user)
        rows = [{"player": player, "name": shown_name(player, player.federation_id in seeing)} for player in players]
    context = {"form": form, "text": text, "rows": rows, "more": len(rows) >= selectors.FOUND_MAX}
    return render(request, "masterpoints/player_search.html", context, status=200 if form.is_valid() else 400)
