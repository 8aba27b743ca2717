from django.urls import path

from tournaments import views

app_name = "tournaments"
urlpatterns = [
    path("", views.TournamentListView.as_view(), name="list"),
    path("<int:pk>/", views.tournament_page, name="detail"),
    path("upload/", views.upload, name="upload"),
    path("uploads/<int:pk>/", views.upload_preview, name="upload_preview"),
    path("uploads/<int:pk>/discard/", views.upload_discard, name="upload_discard"),
]
