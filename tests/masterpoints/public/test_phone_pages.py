"""Issue 18: tournament rows as the scoring program wrote them with each row's points, bounded page sizes
with the page count, the printed filter line, the chart's titles, the upload help per rule book."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from federation.models import Player
from federation.schemes import scheme_of
from federation.tables import PAGE_SIZES, page_size
from masterpoints.public.charts import points_chart
from masterpoints.public.tables import score_decimals, shown_score
from masterpoints.standings.services import standings_refresh_players
from masterpoints.templatetags.points import form_label, scoring_label
from masterpoints.uploads.services import results_upload_confirm, results_upload_create
from tests.factories import make_player, pairs_from_numbers, post_award, usebio_pairs

DAY = datetime.date(2025, 3, 4)


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


def upload(world, numbers, name="Tirsdag"):
    data = usebio_pairs(
        club_number=world.club_a.number, date=DAY, name=name, sections=[pairs_from_numbers(numbers)], boards=24
    )
    stored = results_upload_create(
        actor=None,
        federation=world.dbf,
        club=world.club_a,
        region=None,
        data=data,
        filename="r.xml",
        facts={"organiser_kind": "club", "category": "BP", "form": "", "boards": None, "met": None},
        trusted=True,
    )
    return results_upload_confirm(actor=None, upload=stored, acknowledge_warnings=True, trusted=True)


def players(world, first: int, count: int) -> list[str]:
    numbers = [str(first + i) for i in range(count)]
    for number in numbers:
        make_player(world.dbf, number, first="Mette", last=f"Spiller{number}", club=world.club_a)
    return numbers


# --- scores as the scoring program wrote them (D-Q54) ---------------------------------------------------------


def test_a_score_drops_the_stored_zeros_to_the_groups_precision_d_q54():
    assert score_decimals([Decimal("596.2200"), Decimal("601.1500")]) == 2
    assert shown_score(Decimal("596.2200"), 2) == "596.22"
    # One value with two decimals keeps the column aligned: 55.1 shows as 55.10.
    assert score_decimals([Decimal("55.100"), Decimal("48.250"), None]) == 2
    assert shown_score(Decimal("55.100"), 2) == "55.10"
    assert score_decimals([Decimal("12.0000"), Decimal("-3.0000")]) == 0
    assert shown_score(Decimal("-3.0000"), 0) == "-3"
    assert shown_score(None, 2) == ""
    with translation.override("da"):
        assert shown_score(Decimal("596.2200"), 2) == "596,22"


@pytest.mark.django_db
def test_a_tournament_row_shows_its_percentage_its_points_and_links_its_players(client, world):
    tournament = upload(world, players(world, 40001, 8))
    body = client.get(tournament.get_absolute_url()).content.decode()
    winner = Player.objects.get(number="40001")
    assert f'href="{reverse("public:player", args=["dbf", winner.number])}"' in body
    assert "0000<" not in body  # no 4-decimal stored scores
    entry = tournament.groups.get().entries.get(place_first=1)
    assert f">{shown_score(entry.percentage, score_decimals([entry.percentage]))}<" in body
    units = winner.awards.get().units
    assert f'<td class="num points">{units} BP</td>' in body  # BP: whole points (§ 402)
    assert "4 entries · 24 boards" in body  # the scale, once above the table
    assert body.count('<details class="group-scale">') == 1
    scale = body.split('<details class="group-scale">', 1)[1].split("</details>", 1)[0]
    assert "<code>D</code> = 4" in scale and "<code>M</code> = 2" in scale  # § 406B3 field, mass factor
    assert "<code>place</code>" not in scale  # differs between rows: stays with each row's explanation


@pytest.mark.django_db
def test_the_tournament_page_reads_the_rows_points_without_a_query_per_row(client, world):
    small = upload(world, players(world, 40001, 4), name="Lille")
    large = upload(world, players(world, 50001, 24), name="Stor")
    counts = []
    for tournament in (small, large):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(tournament.get_absolute_url()).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


# --- pages of the rankings (D-Q55) ---------------------------------------------------------------------------


def test_an_offered_page_size_is_kept_and_any_other_falls_back_d_q55():
    assert [page_size(str(size)) for size in PAGE_SIZES] == list(PAGE_SIZES)
    for raw in ("1000", "0", "-25", "abc", "", None, "26"):
        assert page_size(raw) == 50
    assert page_size("7", default=100) == 100


@pytest.fixture
def thirty(world):
    for index in range(30):
        player = make_player(world.dbf, str(60001 + index), first="Mette", last=f"Spiller{index:02}")
        post_award(player, "BP", 100 + index, day=DAY, source="manual", reason="entered by the office")
    standings_refresh_players(federation=world.dbf, player_ids=Player.objects.values_list("pk", flat=True))


def ranking_rows(body: str) -> int:
    return body.split("<tbody>", 1)[1].split("</tbody>", 1)[0].count("<tr>")


@pytest.mark.django_db
def test_the_rankings_show_the_chosen_page_size_and_the_page_count_with_first_and_last(client, thirty):
    body = client.get(reverse("public:rankings"), {"per_page": "25"}).content.decode()
    assert ranking_rows(body) == 25
    assert "Page 1 of 2" in body
    assert '<option value="25" selected>' in body
    assert ">last<" in body and ">first<" not in body
    last = client.get(reverse("public:rankings"), {"per_page": "25", "page": "2"}).content.decode()
    assert ranking_rows(last) == 5 and ">first<" in last and ">last<" not in last


@pytest.mark.django_db
def test_the_headers_and_pages_link_to_the_same_list_otherwise_sorted_or_paged_d_q55(client, world, thirty):
    # Sorting or paging keeps every other filter of the address; the sorted column says its direction to
    # screen readers, the current page is marked, the next and previous are linked as such.
    query = {"per_page": "25", "club": "", "q": "mette", "sort": "name"}
    body = client.get(reverse("public:rankings"), query).content.decode()
    head = body.split("<thead>", 1)[1].split("</thead>", 1)[0]
    assert (
        '<th scope="col" class="' in head
        and 'aria-sort="ascending"><a href="?per_page=25&amp;club=&amp;q=mette&amp;sort=-name">' in head
    )
    assert head.count("aria-sort=") == 1
    pages = body.split('<nav aria-label="Pages" class="pages">', 1)[1].split("</nav>", 1)[0]
    assert '<p class="page-count">Page 1 of 2</p>' in pages
    address = "?per_page=25&amp;club=&amp;q=mette&amp;sort=name&amp;page="
    assert f'<a aria-current="page" class="current" href="{address}1">1</a>' in pages
    assert '<a rel="next" href="?per_page=25&amp;club=&amp;q=mette&amp;sort=name&amp;page=2">next</a>' in pages
    second = client.get(reverse("public:rankings"), {**query, "page": "2"}).content.decode()
    assert 'rel="prev" href="?per_page=25&amp;club=&amp;q=mette&amp;sort=name&amp;page=1">previous<' in second
    assert "<script" not in client.get(reverse("public:rankings"), {"q": "<script>"}).content.decode()


@pytest.mark.django_db
def test_an_unoffered_page_size_shows_the_usual_page_and_a_page_past_the_end_the_last(client, thirty):
    for raw in ("100000", "-1", "x"):
        response = client.get(reverse("public:rankings"), {"per_page": raw})
        assert response.status_code == 200
        assert ranking_rows(response.content.decode()) == 30  # 50 a page: one page
    past = client.get(reverse("public:rankings"), {"per_page": "25", "page": "9"})
    assert past.status_code == 200 and ranking_rows(past.content.decode()) == 5
    assert client.get(reverse("public:rankings"), {"page": "100001"}).status_code == 400  # MAX_PAGE


@pytest.mark.django_db
def test_the_printed_list_names_its_filters_in_one_line(client, world, thirty):
    body = client.get(reverse("public:rankings"), {"club": str(world.club_a.pk)}).content.decode()
    line = body.split('class="print-only filters-line">', 1)[1].split("</p>", 1)[0]
    assert line.startswith("Filters: Federation: DBf")
    assert f"Club: {world.club_a.name}" in line


@pytest.mark.django_db
def test_the_printed_line_leaves_out_what_filters_nothing_and_the_ranking_list_prints_its_own(client, world, thirty):
    """Issue 18 (print): a club or region the federation does not have is an error of the form, and the
    printed line names no filter it did not apply; DBf's ranking list prints its filters like the rankings."""
    body = client.get(reverse("public:rankings"), {"club": "abc", "region": "-1"}).content.decode()
    assert "Not a club of this federation" in body and "Not a region of this federation" in body
    assert "Club: abc" not in body and "Region: -1" not in body
    listed = client.get(reverse("public:ranking_list"), {"federation": world.dbf.pk, "club": world.club_a.pk})
    line = listed.content.decode().split('class="print-only filters-line">', 1)[1].split("</p>", 1)[0]
    assert f"Club: {world.club_a.name}" in line


