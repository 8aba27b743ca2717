"""Awards entered by the office (§ 451A)."""

from django.urls import path

from masterpoints.office_entry import views

app_name = "office_entry"
urlpatterns = [
    path("new/", views.office_award_new, name="new"),
]
