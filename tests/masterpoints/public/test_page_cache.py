"""Issue 16: anonymous readers get the rankings and a player's page whole from the cache, answered by ETag
with 304, marked for proxies; the page holds nothing of one reader; a standings change shows at once; a
logged-in reader's page is never one kept for anonymous readers (masterpoints.public.page_cache)."""

from __future__ import annotations

import gzip

from django.db import connection
from django.http import HttpResponse
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from masterpoints.public import page_cache
from masterpoints.public.page_cache import KeptPage
from masterpoints.standings.services import standings_refresh_players
from tests.factories import make_player, post_award


def player_page(player) -> str:
    return reverse("public:player", args=[player.federation.code, player.number])


def rankings(world) -> str:
    return f"{reverse('public:rankings')}?federation={world.dbf.pk}"


def paid(player, units: int) -> None:
    post_award(player, "BP", units)
    standings_refresh_players(federation=player.federation, player_ids=[player.pk])


def test_an_anonymous_page_is_served_whole_from_the_cache_with_no_query_and_no_csrf_token(client, world):
    paid(world.player, 300)
    for address in (player_page(world.player), rankings(world)):
        first = client.get(address)
        assert first.status_code == 200
        assert "csrfmiddlewaretoken" not in first.content.decode()
        assert not first.cookies  # nothing set for one reader
        with CaptureQueriesContext(connection) as queries:
            again = client.get(address)
        assert len(queries) == 0, [q["sql"] for q in queries]
        assert again.content == first.content and again["ETag"] == first["ETag"]
        control = again["Cache-Control"]
        assert "public" in control and "s-maxage=30" in control and "max-age=0" in control
        assert "Accept-Language" in again["Vary"] and "Cookie" in again["Vary"]


