"""The admin of the standings: derived rows to look at, the register of titles, and a button
that rebuilds every standing from the ledger (the nightly job, on demand), recorded as a job."""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect
from django.urls import path
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from federation.admin_base import ReadOnlyAdmin
from masterpoints.jobs.admin import secretariat_federations
from masterpoints.models import Standing, TitleAchievement
from masterpoints.numbers import kind_label, shown_units
from masterpoints.office_record.admin import PlayerRecordMixin
from masterpoints.standings.jobs import standings_rebuild_request
from masterpoints.standings.titles import title_label


@admin.register(Standing)
class StandingAdmin(PlayerRecordMixin, ReadOnlyAdmin):
    """Standings to look at; the office's record of a player (``masterpoints.office_record``) lives here."""

    list_display = ["player", "federation", "shown_title", "points", "last_award_on", "award_count"]
    list_filter = ["federation", "title_rung"]
    search_fields = ["player__number", "player__last_name", "player__first_name"]
    list_select_related = ["player", "federation"]
    show_full_result_count = False  # a count of a hundred thousand rows on every page is not worth it
    change_list_template = "masterpoints/standing_change_list.html"
    # The balances under their rule book's names (``points``), not the generic columns that hold them.
    exclude = ["kind1", "kind2", "kind3", "total"]
    readonly_fields = ["points"]

    @admin.display(description=_("title or category"))
    def shown_title(self, obj):
        return title_label(obj.title, obj.stars)

    @admin.display(description=_("points"))
    def points(self, obj):
        headline = obj.federation.scheme_info.headline  # DBf one MP total (§ 402), HBS each kind (H-2)
        return " / ".join(f"{shown_units(getattr(obj, b.column), b.decimals)} {kind_label(b.label)}" for b in headline)

    def get_urls(self):
        rebuild = self.admin_site.admin_view(require_POST(self.rebuild_view))
        return [path("rebuild/", rebuild, name="masterpoints_standing_rebuild"), *super().get_urls()]

    def rebuild_view(self, request):
        """Record a rebuild job of the federation posted (``federation``; without it, of every federation
        the user is secretariat of) and queue it after this request; the office goes on working and the
        job's page shows how it goes. A federation whose rebuild runs already is refused, naming
        that job."""
        served = secretariat_federations(request.user)
        if not request.user.has_perm("masterpoints.change_standing") or not served.exists():
            raise PermissionDenied
        chosen = request.POST.get("federation", "")
        federations = list(served.filter(pk=int(chosen)) if chosen.isdecimal() else served)
        if not federations:
            raise PermissionDenied
        # Through the outbox: an unreachable broker delays the rebuild (the periodic drain queues it), never
        # this page.
        jobs = []
        for federation in federations:
            try:
                jobs.append(standings_rebuild_request(actor=request.user, federation=federation))
            except ValidationError as refused:
                messages.error(request, " ".join(refused.messages))
        if len(jobs) == 1:
            return redirect("admin:federation_jobrun_change", jobs[0].pk)
        if jobs:
            messages.success(request, _("The rebuild of every standing from the ledger has been started."))
        return redirect("admin:federation_jobrun_changelist")


@admin.register(TitleAchievement)
class TitleAchievementAdmin(ReadOnlyAdmin):
    """The register of titles and categories reached (§ 404, H-2): append-only."""

    list_display = ["player", "federation", "shown_title", "reached_on", "recorded_at", "announced_at"]
    list_filter = ["federation", "title", "announced_at"]
    search_fields = ["player__number", "player__last_name"]
    list_select_related = ["player", "federation"]
    date_hierarchy = "reached_on"

    @admin.display(description=_("title or category"))
    def shown_title(self, obj):
        return title_label(obj.title, obj.stars)
