from django.urls import path

from masterpoints import cup_views, public_views, transition_views, views

app_name = "masterpoints"
urlpatterns = [
    path("calculator/", views.calculator, name="calculator"),
    path("api/calculator", views.calculator_api, name="calculator_api"),
    path("tournaments/uploads/<int:pk>/confirm/", views.upload_confirm, name="upload_confirm"),
    # Public standings (issue 4): player numbers are unique per federation, so a player's address names both.
    path("rankings/", public_views.RankingListView.as_view(), name="rankings"),
    path("players/<str:number>/", public_views.player_lookup, name="player_lookup"),
    path("players/<slug:code>/<str:number>/", public_views.player_page, name="player"),
    path("players/<slug:code>/<str:number>/privacy/", public_views.player_privacy, name="player_privacy"),
    path("api/rankings", public_views.api_rankings, name="api_rankings"),
    path("api/players/<str:number>", public_views.api_player_lookup, name="api_player_lookup"),
    path("api/players/<slug:code>/<str:number>", public_views.api_player, name="api_player"),
    # Cups and top-16 lists (§ 451C–E, § 452).
    path("cups/", cup_views.cup_list, name="cups"),
    path("cups/report/", cup_views.cup_report, name="cup_report"),
    path("clubs/<int:pk>/top16/", cup_views.top16_list, name="top16"),
    # The HBS secretariat's transition tools (transition rules 1, 3, 4 and 8).
    path("office/transition/", transition_views.transition_page, name="transition"),
]
