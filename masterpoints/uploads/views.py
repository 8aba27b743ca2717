"""The results upload (club directors, region officers, secretariat): upload, preview and resolve, discard,
confirm."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from masterpoints.uploads.forms import ConfirmForm, ResolutionForm, ResultUploadForm
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.selectors import upload_organisers
from masterpoints.uploads.services import (
    check_organiser,
    results_upload_confirm,
    results_upload_create,
    results_upload_discard,
    results_upload_resolve,
)
from tournaments.models import ResultUpload
from tournaments.recognised import listed_for, upload_kinds


@login_required
def upload(request):
    """Step 1: the file and the facts the rules need that no results file states."""
    organisers = upload_organisers(request.user)
    if not organisers:
        raise PermissionDenied(_("Only club directors, region officers and the secretariat upload results."))
    federation = next(iter(organisers))
    wanted = request.GET.get("federation")
    for candidate in organisers:
        if str(candidate.pk) == wanted:
            federation = candidate
    choices = organisers[federation]
    form = ResultUploadForm(
        request.POST or None,
        request.FILES or None,
        organisers=[(value, label) for value, label, _obj in choices],
        scheme=federation.scheme_info,
        recognised=listed_for(federation, timezone.localdate()),
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        organiser = next(obj for value, _label, obj in choices if value == data["organiser"])
        kind = data["organiser"].split(":", 1)[0]
        club = organiser if kind == "club" else None
        region = organiser if kind == "region" else None
        facts = {
            "organiser_kind": region.kind if region else kind,
            "category": data["category"],
            "form": data.get("event_form") or "",
            "boards": data.get("boards"),
        }
        if federation.scheme_info.recognised_list:  # HBS: S and the list of recognised tournaments (H-1, H-4)
            facts["strength"] = str(data["strength"]) if data.get("strength") is not None else ""
            facts["internet"] = data["internet"]
            if data.get("recognised"):
                facts.update(upload_kinds(data["recognised"]))  # H-1: kinds and S from the list
        else:  # DBf: the facts of § 405B5 (rows), § 405B6d (met), robots and the sanction's kind (§ 403)
            facts.update(split_by_strength=data["split_by_strength"], met=data.get("met"), robots=data["robots"])
            facts.update(special=data["special"], no_outside_entries_refused=data["no_outside_entries_refused"])
        file = data["file"]
        try:
            created = results_upload_create(
                actor=request.user,
                federation=federation,
                club=club,
                region=region,
                data=file.read(),
                filename=file.name,
                facts=facts,
            )
        except ValidationError as error:
            form.add_error("file", error)
        else:
            return redirect("uploads:preview", created.pk)
    return render(
        request,
        "masterpoints/uploads/upload_form.html",
        {"form": form, "federation": federation, "federations": list(organisers)},
    )


def _own_upload(request, pk: int) -> ResultUpload:
    upload = get_object_or_404(ResultUpload.objects.select_related("federation", "club", "region"), pk=pk)
    check_organiser(actor=request.user, federation=upload.federation, club=upload.club, region=upload.region)
    return upload


@login_required
def upload_preview(request, pk: int):
    """Step 2: what the file says, every issue, who gets what and why; resolve unknown players here."""
    upload = _own_upload(request, pk)
    if request.method == "POST":
        resolution = ResolutionForm(request.POST)
        if resolution.is_valid():
            try:
                results_upload_resolve(
                    actor=request.user,
                    upload=upload,
                    player_key=resolution.cleaned_data["player_key"],
                    resolution=resolution.cleaned_data["resolution"],
                    number=resolution.cleaned_data.get("number") or "",
                )
            except ValidationError as error:
                messages.error(request, " ".join(error.messages))
        else:
            messages.error(request, " ".join(str(e) for errors in resolution.errors.values() for e in errors))
        return redirect("uploads:preview", upload.pk)
    preview = build_preview(upload)
    unresolved = [
        (
            line,
            ResolutionForm(
                initial={"player_key": line.key, "number": line.id_in_file or ""}, auto_id=f"id_r{index}_%s"
            ),
        )
        for index, line in enumerate(preview.unresolved)
    ]
    return render(
        request,
        "masterpoints/uploads/upload_preview.html",
        {"upload": upload, "preview": preview, "unresolved": unresolved, "confirm_form": ConfirmForm()},
    )


@login_required
@require_POST
def upload_discard(request, pk: int):
    upload = _own_upload(request, pk)
    try:
        results_upload_discard(actor=request.user, upload=upload)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("uploads:preview", upload.pk)
    messages.success(request, _("The upload was discarded; nothing was awarded."))
    return redirect("uploads:upload")


@login_required
@require_POST
def upload_confirm(request, pk: int):
    """Step 3 of the upload: write the tournament and its awards, or say why not."""
    upload = get_object_or_404(ResultUpload, pk=pk)
    form = ConfirmForm(request.POST)
    form.is_valid()
    try:
        tournament = results_upload_confirm(
            actor=request.user, upload=upload, acknowledge_warnings=form.cleaned_data.get("acknowledge_warnings", False)
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("uploads:preview", upload.pk)
    messages.success(request, _("The results are confirmed and the points are in the ledger."))
    return redirect(tournament)
