"""Issue 34, item 8 (§ 443B2/§ 452A; reading D-Q68): a top-16 upload's entrants are checked against the club's
top-16 list of the claimed playing time. § 452A: "De 16 medlemmer, der i klubbens turneringer har vundet flest
BP i sæsonens løb (hver ugentlig spilleperiode for sig), er berettigede til at deltage. Hvis nogle af disse ikke
kan deltage, overtager de næste medlemmer i BP-rækkefølgen pladsen." Anyone else is named as a last-minute
substitute (a warning: the paragraph admits them), through the real path: CSV → preview → confirm → ledger."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from clubs.models import PlayingTime
from masterpoints.models import Award
from masterpoints.standings.services import standings_refresh_players
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import results_upload_confirm
from tests.factories import make_player, make_tournament, make_upload, post_award

TOP16_DAY = datetime.date(2025, 11, 3)  # a Monday of the season 2025/26
NUMBERS = [str(81001 + i) for i in range(20)]


@pytest.fixture
def ranked(world):
    """Twenty members of club A with BP from the club's Monday tournaments of the season, NUMBERS[0] most."""
    monday = PlayingTime.objects.create(club=world.club_a, weekday=0, part_of_day="evening")
    players = [make_player(world.dbf, n, first="Spiller", last=n, club=world.club_a) for n in NUMBERS]
    evening = make_tournament(world.dbf, world.club_a, day=datetime.date(2025, 9, 1), playing_time=monday)
    for rank, player in enumerate(players):
        post_award(player, "BP", 100 - rank, day=evening.date, source="result", tournament=evening)
    return players


def top16_file(entrants: list[str]) -> bytes:
    rows = "".join(f"{i + 1};{i + 1};{n};Spiller {n};{200 - i}\n" for i, n in enumerate(entrants))
    head = f"event_date;{TOP16_DAY.isoformat()}\nevent_name;Top-16\nevent_type;individual\nclub_id;1001\n"
    return (head + "boards_played;30\nentry_no;place;player_1_id;player_1_name;score\n" + rows).encode()


def upload_of(world, personas, entrants):
    data = top16_file(entrants)
    return make_upload(
        world.dbf, world.club_a, data, actor=personas.director_a, category="SP", filename="t.csv", special="top16"
    )


def warned(upload) -> list[dict]:
    return [issue.params for issue in build_preview(upload).issues if issue.code == "TOP16_NOT_ENTITLED"]


def test_the_sixteen_and_their_next_in_bp_order_are_entitled_others_are_named_452a_d_q68(
    client, world, personas, ranked
):
    # The first two of the list do not play: the next two in BP order take their places; two more do not.
    upload = upload_of(world, personas, NUMBERS[2:20])
    (issue,) = warned(upload)
    assert issue["count"] == 2 and issue["list"] == "Monday evening"
    assert NUMBERS[18] in issue["players"] and NUMBERS[19] in issue["players"]
    assert NUMBERS[16] not in issue["players"] and NUMBERS[17] not in issue["players"]
    tournament = results_upload_confirm(actor=personas.director_a, upload=upload, acknowledge_warnings=True)
    winner = Award.objects.filter(tournament=tournament, kind="SP").order_by("-units").first()
    assert winner is not None, "a warning, the SP still paid"
    standings_refresh_players(federation=world.dbf, player_ids=[winner.player_id])
    page = client.get(reverse("public:player", args=["dbf", winner.player.number])).content.decode()
    assert "Top-16" in page


def test_the_sixteen_of_the_list_raise_no_warning_452a(world, personas, ranked):
    assert warned(upload_of(world, personas, NUMBERS[:16])) == []
