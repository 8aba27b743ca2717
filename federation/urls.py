"""The site's URLs: public pages, the officers' pages, the admin, login and language switching."""

from django.contrib import admin
from django.urls import include, path

from federation import views

app_urls = (
    [
        path("", views.home, name="home"),
        path("office/", views.office, name="office"),
    ],
    "federation",
)

urlpatterns = [
    path("", include(app_urls)),
    path("clubs/", include("clubs.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("sanctions/", include("tournaments.sanction_urls")),
    path("corrections/", include("masterpoints.correction_urls")),
    path("", include("masterpoints.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
