"""The club ids results files name for a club (D-Q40) in the admin: the secretariat lists the ids
recorded in its federation and removes a wrong one; nobody adds one here (a club's director or the
secretariat records it from an upload, :func:`masterpoints.uploads.aliases.club_alias_record`) and nobody
edits an id in place (a wrong id is removed, and the right one recorded from the next upload). A removal
is audited (``admin.clubalias.delete``, :class:`~federation.admin_base.AuditedAdmin`) in its own
transaction; club directors, who have no admin, remove nothing."""

from __future__ import annotations

from django.contrib import admin

from federation.admin_base import AuditedAdmin, FederationScopedAdmin
from masterpoints.uploads.models import ClubAlias


@admin.register(ClubAlias)
class ClubAliasAdmin(AuditedAdmin, FederationScopedAdmin):
    """Recorded club ids: the club, the id in the files, who recorded it and when; search by id or club."""

    federation_paths = ("federation", "club__federation")
    list_display = ["file_club_id", "club", "recorded_by", "recorded_at", "federation"]
    list_filter = ["federation"]
    search_fields = ["file_club_id", "club__name", "club__number"]
    list_select_related = ["club", "recorded_by", "federation"]
    date_hierarchy = "recorded_at"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
