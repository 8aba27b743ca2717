from django.urls import path

from office.accounts import views

#: Installed before ``django.contrib.auth.urls`` under ``accounts/``: the rate-limited reset request, under
#: the name Django's own views and templates use.
password_reset_urls = [path("password_reset/", views.password_reset, name="password_reset")]

app_name = "accounts"
urlpatterns = [
    path("player/", views.player_login_ask, name="player_login"),
    path("player/sent/", views.player_login_sent, name="player_login_sent"),
    path("player/<str:token>/", views.player_login_set, name="player_login_set"),
]
