"""The site's URLs: public pages, the officers' pages, the workflows, the admin, login and language switching."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("federation.urls")),
    path("office/", include("office.urls")),
    path("clubs/", include("clubs.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("tournaments/", include("masterpoints.uploads.urls")),
    path("sanctions/", include("tournaments.sanctions.urls")),
    path("corrections/", include("masterpoints.corrections.urls")),
    path("", include("masterpoints.cups.urls")),
    path("", include("masterpoints.transition.urls")),
    path("", include("masterpoints.public.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