def test_a_conditional_request_is_answered_304_until_the_standings_change(client, world):
    paid(world.player, 300)
    address = player_page(world.player)
    etag = client.get(address)["ETag"]
    unchanged = client.get(address, HTTP_IF_NONE_MATCH=etag)
    assert unchanged.status_code == 304 and unchanged.content == b"" and unchanged["ETag"] == etag
    paid(world.player, 200)  # the standings version rises in the update's transaction
    changed = client.get(address, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert "500" in changed.content.decode().split('class="balances"', 1)[1].split("</dl>", 1)[0]


def test_a_cached_rankings_page_shows_a_new_award_at_once(client, world):
    newcomer = make_player(world.dbf, "4242", last="Nykommer", club=world.club_a)
    assert "Nykommer" not in client.get(rankings(world)).content.decode()
    paid(newcomer, 900)
    assert "Nykommer" in client.get(rankings(world)).content.decode()


def test_each_language_has_its_own_page(client, world):
    address = player_page(world.player)
    client.cookies["django_language"] = "da"
    danish = client.get(address)
    client.cookies["django_language"] = "en"
    english = client.get(address)
    assert danish["Content-Language"] == "da" and english["Content-Language"] == "en"
    assert danish["ETag"] != english["ETag"] and danish.content != english.content


def test_a_logged_in_reader_never_gets_the_anonymous_page_nor_leaves_theirs(client, world, personas):
    address = player_page(world.player)
    anonymous = client.get(address)
    client.force_login(personas.director_a)
    mine = client.get(address, HTTP_IF_NONE_MATCH=anonymous["ETag"])
    assert mine.status_code == 200 and "Log out" in mine.content.decode() and "ETag" not in mine
    client.logout()
    client.cookies.pop("sessionid", None)
    again = client.get(address)
    assert "Log out" not in again.content.decode() and "Log in" in again.content.decode()


def test_an_unknown_federation_or_player_is_not_kept(client, world):
    assert client.get("/players/nosuch/1/").status_code == 404
    assert client.get(reverse("public:player", args=["dbf", "99999"])).status_code == 404
    make_player(world.dbf, "99999", last="Sent")
    assert client.get(reverse("public:player", args=["dbf", "99999"])).status_code == 200


def test_the_language_switch_is_a_link_that_sets_the_readers_cookie(client, world):
    body = client.get("/").content.decode()
    form = body.split('class="lang-switch"', 1)[0].rsplit("<form", 1)[1]
    assert 'method="get"' in form and reverse("federation:language") in form
    response = client.get(reverse("federation:language"), {"language": "hr", "next": rankings(world)})
    assert response.status_code == 302 and response.url == rankings(world)
    assert client.cookies["django_language"].value == "hr"
    assert client.get(rankings(world))["Content-Language"] == "hr"


def test_the_language_switch_refuses_an_unknown_language_and_a_foreign_next(client, world):
    refused = client.get(reverse("federation:language"), {"language": "xx"})
    assert refused.status_code == 400
    assert "en (English)" in refused.content.decode() and "da (Danish)" in refused.content.decode()
    away = client.get(reverse("federation:language"), {"language": "da", "next": "https://evil.example/"})
    assert away.status_code == 302 and away.url == "/"
    assert client.post(reverse("federation:language"), {"language": "da"}).status_code == 405


def test_a_version_read_just_before_a_commit_does_not_outlive_it(client, world, django_capture_on_commit_callbacks):
    """A reader elsewhere that read the old version from the database while an update was committing, and
    kept it in the cache, must not keep serving the old pages: the commit sets the new version."""
    from django.core.cache import cache

    from masterpoints.standings.versions import standings_version, standings_version_cached, version_key

    paid(world.player, 300)
    handle = f"code:{world.dbf.code}"
    old = standings_version_cached(handle)
    with django_capture_on_commit_callbacks(execute=True):
        post_award(world.player, "BP", 200)
        standings_refresh_players(federation=world.dbf, player_ids=[world.player.pk])
    cache.add(version_key(handle), old)  # the other reader: read before the commit, kept after it
    assert standings_version_cached(handle) == f"{world.dbf.pk}/{standings_version(world.dbf.pk)}" != old
    page = client.get(player_page(world.player)).content.decode()
    assert "500" in page.split('class="balances"', 1)[1].split("</dl>", 1)[0]


def test_a_players_ledger_shows_the_25_newest_awards_a_page_and_more_on_request_d_q55(client, world):
    """Issue 16 with D-Q55: the ledger's first page holds the 25 newest awards (a phone's page, rendered in a
    quarter of the time of a hundred); the next page and ``?per_page=`` (one of the offered sizes) show
    the rest."""
    import datetime

    for day in range(30):
        post_award(world.player, "BP", 1 + day, day=datetime.date(2025, 1, 1) + datetime.timedelta(days=day))
    standings_refresh_players(federation=world.dbf, player_ids=[world.player.pk])

    def rows(**query) -> int:
        body = client.get(player_page(world.player), query).content.decode()
        return body.split('class="table awards"', 1)[1].split("<tbody", 1)[1].split("</tbody>", 1)[0].count("<tr")

    assert rows() == 25 and rows(page=2) == 5 and rows(per_page=100) == 30 and rows(per_page=7) == 25


def test_the_etag_follows_the_pages_bytes_not_only_the_standings(client, world):
    """A change the standings version does not see (a new name, a new release's template) gives a new ETag
    once the page is rendered again; a page rendered again unchanged keeps its ETag (304)."""
    from django.core.cache import cache

    address = player_page(world.player)
    etag = client.get(address)["ETag"]
    cache.clear()  # the kept page expired
    assert client.get(address, HTTP_IF_NONE_MATCH=etag).status_code == 304
    world.player.last_name = "Omdøbt"
    world.player.save()
    cache.clear()
    renamed = client.get(address, HTTP_IF_NONE_MATCH=etag)
    assert renamed.status_code == 200 and renamed["ETag"] != etag and "Omdøbt" in renamed.content.decode()


def test_made_up_parameters_far_pages_and_logged_in_readers_are_not_kept(client, world, personas):
    """Only addresses whose parameters the page reads are kept, up to page 20, so made-up parameters cannot
    fill the cache; what is rendered for one reader tells every proxy to keep nothing."""
    for query in ({"made_up": "1"}, {"page": "21"}, {"page": ["1", "2"]}):
        response = client.get(rankings(world), query)
        assert "ETag" not in response and "private" in response["Cache-Control"], query
    assert "ETag" in client.get(rankings(world), {"page": "1", "per_page": "25"})
    client.force_login(personas.director_a)
    mine = client.get(player_page(world.player))
    assert "private" in mine["Cache-Control"] and "no-store" in mine["Cache-Control"] and "ETag" not in mine


def test_an_address_made_up_to_fill_the_cache_fills_nothing_not_even_the_rankings_table(client, world):
    """The rankings' table is kept apart from the whole page (for logged-in readers): it follows the same rule,
    so a thousand made-up parameters leave the cache as it was, and the page is still the list."""
    from django.core.cache import cache as shared

    kept = client.get(rankings(world), {"page": "1"})
    assert "ETag" in kept
    before = set(shared._cache)  # the tests' cache is the embedded one (LocMemCache), whose keys show
    for n in range(30):
        response = client.get(rankings(world), {"page": "1", "made_up": str(n)})
        assert response.status_code == 200 and 'class="table ranking"' in response.content.decode()
    assert set(shared._cache) == before


def test_an_unknown_federation_id_is_not_kept_under_a_version_that_never_changes(client, world):
    """``?federation=`` naming no federation falls back to the first one; such a page is never kept, so a
    standings change of that federation shows on it at once."""
    address = f"{reverse('public:rankings')}?federation=987654"
    newcomer = make_player(world.dbf, "4343", last="Tilflytter", club=world.club_a)
    first = client.get(address)
    assert first.status_code == 200 and "ETag" not in first
    paid(newcomer, 900)
    assert "Tilflytter" in client.get(address).content.decode()


def test_an_address_written_otherwise_is_not_kept_under_another_federations_version(client, world):
    """``?federation=05``, ``page=01`` or a page size not offered are other addresses for the same or a
    fallback page: rendered for the reader, never kept (the filter reads ``05`` as no federation)."""
    base = reverse("public:rankings")
    for query in (f"federation=0{world.dbf.pk}", f"federation={world.dbf.pk}&page=01", "per_page=30"):
        response = client.get(f"{base}?{query}")
        assert response.status_code == 200 and "ETag" not in response, query
    assert client.get(f"/players/{'x' * 21}/12345/").status_code == 404


def test_a_reader_who_accepts_gzip_gets_the_kept_page_compressed_with_its_own_etag(client, world):
    paid(world.player, 300)
    address = rankings(world)
    plain = client.get(address)
    packed = client.get(address, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert packed["Content-Encoding"] == "gzip" and "Content-Encoding" not in plain
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) < len(plain.content) / 3
    assert (
        packed["ETag"] != plain["ETag"] and "Accept-Encoding" in packed["Vary"] and "Accept-Encoding" in plain["Vary"]
    )
    assert client.get(address, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=packed["ETag"]).status_code == 304
    # The identity page's ETag names other bytes than the compressed ones: a full answer, compressed.
    other = client.get(address, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=plain["ETag"])
    assert other.status_code == 200 and other["Content-Encoding"] == "gzip"
    assert client.get(address, HTTP_ACCEPT_ENCODING="identity")["ETag"] == plain["ETag"]
    # A weight of 0 refuses gzip (RFC 9110 § 12.5.3); any other weight accepts it.
    assert "Content-Encoding" not in client.get(address, HTTP_ACCEPT_ENCODING="gzip;q=0, identity")
    assert client.get(address, HTTP_ACCEPT_ENCODING="br, GZIP; q=0.5")["Content-Encoding"] == "gzip"


def test_a_page_rendered_for_one_reader_is_never_compressed_by_the_page_cache(client, world, personas):
    # A logged-in reader's page carries their CSRF token: compressing it could reveal it (BREACH).
    client.force_login(personas.player)
    response = client.get(rankings(world), HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200 and "Content-Encoding" not in response


def test_a_page_too_short_to_gain_from_gzip_is_kept_as_it_is_for_every_reader():
    short = HttpResponse(b"<p>ok</p>", content_type="text/html")
    assert KeptPage.of("1/1", short, gzip=True) == KeptPage.of("1/1", short, gzip=False)
    assert not KeptPage.of("1/1", short, gzip=True).gzipped
    long = HttpResponse(b"<tr><td>row</td></tr>" * 100, content_type="text/html")
    plain, packed = KeptPage.of("1/1", long, gzip=False), KeptPage.of("1/1", long, gzip=True)
    assert packed.gzipped and gzip.decompress(packed.body) == plain.body and packed.etag != plain.etag


def test_a_browsers_page_is_kept_compressed_only_until_a_reader_asks_for_it_as_it_is(client, world, monkeypatch):
    """Each form of a kept page is written once a reader asked for it: a browser's visit writes the
    compressed page alone (a fifth of the bytes), a reader without gzip then gets the page rendered and kept
    as it is, its ETag the one the compressed page's was marked from."""
    written: list[KeptPage] = []
    keep = page_cache.cache.set
    monkeypatch.setattr(
        page_cache.cache,
        "set",
        lambda key, value, timeout: (
            (isinstance(value, KeptPage) and written.append(value)) or keep(key, value, timeout)
        ),
    )
    paid(world.player, 300)
    address = rankings(world)
    packed = client.get(address, HTTP_ACCEPT_ENCODING="gzip")
    assert packed["Content-Encoding"] == "gzip" and [page.gzipped for page in written] == [True]
    assert client.get(address, HTTP_ACCEPT_ENCODING="gzip").status_code == 200 and len(written) == 1
    plain = client.get(address)
    assert "Content-Encoding" not in plain and gzip.decompress(packed.content) == plain.content
    assert packed["ETag"] == f'{plain["ETag"][:-1]}-gzip"'
    assert [page.gzipped for page in written] == [True, False]


def test_a_new_release_never_serves_the_page_the_release_before_kept_issue_33(client, world, settings):
    """Issue 33 (operations): the kept page's key carries ``RELEASE``, so after a deploy the page is rendered by
    the new release's templates even while the standings stand still."""
    paid(world.player, 300)
    address = player_page(world.player)
    settings.RELEASE = "release-1"
    first = client.get(address)
    with CaptureQueriesContext(connection) as queries:
        client.get(address)
    assert len(queries) == 0, "kept for release-1"
    settings.RELEASE = "release-2"
    with CaptureQueriesContext(connection) as queries:
        again = client.get(address)
    assert len(queries) > 0, "release-2 renders its own page"
    assert again.status_code == 200 and again.content == first.content


def test_the_release_is_read_from_the_checkout_without_running_git(tmp_path):
    from config.settings import checkout_release

    assert checkout_release(tmp_path) == ""
    git = tmp_path / ".git"
    (git / "refs" / "heads").mkdir(parents=True)
    (git / "HEAD").write_text("ref: refs/heads/main\n")
    (git / "packed-refs").write_text("# pack-refs\nabc123 refs/heads/main\n")
    assert checkout_release(tmp_path) == "abc123"
    (git / "refs" / "heads" / "main").write_text("def456\n")
    assert checkout_release(tmp_path) == "def456"
    (git / "HEAD").write_text("0123abcd\n")
    assert checkout_release(tmp_path) == "0123abcd"
