"""The rankings' filter form is rendered once for each language and set of values asked, and kept with the
federation's choices it offers (issue 16: rendering it cost 0.76 ms of each rankings page not kept). A kept
form must show what a fresh one shows: the values asked, in the reader's language, with the clubs offered now.
"""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache

from clubs.models import Club
from masterpoints.public import filters, ranks, views


def chosen(page: str, name: str) -> list[str]:
    """The values marked selected in the page's ``<select name=…>``."""
    select = re.search(rf'<select[^>]* name="{name}"[^>]*>(.*?)</select>', page, re.S)
    assert select, name
    return re.findall(r'<option value="([^"]*)" selected>', select.group(1))


@pytest.fixture
def renders(monkeypatch) -> list[int]:
    """Each rendering of the form (its page size), counted."""
    done: list[int] = []
    original = views._filters_html

    def counted(filterset, label, size=None):
        done.append(size)
        return original(filterset, label, size)

    monkeypatch.setattr(views, "_filters_html", counted)
    return done


def test_the_form_is_rendered_once_for_the_values_asked_and_shows_them(world, client, renders):
    base = f"/rankings/?federation={world.dbf.pk}&club={world.club_a.pk}"
    for url in (base, f"{base}&sort=name", f"{base}&sort=-mp", f"{base}&page=1"):
        page = client.get(url).content.decode()
        assert chosen(page, "club") == [str(world.club_a.pk)], url
    assert renders == [50]  # another order or page of the same filter: the form kept

    page = client.get(f"/rankings/?federation={world.dbf.pk}&club={world.club_b.pk}").content.decode()
    assert chosen(page, "club") == [str(world.club_b.pk)]
    page = client.get(f"{base}&per_page=25").content.decode()
    assert chosen(page, "club") == [str(world.club_a.pk)] and chosen(page, "per_page") == ["25"]
    assert renders == [50, 50, 25]


def test_a_kept_form_follows_the_readers_language(world, client, renders):
    url = f"/rankings/?federation={world.dbf.pk}&region={world.district.pk}"
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    danish = client.get(url, HTTP_ACCEPT_LANGUAGE="da").content.decode()
    assert "Rows per page" in english and "Rækker pr. side" in danish
    assert '<label for="id_club">Klub</label>' in danish
    assert chosen(danish, "region") == [str(world.district.pk)]
    assert len(renders) == 2


def test_a_new_club_is_offered_once_the_kept_choices_are_renewed(world, client, renders, monkeypatch):
    """The forms are forgotten with the choices they were rendered from (kept for at most
    ``RANK_INDEX_SECONDS``), so a club the secretariat adds is offered in a form asked before."""
    url = f"/rankings/?federation={world.dbf.pk}&club={world.club_a.pk}"
    assert "Nyklubben" not in client.get(url).content.decode()
    added = Club.objects.create(federation=world.dbf, number="1009", name="Nyklubben")
    cache.clear()
    monkeypatch.setattr(ranks, "RANK_INDEX_SECONDS", -1)  # the kept choices have grown old
    page = client.get(url).content.decode()
    assert f'<option value="{added.pk}">Nyklubben</option>' in page
    assert chosen(page, "club") == [str(world.club_a.pk)]
    assert len(renders) == 2


def test_at_most_the_newest_kept_forms_are_kept(world, client, renders, monkeypatch):
    monkeypatch.setattr(filters, "KEPT_FORMS", 2)
    base = f"/rankings/?federation={world.dbf.pk}"
    for url in (f"{base}&club={world.club_a.pk}", f"{base}&club={world.club_b.pk}", base):
        client.get(url)
    assert len(filters._choices(world.dbf)["forms"]) == 2
    assert len(renders) == 3
    client.get(f"{base}&club={world.club_a.pk}&sort=name")  # club A's form was the oldest: dropped
    assert len(renders) == 4
    client.get(f"{base}&sort=name")  # the whole list's form is still kept
    assert len(renders) == 4


def test_the_ranking_lists_form_is_its_own_and_kept_the_same_way(world, client, renders):
    """DBf's ranking list (D-Q56–D-Q60) has the rankings' filters but no rows per page and its own name; the
    two lists keep their forms apart for the same values asked."""
    query = f"?federation={world.dbf.pk}&club={world.club_a.pk}"
    rankings = client.get(f"/rankings/{query}").content.decode()
    listed = client.get(f"/rankings/ranking-list/{query}").content.decode()
    assert 'aria-label="Filter the rankings"' in rankings and 'name="per_page"' in rankings
    assert 'aria-label="Filter the ranking list"' in listed and 'name="per_page"' not in listed
    assert chosen(listed, "club") == [str(world.club_a.pk)]
    client.get(f"/rankings/ranking-list/{query}")  # rendered again, its form kept
    other = client.get(f"/rankings/ranking-list/?federation={world.dbf.pk}&club={world.club_b.pk}").content.decode()
    assert chosen(other, "club") == [str(world.club_b.pk)]
    assert renders == [50, None, None]
    danish = client.get(f"/rankings/ranking-list/{query}", HTTP_ACCEPT_LANGUAGE="da").content.decode()
    assert 'aria-label="Filtrér ranglisten"' in danish
