"""DBf's ranking list ("ranglisten", issue 18), stored with the standings: the figures over three years of
awards (D-Q56–D-Q60), the daily roll, the incremental update equal to the full rebuild, and the page with its
filters (an HBS federation has no such list)."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from masterpoints.models import Award, RankingListEntry
from masterpoints.standings.ranking_list import ranking_list_refresh
from masterpoints.standings.services import standings_ranking_roll, standings_rebuild, standings_refresh_players
from masterpoints.standings.tasks import standings_ranking_roll_all
from tests import factories
from tests.factories import make_player, make_tournament

TODAY = datetime.date(2026, 3, 15)
D = datetime.date


def post(player, kind: str, units: int, registered: datetime.date, **fields):
    return factories.post_award(player, kind, units, day=registered, registered=registered, **fields)


def three_years(world, player):
    """The ledger of the pinned figure (units: 1 BP, 0.1 SP, 0.01 GP, each 0.01 MP, D-Q56), on 15 March 2026:

    last 12 months (16 Mar 2025 – 15 Mar 2026), full weight:
        2.50 BP registered today, 1.25 GP on 16 Mar 2025 (a day short of 12 months), the re-upload's 3.00 BP
        on 1 Feb 2026, a correction of −0.49 BP on 20 Feb 2026                     = 626/100 MP
        (5.00 BP of a robot tournament on 10 Jan 2026 do not count, D-Q58)
    12–24 months (16 Mar 2024 – 15 Mar 2025), half:
        30.7 SP on 15 Mar 2025 (exactly 12 months ago), 4.00 BP on 5 Jan 2025 and their reversal by the
        re-upload on 1 Feb 2026, which counts on the reversed award's day (D-Q58)    = 307/100 MP
        (an opening balance of 100 MP on 1 Jun 2025 does not count, D-Q58)
    24–36 months (16 Mar 2023 – 15 Mar 2024), a third:
        2.00 GP on 10 Sep 2023, 3.30 BP on 16 Mar 2023                              = 530/100 MP
        (9.99 BP on 15 Mar 2023, exactly 36 months ago, no longer count, D-Q57)

    figure = (626 + 307/2 + 530/3) · 6/11 / 100 MP = (6·626 + 3·307 + 2·530) / 1100 MP = 5737/1100 MP
           = 5.21545… MP, shown 5.22 (D-Q60); stored score 5737.
    It next changes on 16 Mar 2026: 1.25 GP move to the half, 3.30 BP leave the list:
    (6·501 + 3·432 + 2·200) / 1100 = 4702/1100 MP = 4.2745… MP, shown 4.27.
    """
    robot = make_tournament(world.dbf, world.club_a, key="robots", day=D(2026, 1, 10), robots=True)
    first = make_tournament(world.dbf, world.club_a, key="first", day=D(2025, 1, 5))
    post(player, "BP", 250, TODAY)
    post(player, "GP", 125, D(2025, 3, 16))
    post(player, "BP", 500, D(2026, 1, 10), source="result", tournament=robot)
    original = post(player, "BP", 400, D(2025, 1, 5), source="result", tournament=first)
    post(player, "BP", -400, D(2026, 2, 1), source="reversal", reverses=original, tournament=first)
    post(player, "BP", 300, D(2026, 2, 1), source="result", tournament=first)
    post(player, "BP", -49, D(2026, 2, 20), source="correction")
    post(player, "SP", 307, D(2025, 3, 15))
    post(player, "BP", 10000, D(2025, 6, 1), source="transition")
    post(player, "GP", 200, D(2023, 9, 10))
    post(player, "BP", 330, D(2023, 3, 16))
    post(player, "BP", 999, D(2023, 3, 15))


def test_the_ranking_figure_weights_three_years_and_excludes_robots_d_q56_to_d_q60(world):
    player = world.player
    three_years(world, player)
    ranking_list_refresh(world.dbf, None, today=TODAY)
    entry = RankingListEntry.objects.get(player=player)
    assert (entry.score, entry.changes_on) == (5737, D(2026, 3, 16))


def test_the_daily_roll_recomputes_the_figures_whose_day_has_come_d_q59(world):
    player = world.player
    three_years(world, player)
    other = make_player(world.dbf, "900")
    post(other, "BP", 100, D(2026, 1, 1))  # changes only on 1 Jan 2027
    ranking_list_refresh(world.dbf, None, today=TODAY)
    assert standings_ranking_roll(federation=world.dbf, today=TODAY) == 0
    assert standings_ranking_roll(federation=world.dbf, today=D(2026, 3, 16)) == 1
    entry = RankingListEntry.objects.get(player=player)
    assert (entry.score, entry.changes_on) == (4702, D(2026, 9, 10))
    assert RankingListEntry.objects.get(player=other).score == 600  # 1.00 MP · 6/11 → 600/1100
    # The roll's result is what a computation from scratch on that day gives.
    RankingListEntry.objects.all().delete()
    ranking_list_refresh(world.dbf, None, today=D(2026, 3, 16))
    assert RankingListEntry.objects.get(player=player).score == 4702


def test_the_incremental_update_equals_the_full_rebuild_for_the_ranking_list_issue_18(world):
    """Awards registered today and a year ago, a reversal, a robot award: the update after each, then the
    rebuild over the kept rows and from scratch give the same rows."""
    today = timezone.localdate()
    a, b = make_player(world.dbf, "801"), make_player(world.dbf, "802")
    robot = make_tournament(world.dbf, world.club_a, key="robots", robots=True)
    post(a, "BP", 120, today)
    post(a, "SP", 45, today - datetime.timedelta(days=400))
    award = post(b, "GP", 300, today - datetime.timedelta(days=800))
    post(b, "BP", -300, today, source="reversal", reverses=award)
    post(b, "BP", 700, today, source="result", tournament=robot)
    post(b, "BP", 80, today)
    standings_refresh_players(federation=world.dbf, player_ids=[a.pk, b.pk])
    incremental = sorted(RankingListEntry.objects.values_list("player_id", "federation_id", "score", "changes_on"))
    assert [row[2] for row in incremental] == [6 * 120 + 3 * 45, 6 * 80]
    standings_rebuild()
    assert sorted(RankingListEntry.objects.values_list("player_id", "federation_id", "score", "changes_on")) == (
        incremental
    )
    RankingListEntry.objects.all().delete()
    standings_rebuild()
    assert sorted(RankingListEntry.objects.values_list("player_id", "federation_id", "score", "changes_on")) == (
        incremental
    )


def test_an_hbs_federation_has_no_ranking_list_issue_18(world, client):
    hr = make_player(world.hbs, "501")
    post(hr, "black", 40, timezone.localdate())
    standings_refresh_players(federation=world.hbs, player_ids=[hr.pk])
    assert not RankingListEntry.objects.filter(federation=world.hbs).exists()
    response = client.get(reverse("public:ranking_list"), {"federation": world.hbs.pk})
    assert response.status_code == 404


@pytest.fixture
def listed(world):
    """Three DBf players with figures: Karen (club A, district Fyn), Bo (club B, district Nord), Ane (no club)."""
    today = timezone.localdate()
    bo = make_player(world.dbf, "700", first="Bo", last="Berg", club=world.club_b)
    ane = make_player(world.dbf, "701", first="Ane", last="Dahl")
    post(world.player, "GP", 250, today)
    post(bo, "SP", 100, today)
    post(ane, "BP", 50, today)
    standings_refresh_players(federation=world.dbf, player_ids=[world.player.pk, bo.pk, ane.pk])
    return world


def names(response) -> list[str]:
    return [row.record.player.last_name for row in response.context["table"].page.object_list]


def test_the_ranking_list_page_ranks_by_the_figure_and_filters_like_the_rankings_issue_18(listed, client):
    url = reverse("public:ranking_list")
    response = client.get(url)
    assert response.status_code == 200
    assert names(response) == ["Jensen", "Berg", "Dahl"]
    body = response.content.decode()
    # 2.50 MP · 6/11 = 1.3636… → 1.36; 1.00 · 6/11 = 0.5454… → 0.55; 0.50 · 6/11 = 0.2727… → 0.27 (D-Q60).
    assert ">1.36<" in body and ">0.55<" in body and ">0.27<" in body
    assert names(client.get(url, {"federation": listed.dbf.pk, "club": listed.club_b.pk})) == ["Berg"]
    assert names(client.get(url, {"region": listed.district.pk})) == ["Jensen"]
    assert names(client.get(url, {"region": listed.circle.pk})) == ["Jensen"]
    assert names(client.get(url, {"q": "dahl"})) == ["Dahl"]
    assert client.get(url, {"federation": "99999999999999999999999"}).status_code == 400


def test_a_robot_tournament_award_keeps_a_player_off_the_list_d_q58(world, client):
    robot = make_tournament(world.dbf, world.club_a, key="robots", robots=True)
    post(world.player, "BP", 500, timezone.localdate(), source="result", tournament=robot)
    standings_refresh_players(federation=world.dbf, player_ids=[world.player.pk])
    assert Award.objects.filter(player=world.player).count() == 1
    assert not RankingListEntry.objects.exists()
    response = client.get(reverse("public:ranking_list"))
    assert response.status_code == 200 and names(response) == []


def test_the_api_serves_the_ranking_list_with_its_filters_and_refuses_hbs_issue_18(listed, client):
    url = reverse("api:ranking_list")
    response = client.get(url, {"federation": "dbf", "page_size": 2})
    assert response.status_code == 200
    data = response.json()
    assert [(row["place"], row["number"], row["figure"]) for row in data["results"]] == [
        (1, "12345", "1.36"),
        (2, "700", "0.55"),
    ]
    assert data["next"] is not None and data["as_of"] == timezone.localdate().isoformat()
    assert [row["number"] for row in client.get(url, {"club": "1002"}).json()["results"]] == ["700"]
    assert [row["number"] for row in client.get(url, {"region": "fyn"}).json()["results"]] == ["12345"]
    refused = client.get(url, {"federation": "hbs"})
    assert refused.status_code == 404 and refused.json()["error"]["code"] == "NO_RANKING_LIST"


def test_the_daily_task_rolls_the_lists_of_the_federations_that_have_one_d_q59(world):
    """Figures computed on 15 March 2026 are due long before today: the beat's task recomputes them for today
    in DBf and passes HBS by (it has no list)."""
    three_years(world, world.player)
    ranking_list_refresh(world.dbf, None, today=TODAY)
    assert standings_ranking_roll_all() == {"dbf": 1}
    figures = RankingListEntry.objects.values_list("score", "changes_on")
    rolled = figures.get(player=world.player)
    assert rolled != (5737, D(2026, 3, 16))
    RankingListEntry.objects.all().delete()
    ranking_list_refresh(world.dbf, None)
    assert figures.get(player=world.player) == rolled


def test_the_database_sums_per_period_give_the_engines_day_by_day_figure_d_q59(world):
    """Issue 16: the ranking list's sums per player and period are read from the database, the engine
    weights them (``figure_of_periods``). On random ledgers (days on the periods' edges and around 29
    February, reversals registered later, days that cancel out, robot tournaments, opening balances, an
    entry registered after today) every stored figure and change day equals the engine's ``ranking_figure``
    over the same player's registration days."""
    import random

    from django.db.models import F, Sum
    from django.db.models.functions import Coalesce, TruncDate

    from masterpoints.engine.dbf.ranglist import ranking_figure
    from masterpoints.standings.ranking_list import ranking_list_rows

    today = D(2028, 3, 1)
    rng = random.Random(59)
    robot = make_tournament(world.dbf, world.club_a, key="robot-59", day=D(2027, 5, 1), robots=True)
    played = make_tournament(world.dbf, world.club_a, key="played-59", day=D(2027, 5, 1))
    edges = [D(2025, 3, 1), D(2025, 3, 2), D(2026, 2, 28), D(2026, 3, 1), D(2026, 3, 2), D(2027, 2, 28)]
    edges += [D(2027, 3, 1), D(2027, 3, 2), D(2028, 2, 29), today, D(2028, 3, 2)]
    players = [make_player(world.dbf, f"59{index:02d}") for index in range(12)]
    for player in players:
        for _ in range(rng.randint(1, 9)):
            day = rng.choice(edges) if rng.random() < 0.6 else D(2025, 1, 1) + datetime.timedelta(rng.randint(0, 1200))
            kind, units = rng.choice(("BP", "SP", "GP")), rng.randint(1, 400)
            choice = rng.random()
            if choice < 0.15:
                post(player, kind, units, day, source="result", tournament=robot)
            elif choice < 0.3:
                original = post(player, kind, units, day, source="result", tournament=played)
                later = min(day + datetime.timedelta(rng.randint(0, 400)), today)
                post(player, kind, -units, later, source="reversal", reverses=original, tournament=played)
            elif choice < 0.4:
                post(player, kind, units, day, source="transition")
            elif choice < 0.5:
                post(player, kind, units, day)
                post(player, kind, -units, day, source="correction")  # the day cancels out
            else:
                post(player, kind, rng.choice((1, -1)) * units, day)
    rows = ranking_list_rows(world.dbf, None, today)
    counted = Award.objects.exclude(source="transition").exclude(tournament__robots=True)
    counted = counted.exclude(reverses__tournament__robots=True)
    days = (
        counted.annotate(registered=TruncDate(Coalesce(F("reverses__created_at"), F("created_at"))))
        .values("player_id", "registered")
        .annotate(hundredths=Sum("units"))
        .order_by()
    )
    by_player: dict[int, list] = {}
    for row in days:
        by_player.setdefault(row["player_id"], []).append((row["registered"], row["hundredths"]))
    expected = {}
    for player_id, registered in by_player.items():
        figure = ranking_figure(registered, today)
        if figure.hundredths:
            expected[player_id] = (int(figure.hundredths * 11), figure.changes_on)
    assert rows == expected and len(rows) >= 8
