from django.urls import path, register_converter

from masterpoints.public import calculator, page_cache, search, views


class PlayerNumber:
    """A registration number as it may appear in an address: up to 40 characters, no slash and no control
    character (a NUL or a line break is never part of a number: such an address is a 404, not a 500)."""

    regex = r"[^/\x00-\x1f\x7f]{1,40}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(PlayerNumber, "number")

app_name = "public"
urlpatterns = [
    path("calculator/", calculator.calculator, name="calculator"),
    path("tournaments/<int:pk>/", views.tournament_page, name="tournament"),
    # Player numbers are unique per federation, so a player's address names both.
    path(
        "rankings/",
        page_cache.anonymous_page_cache(page_cache.rankings_federation, parameters=views.RANKINGS_PARAMETERS)(
            views.RankingListView.as_view()
        ),
        name="rankings",
    ),
    path("rankings/ranking-list/", views.RankingListEntryListView.as_view(), name="ranking_list"),
    path("players/", search.player_search, name="player_search"),
    path("players/<number:number>/", views.player_lookup, name="player_lookup"),
    path("players/<slug:code>/<number:number>/", views.player_page, name="player"),
    path("players/<slug:code>/<number:number>/privacy/", views.player_privacy, name="player_privacy"),
]
