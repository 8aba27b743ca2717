"""The office entry page (§ 451A): the secretariat enters a tournament form no upload reaches; the preview and
the confirm are the upload's own (``uploads:preview``)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from masterpoints.office_entry.forms import OfficeAwardForm
from masterpoints.office_entry.selectors import office_entry_federations
from masterpoints.office_entry.services import office_award_create

#: The facts each way of entering keeps besides the ranking (the rest of the form does not apply to it).
FACTS = {
    "pairs": ("participants", "boards"),
    "teams": ("participants", "boards", "level", "parallel_rows", "no_bonus", "team_boards"),
    "cup": ("participants", "boards"),
}


@login_required
def office_award_new(request):
    """Enter an award by its form, facts and ranking; on success, the upload's preview of it."""
    federations = office_entry_federations(request.user)
    if not federations:
        raise PermissionDenied(_("Only the secretariat enters awards by the office (§ 451A)."))
    wanted = request.GET.get("federation") or ""
    federation = next((f for f in federations if str(f.pk) == wanted), federations[0])
    form = OfficeAwardForm(request.POST or None, federation=federation)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        chosen = data["chosen"]
        created = office_award_create(
            actor=request.user,
            federation=federation,
            form=chosen,
            name=data["name"],
            day=data["date"],
            facts={name: data.get(name) for name in FACTS[chosen.entry]},
            lines=data["lines"],
            players=data["players"],
        )
        return redirect("uploads:preview", created.pk)
    context = {"form": form, "federation": federation, "federations": federations}
    return render(request, "masterpoints/office_entry/award_form.html", context)
