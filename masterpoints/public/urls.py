from django.urls import path

from masterpoints.public import calculator, views

app_name = "public"
urlpatterns = [
    path("calculator/", calculator.calculator, name="calculator"),
    path("api/calculator", calculator.calculator_api, name="calculator_api"),
    path("tournaments/<int:pk>/", views.tournament_page, name="tournament"),
    # Player numbers are unique per federation, so a player's address names both.
    path("rankings/", views.RankingListView.as_view(), name="rankings"),
    path("players/<str:number>/", views.player_lookup, name="player_lookup"),
    path("players/<slug:code>/<str:number>/", views.player_page, name="player"),
    path("players/<slug:code>/<str:number>/privacy/", views.player_privacy, name="player_privacy"),
    path("api/rankings", views.api_rankings, name="api_rankings"),
    path("api/players/<str:number>", views.api_player_lookup, name="api_player_lookup"),
    path("api/players/<slug:code>/<str:number>", views.api_player, name="api_player"),
]
