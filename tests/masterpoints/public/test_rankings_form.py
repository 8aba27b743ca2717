"""The rankings' filter form, read from the database with each request (issue 36: no forms or choices kept
per process). It offers the clubs of the region chosen only (a federation's thousand clubs made the page
337 KB at a million players), accepts a club a link names, and says so when a region or club is not the
federation's. A form shows the values asked, in the reader's language, with the clubs there are now."""

from __future__ import annotations

import re

from clubs.models import Club
from federation.models import Region


def select(page: str, name: str) -> str:
    found = re.search(rf'<select[^>]* name="{name}"[^>]*>(.*?)</select>', page, re.S)
    assert found, name
    return found.group(1)


def chosen(page: str, name: str) -> list[str]:
    """The values marked selected in the page's ``<select name=…>``."""
    return re.findall(r'<option value="([^"]*)" selected>', select(page, name))


def offered(page: str, name: str) -> list[str]:
    """The labels of the ``<select name=…>``'s options other than "all"."""
    return [label for value, label in re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)<', select(page, name)) if value]


def test_the_form_shows_the_values_asked(world, client):
    base = f"/rankings/?federation={world.dbf.pk}&region={world.district.pk}&club={world.club_a.pk}"
    for url in (base, f"{base}&sort=name", f"{base}&page=1"):
        page = client.get(url).content.decode()
        assert chosen(page, "club") == [str(world.club_a.pk)], url
        assert chosen(page, "region") == [str(world.district.pk)], url
    page = client.get(f"{base}&per_page=25").content.decode()
    assert chosen(page, "per_page") == ["25"]


def test_the_form_follows_the_readers_language(world, client):
    url = f"/rankings/?federation={world.dbf.pk}&region={world.district.pk}"
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    danish = client.get(url, HTTP_ACCEPT_LANGUAGE="da").content.decode()
    assert "Rows per page" in english and "Rækker pr. side" in danish
    assert '<label for="id_club">Klub</label>' in danish
    assert chosen(danish, "region") == [str(world.district.pk)]


def test_a_region_offers_its_own_clubs_and_no_region_none_with_a_hint(world, client):
    """A district offers its clubs and its circles' clubs; without a region the club field lists no club and
    says how to choose one (the hint tied to the field for screen readers)."""
    elsewhere = Club.objects.create(federation=world.dbf, number="1003", name="Klubben uden region")
    Club.objects.create(federation=world.hbs, number="102", name="BK Split")
    page = client.get(f"/rankings/?federation={world.dbf.pk}").content.decode()
    assert offered(page, "club") == []
    assert elsewhere.name not in page and world.club_a.name not in select(page, "club")
    assert 'aria-describedby="id_club_helptext"' in page
    assert '<small id="id_club_helptext">Choose a region and press Show to list its clubs.</small>' in page

    district = client.get(f"/rankings/?federation={world.dbf.pk}&region={world.district.pk}").content.decode()
    assert offered(district, "club") == [world.club_a.name]
    assert "id_club_helptext" not in district
    circle = client.get(f"/rankings/?federation={world.dbf.pk}&region={world.circle.pk}").content.decode()
    assert offered(circle, "club") == [world.club_a.name]
    other = client.get(f"/rankings/?federation={world.dbf.pk}&region={world.other_district.pk}").content.decode()
    assert offered(other, "club") == [world.club_b.name]


def test_a_club_a_link_names_is_chosen_without_a_region(world, client):
    """``?club=<id>`` from a link (a club's page, a shared address) filters the list and shows the club chosen,
    with or without its region."""
    page = client.get(f"/rankings/?federation={world.dbf.pk}&club={world.club_b.pk}").content.decode()
    assert chosen(page, "club") == [str(world.club_b.pk)] and offered(page, "club") == [world.club_b.name]
    assert "errorlist" not in page
    inside = client.get(
        f"/rankings/?federation={world.dbf.pk}&region={world.district.pk}&club={world.club_b.pk}"
    ).content.decode()
    assert chosen(inside, "club") == [str(world.club_b.pk)]
    assert offered(inside, "club") == [world.club_a.name, world.club_b.name]


def test_a_club_or_region_not_of_the_federation_is_a_clear_error(world, client):
    """A club of another federation, one that does not exist or no id at all: the form says so at the field
    (aria-invalid, the error tied to it), opens the filters and lists nobody rather than everybody."""
    for club in (str(world.club_hr.pk), "999999", "abc"):
        response = client.get("/rankings/", {"federation": world.dbf.pk, "club": club})
        assert response.status_code == 200
        page = response.content.decode()
        assert '<ul class="errorlist" id="id_club_error"><li>Not a club of this federation' in page, club
        assert 'aria-invalid="true"' in page and 'aria-describedby="id_club_helptext id_club_error"' in page
        assert '<details class="filters-toggle" open>' in page
        assert "No player matches these filters." in page
    other = Region.objects.create(federation=world.hbs, code="dalmacija", name="Dalmacija", kind="district")
    page = client.get("/rankings/", {"federation": world.dbf.pk, "region": other.pk}).content.decode()
    assert "Not a region of this federation." in page
    fine = client.get("/rankings/", {"federation": world.dbf.pk, "club": world.club_a.pk}).content.decode()
    assert "errorlist" not in fine and '<details class="filters-toggle">' in fine


def test_a_new_club_is_offered_at_once(world, client):
    url = f"/rankings/?federation={world.dbf.pk}&region={world.other_district.pk}"
    assert "Nyklubben" not in client.get(url).content.decode()
    added = Club.objects.create(federation=world.dbf, number="1009", name="Nyklubben")
    added.regions.set([world.other_district])
    page = client.get(url + "&page=1").content.decode()  # another address: not the page cached
    assert offered(page, "club") == [world.club_b.name, "Nyklubben"]


def test_a_thousand_clubs_are_not_listed_on_the_rankings(world, client):
    """The page's size does not grow with the federation's clubs (issue 36: 313 KB of 337 KB were the club list)."""
    Club.objects.bulk_create(
        Club(federation=world.dbf, number=str(5000 + n), name=f"Klub nummer {n}") for n in range(1000)
    )
    page = client.get(f"/rankings/?federation={world.dbf.pk}").content.decode()
    assert "Klub nummer" not in page


def test_the_ranking_lists_form_is_its_own(world, client):
    """DBf's ranking list (D-Q56–D-Q60) has the rankings' filters but no rows per page and its own name."""
    query = f"?federation={world.dbf.pk}&club={world.club_a.pk}"
    rankings = client.get(f"/rankings/{query}").content.decode()
    listed = client.get(f"/rankings/ranking-list/{query}").content.decode()
    assert 'aria-label="Filter the rankings"' in rankings and 'name="per_page"' in rankings
    assert 'aria-label="Filter the ranking list"' in listed and 'name="per_page"' not in listed
    assert chosen(listed, "club") == [str(world.club_a.pk)]
    other = client.get(f"/rankings/ranking-list/?federation={world.dbf.pk}&club={world.club_b.pk}").content.decode()
    assert chosen(other, "club") == [str(world.club_b.pk)]
    danish = client.get(f"/rankings/ranking-list/{query}", HTTP_ACCEPT_LANGUAGE="da").content.decode()
    assert 'aria-label="Filtrér ranglisten"' in danish
