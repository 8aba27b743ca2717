"""The site's URLs: public pages, the officers' pages, the workflows, the admin, login and language switching."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from django_otp.admin import OTPAdminAuthenticationForm, OTPAdminSite

from federation.health import health
from office.accounts.urls import password_reset_urls


class OfficeAdminSite(OTPAdminSite):
    """The admin. With ``ADMIN_REQUIRE_OTP`` it is django-otp's OTPAdminSite: only staff who signed in with
    their password and a token from a confirmed OTP device (``user.is_verified()``) may use it, and its login
    page asks for the token. Without it, Django's own admin. The setting is read on each request."""

    @property
    def login_form(self):
        return OTPAdminAuthenticationForm if settings.ADMIN_REQUIRE_OTP else None

    @property
    def login_template(self):
        return OTPAdminSite.login_template if settings.ADMIN_REQUIRE_OTP else None

    def has_permission(self, request) -> bool:
        if settings.ADMIN_REQUIRE_OTP:
            return super().has_permission(request)
        return admin.AdminSite.has_permission(self, request)


# The default site keeps every ModelAdmin registered on it; only its behaviour changes (django-otp's own advice).
admin.site.__class__ = OfficeAdminSite

urlpatterns = [
    path("health/", health, name="health"),
    path("", include("federation.urls")),
    path("office/", include("office.urls")),
    path("office/awards/", include("masterpoints.office_entry.urls")),
    path("office/member-file/", include("masterpoints.member_file.urls")),
    path("clubs/", include("clubs.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("tournaments/", include("masterpoints.uploads.urls")),
    path("sanctions/", include("tournaments.sanctions.urls")),
    path("corrections/", include("masterpoints.corrections.urls")),
    path("", include("masterpoints.cups.urls")),
    path("", include("masterpoints.transition.urls")),
    path("", include("masterpoints.public.urls")),
    path("", include("api.urls")),
    path("", include("masterpoints.notices.urls")),
    path("accounts/", include(password_reset_urls)),
    path("accounts/", include("office.accounts.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
]