@pytest.mark.django_db
def test_a_phone_keeps_the_ranked_kinds_points_and_hides_the_others(client, world, thirty):
    body = client.get(reverse("public:rankings"), {"kind": "BP"}).content.decode()
    row = body.split("<tbody>", 1)[1].split("</tr>", 1)[0]
    assert row.count('class="num points"') == 1
    assert row.count('class="num secondary"') == 3  # MP, SP, GP on wider screens only


# --- the chart and the upload form ---------------------------------------------------------------------------


def test_the_chart_marks_the_titles_reached_on_their_day_numbered_and_listed_issue_38():
    """A title registered after the last award's date (D-Q21) is marked on its day, the axis reaching it; each
    mark carries a number on the chart and is listed under it (no hover needed on a phone)."""
    series = [(datetime.date(2024, 1, 1), {"BP": 100}), (datetime.date(2025, 1, 1), {"BP": 500})]
    marks = [(datetime.date(2025, 1, 3), "Klubmester ★"), (datetime.date(2024, 6, 1), "Klubmester")]
    chart = points_chart(series, scheme_of("dbf"), marks)
    svg = str(chart.svg)
    assert svg.count('<g class="mark">') == 2
    assert "<title>1. Klubmester (2024-06-01)</title>" in svg and "<title>2. Klubmester ★ (2025-01-03)</title>" in svg
    assert chart.marks == ((1, "Klubmester", "2024-06-01"), (2, "Klubmester ★", "2025-01-03"))
    xs = [float(part.split('"')[0]) for part in svg.split('<circle cx="')[1:]]
    span = (datetime.date(2025, 1, 3) - datetime.date(2024, 1, 1)).days
    assert xs[0] == pytest.approx(56 + 648 * 152 / span, abs=0.1)  # 1 June: 152 days in, not the left edge
    assert xs[1] == pytest.approx(704, abs=0.1)  # the latest day ends the axis


