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
from masterpoints.corrections.selectors import plan_key, tournament_awards
from masterpoints.corrections.services import (
    commission_federations,
    correction_assign,
    correction_decide,
    correction_entries_plan,
    correction_window_save,
    is_commission,
    not_deciding,
)
from masterpoints.models import CorrectionRequest, CorrectionWindow


@admin.register(CorrectionRequest)
class CorrectionRequestAdmin(DecidedByActionsAdmin):
    """The commission's queue: filter, assign, decide (grant with ledger entries, or refuse with a reason)."""

    list_display = ["id", "player", "tournament", "status", "assigned_to", "created_at"]
    list_filter = ["status", "federation", "assigned_to"]
    search_fields = ["player__number", "player__last_name", "tournament__name", "text"]
    date_hierarchy = "created_at"
    list_select_related = ["player", "tournament", "assigned_to"]
    actions = ["assign_to_me", "refuse"]  # filed on the site, by the player or a director

    def get_list_display(self, request):
        """The decision column offers *Decide* only on the requests the user decides: the commission's of its
        own federation (the secretariat assigns and reads, never decides). It comes right after the
        number, so that long player and tournament names never push it off a 1280 px screen."""
        deciding = commission_federations(request.user)

        @admin.display(description=_("decision"))
        def decision(obj):
            if not obj.is_open:
                return obj.get_status_display()
            if deciding is not None and obj.federation_id not in deciding:
                return _("open: the commission decides")
            link = reverse("admin:masterpoints_correctionrequest_decide", args=[obj.pk])
            return format_html('<a href="{}">{}</a>', link, _("Decide"))

        first, *rest = super().get_list_display(request)
        return [first, decision, *rest]

    def get_urls(self):
        decide = self.admin_site.admin_view(self.decide_view)
        return [path("<int:pk>/decide/", decide, name="masterpoints_correctionrequest_decide"), *super().get_urls()]

    def decide_view(self, request, pk: int):
        """Grant (reverse the award, adjust by kind) or refuse, with the reason the requester reads.

        The page shows the player's awards in the tournament; a grant is recorded only once the page has
        shown the ledger entries it posts and the same entries are sent back (D-Q47). Someone who does not
        decide is refused once, by one message naming the request and who decides it."""
        if not self.has_change_permission(request):
            raise PermissionDenied
        rows = self.get_queryset(request).select_related("federation", "player", "award", "tournament")
        correction = get_object_or_404(rows, pk=pk)  # another federation's request does not exist here
        if not self.in_scope(request, correction, "change"):
            raise PermissionDenied
        if not is_commission(request.user, correction.federation):
            self.message_user(request, not_deciding(correction), messages.ERROR)
            return redirect("admin:masterpoints_correctionrequest_changelist")
        form = CorrectionDecideForm(
            request.POST or None,
            kinds=correction.federation.scheme_info.kinds,
            has_award=correction.award_id is not None,
        )
        planned: list = []
        if request.method == "POST" and form.is_valid():
            planned, done = self._decide(request, correction, form)
            if done:
                self.message_user(
                    request,
                    _("Request #%(pk)s decided; %(count)d ledger entries posted.") % {"pk": pk, "count": len(planned)},
                    messages.SUCCESS,
                )
                return redirect("admin:masterpoints_correctionrequest_changelist")
        context = {
            **self.admin_site.each_context(request),
            "title": _("Decide correction request #%(pk)s") % {"pk": pk},
            "correction": correction,
            "awards": tournament_awards(correction),
            "planned": planned,
            "plan_key": plan_key(planned),
            "form": form,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/masterpoints/correction_decide.html", context)

    def _decide(self, request, correction, form) -> tuple[list, bool]:
        """``(entries, decided)``: the decision recorded with the entries it posted, or the entries a grant
        would post, to be shown before it is recorded; a refusal of the service is one error of the form."""
        data = form.cleaned_data
        values = {"reverse_award": data.get("reverse_award", False), "adjustments": data["adjustments"]}
        try:
            if data["grant"]:
                planned = correction_entries_plan(
                    actor=request.user, correction=correction, reason=data["reason"], **values
                )
                if request.POST.get("plan_key") != plan_key(planned):
                    return planned, False
            entries = correction_decide(
                actor=request.user, correction=correction, grant=data["grant"], reason=data["reason"], **values
            )
        except ValidationError as error:
            form.add_error(None, error)
        except PermissionDenied as error:
            form.add_error(None, str(error))
        else:
            return entries, True
        return [], False

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
