from django.urls import path

from masterpoints.uploads import question_views, views

app_name = "uploads"
urlpatterns = [
    path("upload/", views.upload, name="upload"),
    path("uploads/", views.ResultUploadListView.as_view(), name="list"),
    path("uploads/<int:pk>/", views.upload_preview, name="preview"),
    path("uploads/<int:pk>/resolve/", views.upload_resolve, name="resolve"),
    path("uploads/<int:pk>/resolve-all/", views.upload_resolve_all, name="resolve_all"),
    path("uploads/<int:pk>/encoding/", views.upload_encoding, name="encoding"),
    path("uploads/<int:pk>/playing-time/", views.upload_playing_time, name="playing_time"),
    path("uploads/<int:pk>/substitutes/", question_views.upload_substitutes, name="substitutes"),
    path("uploads/<int:pk>/quota-count/", question_views.upload_quota_count, name="quota_count"),
    path("uploads/<int:pk>/club-alias/", views.upload_club_alias, name="club_alias"),
    path("uploads/<int:pk>/discard/", views.upload_discard, name="discard"),
    path("uploads/<int:pk>/confirm/", views.upload_confirm, name="confirm"),
]
