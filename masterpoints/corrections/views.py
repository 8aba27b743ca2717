"""Correction request pages: file one, follow one's own, download its document (never rendered).

The commission's queue, assignment and decisions are in the admin (``masterpoints.admin``).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from federation.models import Federation, Player
from masterpoints.corrections.forms import CorrectionRequestForm
from masterpoints.corrections.services import correction_request_file, may_see
from masterpoints.models import Award, CorrectionRequest
from office.access import clubs_for
from tournaments.models import Tournament

#: How many recent awards and tournaments the filing form offers.
CHOICES_LIMIT = 200
#: The service's refusals that concern the attached document: shown at the document field.
DOCUMENT_REFUSALS = frozenset({"DOCUMENT_REQUIRED", "DOCUMENT_TOO_LARGE", "DOCUMENT_TYPE"})


def _correction_for(request, pk: int) -> CorrectionRequest:
    """The one access check for a request: the requester, the player, the organising club's directors, the
    commission and the secretariat."""
    correction = get_object_or_404(
        CorrectionRequest.objects.select_related("player", "tournament__club", "award", "federation"), pk=pk
    )
    if not may_see(request.user, correction):
        raise PermissionDenied(_("This correction request concerns another player: you may not see it."))
    return correction


def _own_player(user) -> Player | None:
    return Player.objects.filter(user=user).first()


def _document_rule(player: Player | None, clubs) -> str:
    """The rule that asks the user's requests for documents (HBS transition rule 6, H-14), "" if none: of the
    player's federation, else of the directed clubs' federations."""
    federations = [player.federation] if player is not None else []
    federations += Federation.objects.filter(pk__in=clubs.values("federation")).order_by("pk")
    rules = (federation.scheme_info.correction_document_rule for federation in federations)
    return next((rule for rule in rules if rule), "")


@login_required
def correction_list(request):
    """The user's own requests, those about them, and those about their clubs' tournaments."""
    user = request.user
    requests = CorrectionRequest.objects.filter(
        Q(requested_by=user) | Q(player__user=user) | Q(tournament__club__in=clubs_for(user))
    ).select_related("player", "tournament")
    return render(request, "masterpoints/correctionrequest_list.html", {"corrections": requests.distinct()})


@login_required
def correction_new(request):
    """A player asks for a correction of their own points; a director for a player of their club's tournament."""
    user = request.user
    player = _own_player(user)
    clubs = clubs_for(user)
    if player is None and not clubs.exists():
        raise PermissionDenied(_("Only players and club directors ask for corrections."))
    awards = Award.objects.none()
    tournaments = Tournament.objects.none()
    if player is not None:
        awards = Award.objects.filter(player=player, source=Award.Source.RESULT).select_related("tournament")
        tournaments = Tournament.objects.filter(
            Q(awards__player=player) | Q(groups__entries__participations__player=player)
        )
    if clubs.exists():
        tournaments = tournaments | Tournament.objects.filter(club__in=clubs)
    document_rule = _document_rule(player, clubs)
    tournament_ids = list(
        tournaments.current().order_by("-date").values_list("pk", flat=True).distinct()[:CHOICES_LIMIT]
    )
    form = CorrectionRequestForm(
        request.POST or None,
        request.FILES or None,
        awards=Award.objects.filter(
            pk__in=list(awards.order_by("-awarded_on").values_list("pk", flat=True)[:CHOICES_LIMIT])
        )
        .select_related("tournament")
        .order_by("-awarded_on"),
        tournaments=Tournament.objects.filter(pk__in=tournament_ids).order_by("-date"),
        for_others=clubs.exists(),
        document_rule=document_rule,
        initial={"tournament": request.GET.get("tournament"), "award": request.GET.get("award")},
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        target = player
        if data.get("player_number"):
            federation = (data["award"] or data["tournament"]).federation
            target = Player.objects.filter(federation=federation, number=data["player_number"].strip()).first()
            if target is None:
                form.add_error("player_number", _("No player has this number in the federation."))
        if target is None and not form.errors:
            form.add_error("player_number", _("Give the registration number of the player concerned."))
        if not form.errors:
            try:
                correction = correction_request_file(
                    actor=user,
                    player=target,
                    text=data["text"],
                    tournament=data.get("tournament"),
                    award=data.get("award"),
                    document=data.get("document"),
                )
            except ValidationError as error:
                form.add_error("document" if error.code in DOCUMENT_REFUSALS else None, error)
            else:
                messages.success(request, _("Your request was filed; the commission decides it."))
                return redirect(correction)
    return render(request, "masterpoints/correctionrequest_form.html", {"form": form, "document_rule": document_rule})


@login_required
def correction_detail(request, pk: int):
    correction = _correction_for(request, pk)
    entries = Award.objects.filter(correction=correction).order_by("pk")
    return render(request, "masterpoints/correctionrequest_detail.html", {"correction": correction, "entries": entries})


@login_required
def correction_document(request, pk: int):
    """The attached document as a download (``Content-Disposition: attachment``), never shown inline."""
    correction = _correction_for(request, pk)
    if not correction.document:
        raise Http404
    response = FileResponse(
        correction.document.open("rb"),
        as_attachment=True,
        filename=correction.document_name or "document",
        content_type="application/octet-stream",
    )
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    return response