def test_the_upload_forms_help_texts_follow_the_rule_book():
    dbf = scheme_of("dbf").upload_form(organisers=[], scheme=scheme_of("dbf"))
    hbs = scheme_of("hbs").upload_form(organisers=[], scheme=scheme_of("hbs"))
    assert "per playing day for BP" in dbf.fields["boards"].help_text
    assert "BP" not in hbs.fields["boards"].help_text
    assert "Mini-teams" in dbf.fields["event_form"].help_text
    assert hbs.fields["event_form"].help_text == ""


def test_an_uploads_form_and_scoring_are_named_in_words_not_codes():
    assert form_label("pairs") == "pairs" and scoring_label("MP") == "matchpoints"
    assert scoring_label("BAM") == "board points (point-a-board)"
    assert scoring_label("NEW") == "NEW" and form_label(None) == ""


@pytest.mark.django_db
def test_the_tournament_list_speaks_the_readers_language_issue_18(client, world):
    """Issue 18 (every remaining untranslated label): the tournament list's filters in Danish."""
    client.cookies["django_language"] = "da"
    body = client.get(reverse("tournaments:list")).content.decode()
    assert ">Forbund<" in body and ">Klub<" in body
    assert ">Federation<" not in body and ">Club<" not in body


@pytest.mark.django_db
def test_a_corrected_tournament_names_the_one_it_replaces_with_the_readers_date_issue_18(client, world):
    """Issue 18 (dates in the reader's locale): the tournament page's "Replaces" and "replaced by" links."""
    from tests.factories import make_tournament

    old = make_tournament(world.dbf, world.club_a, key="t-old", day=datetime.date(2026, 10, 31))
    new = make_tournament(world.dbf, world.club_a, key="t-new", day=datetime.date(2026, 10, 31), supersedes=old)
    assert "Mandagsturnering (2026-10-31)" in client.get(new.get_absolute_url()).content.decode()
    client.cookies["django_language"] = "da"
    body = client.get(old.get_absolute_url()).content.decode()
    assert "Mandagsturnering (31. oktober 2026)" in body and "2026-10-31" not in body
