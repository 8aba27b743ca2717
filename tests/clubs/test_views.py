"""Public club pages."""

from django.urls import reverse


def test_the_club_list_filters_by_federation(client, world):
    response = client.get(reverse("clubs:list"), {"federation": world.hbs.pk})
    body = response.content.decode()
    assert response.status_code == 200
    assert world.club_hr.name in body
    assert world.club_a.name not in body


def test_a_club_page_hides_the_name_of_a_player_who_asked(client, world):
    world.player.hide_name = True
    world.player.save()
    body = client.get(reverse("clubs:detail", args=[world.club_a.pk])).content.decode()
    assert world.player.number in body
    assert world.player.last_name not in body


def test_home_page_and_language_switch(client, world):
    assert client.get("/").status_code == 200
    response = client.get(reverse("federation:language"), {"language": "da", "next": "/"})
    assert response.status_code == 302
    assert client.cookies["django_language"].value == "da"


def test_every_list_bounds_its_page_size_d_q55(client, world):
    """D-Q55 on every list page: ``?per_page=`` outside the offered sizes shows the usual page (never a 500
    for a negative size, never every row for a huge one)."""
    for address in (
        reverse("clubs:list"),
        reverse("clubs:detail", args=[world.club_a.pk]),
        reverse("tournaments:list"),
    ):
        for asked in ("-1", "0", "abc", "1000000000"):
            response = client.get(address, {"per_page": asked})
            assert response.status_code == 200, (address, asked)
            assert response.context["table"].paginator.per_page == 50, (address, asked)
