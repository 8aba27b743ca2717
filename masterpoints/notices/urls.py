from django.urls import path

from masterpoints.notices import views

app_name = "notices"
urlpatterns = [
    path("me/", views.account, name="account"),
    path("me/notices/", views.preference, name="preference"),
    path("notices/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
