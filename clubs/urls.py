from django.urls import path

from clubs import views

app_name = "clubs"
urlpatterns = [
    path("", views.ClubListView.as_view(), name="list"),
    path("<int:pk>/", views.club_detail, name="detail"),
]
