"""The member file's downloads, under ``/office/member-file/``."""

from django.urls import path

from masterpoints.member_file import views

app_name = "member_file"
urlpatterns = [
    path("club/<int:pk>/<slug:fmt>/", views.club_file, name="club"),
    path("federation/<slug:code>/<slug:fmt>/", views.federation_file, name="federation"),
]
