"""The preview's questions to the director (:mod:`masterpoints.uploads.questions`): whom
each substitute replaced (§ 405B7b) and which board count sets the quota (§ 405B6c, § 405B7c, D-Q63). A wrong
answer shows the preview again with the form's error; a right one is stored and the preview is built with it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from masterpoints.uploads.questions import (
    QuotaCountForm,
    SubstitutesForm,
    results_upload_answer_substitutes,
    results_upload_choose_quota_count,
)
from masterpoints.uploads.services import results_upload_preview
from masterpoints.uploads.views import _own_upload, _preview_context


def _again(request, upload, **forms):
    """The preview page again with the bound form and its errors (400: the answer was not taken)."""
    context = {**_preview_context(request, upload), **forms}
    return render(request, "masterpoints/uploads/upload_preview.html", context, status=400)


@login_required
@require_POST
def upload_substitutes(request, pk: int):
    """Record whom each substitute the preview asks about replaced (§ 405B7b)."""
    upload = _own_upload(request, pk)
    stored = results_upload_preview(upload=upload)
    form = SubstitutesForm(request.POST, questions=stored.get("substitutes") or [])
    if not form.questions or not form.is_valid():
        if not form.questions:
            form.add_error(None, _("The preview asks about no substitute (§ 405B7b)."))
        return _again(request, upload, substitutes_form=form)
    try:
        results_upload_answer_substitutes(actor=request.user, upload=upload, answers=form.answers())
    except ValidationError as error:
        form.add_error(None, error)
        return _again(request, upload, substitutes_form=form)
    messages.success(request, _("Your answer is recorded; the points below are computed with it (§ 405B7b)."))
    return redirect("uploads:preview", upload.pk)


@login_required
@require_POST
def upload_quota_count(request, pk: int):
    """Record which of the file's board counts sets the quota (§ 405B6c, § 405B7c, D-Q63)."""
    upload = _own_upload(request, pk)
    stored = results_upload_preview(upload=upload)
    form = QuotaCountForm(request.POST, question=stored.get("quota"))
    if not form.is_valid():
        return _again(request, upload, quota_form=form)
    try:
        results_upload_choose_quota_count(actor=request.user, upload=upload, count=form.cleaned_data["quota_count"])
    except ValidationError as error:
        form.add_error(None, error)
        return _again(request, upload, quota_form=form)
    messages.success(request, _("Your choice is recorded; the points below are computed with it (D-Q63)."))
    return redirect("uploads:preview", upload.pk)
