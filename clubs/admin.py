from django.contrib import admin

from clubs.models import Club, ClubMembership, Officer, PlayingTime
from clubs.services import officer_assign, officer_revoke


class PlayingTimeInline(admin.TabularInline):
    model = PlayingTime
    extra = 0


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["number", "name", "federation", "email", "active"]
    list_filter = ["federation", "active", "regions"]
    search_fields = ["number", "name", "email"]
    filter_horizontal = ["regions"]
    inlines = [PlayingTimeInline]
    list_select_related = ["federation"]


@admin.register(ClubMembership)
class ClubMembershipAdmin(admin.ModelAdmin):
    list_display = ["player", "club", "is_home", "since", "until"]
    list_filter = ["is_home", "club__federation"]
    search_fields = ["player__number", "player__last_name", "club__name", "club__number"]
    raw_id_fields = ["player", "club"]
    list_select_related = ["player", "club"]


@admin.register(Officer)
class OfficerAdmin(admin.ModelAdmin):
    """Offices are granted and ended through the services, which also set admin access and audit."""

    list_display = ["user", "role", "federation", "club", "region"]
    list_filter = ["role", "federation"]
    search_fields = ["user__username", "user__email", "club__name", "region__name"]
    raw_id_fields = ["user", "club"]
    list_select_related = ["user", "federation", "club", "region"]

    def has_change_permission(self, request, obj=None):
        return obj is None and super().has_change_permission(request, obj)

    def save_model(self, request, obj, form, change):
        saved = officer_assign(
            actor=request.user,
            user=obj.user,
            role=obj.role,
            federation=obj.federation,
            club=obj.club,
            region=obj.region,
        )
        obj.pk = saved.pk

    def delete_model(self, request, obj):
        officer_revoke(actor=request.user, officer=obj)

    def delete_queryset(self, request, queryset):
        for officer in queryset:
            officer_revoke(actor=request.user, officer=officer)
