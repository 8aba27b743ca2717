"""The commission's queue of correction requests and the correction windows (HBS transition rule 6).

Every change goes through :mod:`masterpoints.corrections.services`, which checks the rules, posts ledger
rows (never edits them), audits and e-mails.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from federation.admin_actions import decide_with_reason
from federation.admin_base import DecidedByActionsAdmin, FederationScopedAdmin
from masterpoints.corrections.forms import CorrectionDecideForm, CorrectionWindowForm
from masterpoints.corrections.services import correction_assign, correction_decide, correction_window_save
from masterpoints.models import CorrectionRequest, CorrectionWindow


@admin.register(CorrectionRequest)
class CorrectionRequestAdmin(DecidedByActionsAdmin):
    """The commission's queue: filter, assign, decide (grant with ledger entries, or refuse with a reason)."""

    list_display = ["id", "player", "tournament", "status", "assigned_to", "created_at", "decide_link"]
    list_filter = ["status", "federation", "assigned_to"]
    search_fields = ["player__number", "player__last_name", "tournament__name", "text"]
    date_hierarchy = "created_at"
    list_select_related = ["player", "tournament", "assigned_to"]
    actions = ["assign_to_me", "refuse"]  # filed on the site, by the player or a director

    @admin.display(description=_("decision"))
    def decide_link(self, obj):
        if not obj.is_open:
            return obj.get_status_display()
        return format_html(
            '<a href="{}">{}</a>', reverse("admin:masterpoints_correctionrequest_decide", args=[obj.pk]), _("Decide")
        )

    def get_urls(self):
        decide = self.admin_site.admin_view(self.decide_view)
        return [path("<int:pk>/decide/", decide, name="masterpoints_correctionrequest_decide"), *super().get_urls()]

    def decide_view(self, request, pk: int):
        """Grant (reverse the award, adjust by kind) or refuse, with the reason the requester reads."""
        if not self.has_change_permission(request):
            raise PermissionDenied
        rows = self.get_queryset(request).select_related("player", "award", "tournament")
        correction = get_object_or_404(rows, pk=pk)  # another federation's request does not exist here
        if not self.in_scope(request, correction, "change"):
            raise PermissionDenied
        form = CorrectionDecideForm(
            request.POST or None,
            kinds=correction.federation.scheme_info.kinds,
            has_award=correction.award_id is not None,
        )
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                entries = correction_decide(
                    actor=request.user,
                    correction=correction,
                    grant=data["grant"],
                    reason=data["reason"],
                    reverse_award=data.get("reverse_award", False),
                    adjustments=data["adjustments"],
                )
            except ValidationError as error:
                form.add_error(None, error)
            except PermissionDenied as error:
                form.add_error(None, str(error) or _("The commission decides correction requests."))
            else:
                self.message_user(
                    request,
                    _("Request #%(pk)s decided; %(count)d ledger entries posted.") % {"pk": pk, "count": len(entries)},
                    messages.SUCCESS,
                )
                return redirect("admin:masterpoints_correctionrequest_changelist")
        context = {
            **self.admin_site.each_context(request),
            "title": _("Decide correction request #%(pk)s") % {"pk": pk},
            "correction": correction,
            "form": form,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/masterpoints/correction_decide.html", context)

    @admin.action(description=_("Assign the selected requests to me"), permissions=["change"])
    def assign_to_me(self, request, queryset):
        for correction in queryset:
            try:
                correction_assign(actor=request.user, correction=correction, assignee=request.user)
            except (ValidationError, PermissionDenied) as error:
                text = " ".join(error.messages) if isinstance(error, ValidationError) else str(error)
                self.message_user(request, f"{correction}: {text}", messages.ERROR)

    @admin.action(description=_("Refuse the selected requests, with a reason"), permissions=["change"])
    def refuse(self, request, queryset):
        return decide_with_reason(
            self,
            request,
            queryset,
            title=str(_("Refuse the selected requests")),
            decide=lambda obj, reason: correction_decide(
                actor=request.user, correction=obj, grant=False, reason=reason
            ),
        )


@admin.register(CorrectionWindow)
class CorrectionWindowAdmin(FederationScopedAdmin):
    """The periods in which corrections are taken (HBS transition rule 6: one year, H-12); the form refuses
    a window beyond that year with its dates, and the service checks again under a lock."""

    form = CorrectionWindowForm
    list_display = ["federation", "opens_on", "closes_on", "note"]
    list_filter = ["federation"]

    def has_delete_permission(self, request, obj=None):
        return False  # close a window by changing its last day: the audit log keeps every change

    def save_model(self, request, obj, form, change):
        correction_window_save(actor=request.user, window=obj)
