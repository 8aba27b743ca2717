from django.urls import path

from federation import views

app_name = "federation"
urlpatterns = [
    path("", views.home, name="home"),
    path("language/", views.language_choose, name="language"),
]
