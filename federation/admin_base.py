"""Base classes of the admin pages for rows that only services write: the admin shows them and never
edits them."""

from __future__ import annotations

from django.contrib import admin


class ReadOnlyAdmin(admin.ModelAdmin):
    """Derived, logged or append-only rows (the audit log, standings, the title register, title e-mails,
    cup wins): shown and filtered, never added, edited or deleted here."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class DecidedByActionsAdmin(admin.ModelAdmin):
    """Rows filed on the site and decided by the office through the list's actions (sanction applications,
    sanctions, correction requests): never added or deleted here, and every field of a row is read-only."""

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        # The list's actions need the change permission; a row itself is only ever viewed.
        return obj is None and super().has_change_permission(request, obj)

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in self.model._meta.fields]
