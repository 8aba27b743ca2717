"""Admin actions that take a decision with a reason on the selected rows, through a service.

Used by the sanction, tourist-approval, licence, correction and foreign-points admins: the action shows a
page with the selected rows and a reason field, then calls ``decide(obj, reason)`` for each row inside
the service's own transaction. A row the service refuses is reported with its reason; the others go through.
"""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied, ValidationError
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy


class ReasonForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Reason"), widget=forms.Textarea(attrs={"rows": 4, "cols": 60}))

    def __init__(self, *args, required: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["reason"].required = required


def decide_with_reason(
    modeladmin: admin.ModelAdmin,
    request,
    queryset,
    *,
    title: str,
    decide: Callable[[object, str], object],
    reason_required: bool = True,
):
    """Ask for a reason, then run ``decide(obj, reason)`` on every selected row and report each outcome."""
    form = ReasonForm(request.POST if "apply" in request.POST else None, required=reason_required)
    if "apply" in request.POST and form.is_valid():
        done = 0
        for obj in queryset:
            try:
                decide(obj, form.cleaned_data["reason"])
            except (ValidationError, PermissionDenied) as error:
                text = " ".join(error.messages) if isinstance(error, ValidationError) else str(error)
                modeladmin.message_user(request, f"{obj}: {text}", messages.ERROR)
            else:
                done += 1
        if done:
            modeladmin.message_user(request, _("%(count)d done.") % {"count": done}, messages.SUCCESS)
        return None
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "objects": queryset,
        "form": form,
        "action": request.POST.get("action"),
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        "opts": modeladmin.model._meta,
    }
    return TemplateResponse(request, "admin/decision_reason.html", context)
