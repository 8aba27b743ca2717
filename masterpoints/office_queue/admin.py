"""The office's queue in the admin: the players confirmed uploads left to the office, each resolved once by
the secretariat of its federation, through :mod:`masterpoints.office_queue.services`."""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from federation.admin_base import DecidedByActionsAdmin
from federation.models import Player
from masterpoints.models import OfficeCase, ProvisionalPlayer
from masterpoints.office_queue.forms import OfficeCaseResolveForm, ProvisionalCreditForm
from masterpoints.office_queue.services import office_case_resolve, provisional_credit
from masterpoints.templatetags.upload_tags import group_label


class OpenFilter(admin.SimpleListFilter):
    """The queue opens on the cases still waiting (of current tournaments: a replaced one's go with it)."""

    title = _("status")
    parameter_name = "queue"

    def lookups(self, request, model_admin):
        return [("all", _("all"))]

    def choices(self, changelist):
        yield {
            "selected": self.value() is None,
            "query_string": changelist.get_query_string(remove=[self.parameter_name]),
            "display": _("waiting"),
        }
        yield {
            "selected": self.value() == "all",
            "query_string": changelist.get_query_string({self.parameter_name: "all"}),
            "display": _("all"),
        }

    def queryset(self, request, queryset):
        if self.value() == "all":
            return queryset
        return queryset.filter(status=OfficeCase.Status.OPEN, tournament__is_current=True)


@admin.register(OfficeCase)
class OfficeCaseAdmin(DecidedByActionsAdmin):
    """Players left to the office: tournament, the file's name and number, place, the points they would get.
    Never added, deleted or edited here: the resolve page (which needs the change permission of the list)
    decides a case."""

    list_display = ["name_in_file", "id_in_file", "tournament", "file_name", "place", "points", "resolve_link"]
    list_filter = [OpenFilter, "federation"]
    search_fields = ["name_in_file", "id_in_file", "tournament__name"]
    list_select_related = ["tournament__upload", "player"]

    @admin.display(description=_("file"))
    def file_name(self, obj):
        upload = obj.tournament.upload
        return f"#{upload.pk} {upload.original_name}" if upload else "–"

    @admin.display(description=_("place"))
    def place(self, obj):
        if obj.place_first is None:
            return "–"
        last = f"–{obj.place_last}" if obj.place_last and obj.place_last != obj.place_first else ""
        return f"{obj.place_first}{last} {group_label(obj.group)}".strip()

    @admin.display(description=_("resolution"))
    def resolve_link(self, obj):
        if not obj.is_open:
            return f"{obj.get_status_display()}{f': {obj.player}' if obj.player else ''}"
        if not obj.tournament.is_current:
            return _("replaced by a re-upload")
        link = reverse("admin:masterpoints_officecase_resolve", args=[obj.pk])
        return format_html('<a href="{}">{}</a>', link, _("Resolve"))

    def get_urls(self):
        resolve = self.admin_site.admin_view(self.resolve_view)
        return [path("<int:pk>/resolve/", resolve, name="masterpoints_officecase_resolve"), *super().get_urls()]

    def resolve_view(self, request, pk: int):
        """One case: a member (by number or name), a new member of the register, or a guest; the points follow."""
        if not self.has_change_permission(request):
            raise PermissionDenied
        case = get_object_or_404(self.get_queryset(request).select_related("tournament__upload"), pk=pk)
        if not self.in_scope(request, case, "change"):
            raise PermissionDenied
        players = Player.objects.filter(federation=case.federation_id)
        form = OfficeCaseResolveForm(request.POST or None, players=players, admin_site=self.admin_site)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                posted = office_case_resolve(
                    actor=request.user,
                    case=case,
                    resolution=data["resolution"],
                    player=data.get("player"),
                    number=data.get("number") or "",
                    first_name=data.get("first_name") or "",
                    last_name=data.get("last_name") or "",
                )
            except (ValidationError, PermissionDenied) as error:
                form.add_error(None, error if isinstance(error, ValidationError) else str(error))
            else:
                text = _("%(case)s resolved; %(count)d ledger entries posted.") % {"case": case, "count": len(posted)}
                self.message_user(request, text, messages.SUCCESS)
                return redirect("admin:masterpoints_officecase_changelist")
        context = {
            **self.admin_site.each_context(request),
            "title": _("Resolve a player left to the office"),
            "case": case,
            "form": form,
            "media": self.media + form.media,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/masterpoints/officecase_resolve.html", context)


@admin.register(ProvisionalPlayer)
class ProvisionalPlayerAdmin(DecidedByActionsAdmin):
    """Players the register does not know yet, with the points held for them (DBf appendix B, HBS rule 4): credited by
    themselves when a member with their number joins, or here, to an existing member (the office merging two
    records of one person). Never added, edited or deleted here."""

    list_display = ["name", "number", "club", "held_points", "tournaments", "state", "credit_link"]
    list_filter = ["federation", ("member", admin.EmptyFieldListFilter)]
    search_fields = ["name", "number", "folded_name"]
    list_select_related = ["club", "member"]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("cases__tournament")

    @admin.display(description=_("points held"))
    def held_points(self, obj):
        return "; ".join(case.points for case in obj.cases.all() if case.is_open) or "–"

    @admin.display(description=_("tournaments"))
    def tournaments(self, obj):
        return ", ".join(f"{case.tournament} ({case.tournament.date})" for case in obj.cases.all()) or "–"

    @admin.display(description=_("state"))
    def state(self, obj):
        if obj.is_held:
            return _("held")
        return _("credited to %(member)s on %(date)s") % {"member": obj.member, "date": obj.credited_at.date()}

    @admin.display(description=_("credit"))
    def credit_link(self, obj):
        if not obj.is_held:
            return "–"
        link = reverse("admin:masterpoints_provisionalplayer_credit", args=[obj.pk])
        return format_html('<a href="{}">{}</a>', link, _("Credit to a member"))

    def get_urls(self):
        credit = self.admin_site.admin_view(self.credit_view)
        return [path("<int:pk>/credit/", credit, name="masterpoints_provisionalplayer_credit"), *super().get_urls()]

    def credit_view(self, request, pk: int):
        """Merge into an existing member: every held case's points are posted to them, citing each upload."""
        if not self.has_change_permission(request):
            raise PermissionDenied
        provisional = get_object_or_404(self.get_queryset(request), pk=pk)
        if not self.in_scope(request, provisional, "change"):
            raise PermissionDenied
        players = Player.objects.filter(federation=provisional.federation_id)
        form = ProvisionalCreditForm(request.POST or None, players=players, admin_site=self.admin_site)
        if request.method == "POST" and form.is_valid():
            try:
                member = form.cleaned_data["player"]
                posted = provisional_credit(actor=request.user, provisional=provisional, player=member)
            except (ValidationError, PermissionDenied) as error:
                form.add_error(None, error if isinstance(error, ValidationError) else str(error))
            else:
                text = _("%(provisional)s credited to %(member)s; %(count)d ledger entries posted.") % {
                    "provisional": provisional,
                    "member": member,
                    "count": len(posted),
                }
                self.message_user(request, text, messages.SUCCESS)
                return redirect("admin:masterpoints_provisionalplayer_changelist")
        context = {
            **self.admin_site.each_context(request),
            "title": _("Credit a provisional player's held points to a member"),
            "provisional": provisional,
            "form": form,
            "media": self.media + form.media,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/masterpoints/provisionalplayer_credit.html", context)
