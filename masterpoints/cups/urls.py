"""Cups and top-16 lists (§ 451C–E, § 452)."""

from django.urls import path

from masterpoints.cups import views

app_name = "cups"
urlpatterns = [
    path("cups/", views.cup_list, name="list"),
    path("cups/report/", views.cup_report, name="report"),
    path("clubs/<int:pk>/top16/", views.top16_list, name="top16"),
]
