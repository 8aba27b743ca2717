"""Issue 36: the rankings' downloads hold the whole list as filtered and sorted, streamed a chunk at a time
(no 10,000-row cut), cell for cell what the page's table exports, and count against a per-client limit."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from federation.exports import csv_write
from federation.schemes import scheme_of
from masterpoints.public import exports, selectors
from masterpoints.public.tables import StandingTable
from masterpoints.standings.services import standings_refresh_players
from tests.factories import DAY, make_player, post_award

PLAYERS = 30
CHUNK = 7
PROXY = "10.0.0.5"
ALICE, BOB = "203.0.113.7", "198.51.100.23"


@pytest.fixture
def crowd(world, settings):
    """30 DBf players with BP, SP and GP in units no float writes exactly (307 units of 0.1 SP: 30.7 SP),
    every third hiding their name, half at home in club A; chunks of 7 rows (five chunks)."""
    settings.RANKINGS_EXPORT_CHUNK_SIZE = CHUNK
    players = []
    for index in range(PLAYERS):
        player = make_player(
            world.dbf,
            str(60001 + index),
            first="Ida",
            last=f"Holm{index:02d}",
            club=world.club_a if index % 2 else None,
            hide_name=index % 3 == 0,
        )
        post_award(player, "BP", 100 + index)
        post_award(player, "SP", 307 + index)
        post_award(player, "GP", 1 + index * 3)
        players.append(player)
    standings_refresh_players(federation=world.dbf, player_ids=[p.pk for p in players])
    return world


def download(client, **query) -> tuple[list[list[str]], object]:
    response = client.get(reverse("public:rankings"), query)
    assert response.status_code == 200, response
    return list(csv.reader(io.StringIO(response.getvalue().decode("utf-8-sig")))), response


def table_export(world, *, see_hidden: bool, **filters) -> list[list[str]]:
    """What the table-rendered export of today wrote for the same list: the table's ``as_values`` through
    the same CSV writer, in English."""
    queryset = selectors.ranked(
        selectors.ranking_base(federation=world.dbf, season=filters.get("season")), scheme="dbf", kind=None
    )
    table = StandingTable(queryset, federation=world.dbf, see_hidden=see_hidden, orderable=False)
    out = io.StringIO()
    csv_write(out, table.as_values(), language="en")
    return list(csv.reader(io.StringIO(out.getvalue())))


def test_the_csv_holds_every_row_in_chunks_each_cell_as_the_table_exports_it(client, crowd):
    rows, response = download(client, federation=crowd.dbf.pk, export="csv")
    assert response.streaming and response["Content-Disposition"] == 'attachment; filename="rankings-dbf.csv"'
    assert len(rows) == PLAYERS + 1
    assert rows == table_export(crowd, see_hidden=False)
    pieces = list(client.get(reverse("public:rankings"), {"federation": crowd.dbf.pk, "export": "csv"}))
    assert len(pieces) == 1 + -(-PLAYERS // CHUNK), "the header, then one piece per chunk of rows"


def test_points_are_the_units_with_the_kinds_decimals_never_a_float(client, crowd):
    rows, _response = download(client, federation=crowd.dbf.pk, export="csv", q="60002")
    header, (row,) = rows[0], rows[1:]
    cell = dict(zip(header, row, strict=True))
    # 101 BP, 308 units of 0.1 SP, 4 units of 0.01 GP: 1.01 + 3.08 + 0.04 MP (§ 402).
    assert (cell["BP"], cell["SP"], cell["GP"], cell["MP"]) == ("101", "30.8", "0.04", "4.13")
    assert (cell["No."], cell["Player"], cell["Club"]) == ("60002", "Ida Holm01", crowd.club_a.name)


def test_a_hidden_name_is_the_number_unless_the_viewer_may_see_it(client, crowd, personas):
    rows, _response = download(client, federation=crowd.dbf.pk, export="csv", sort="number")
    names = {row[1]: row[2] for row in rows[1:]}
    assert names["60001"] == "60001" and names["60002"] == "Ida Holm01" and "Holm00" not in str(rows)
    client.force_login(personas.secretariat)
    rows, _response = download(client, federation=crowd.dbf.pk, export="csv")
    assert {row[1]: row[2] for row in rows[1:]}["60001"] == "Ida Holm00"
    assert rows == table_export(crowd, see_hidden=True)


def test_the_csv_follows_the_filters_the_order_and_the_season(client, crowd):
    rows, _response = download(client, federation=crowd.dbf.pk, export="csv", club=crowd.club_a.pk, sort="-number")
    numbers = [row[1] for row in rows[1:]]
    assert len(numbers) == PLAYERS // 2 and numbers == sorted(numbers, reverse=True)
    assert numbers[-1] == "60002" and all(int(number) % 2 == 0 for number in numbers)  # club A: every second
    season = scheme_of("dbf").season_of(DAY)
    rows, response = download(client, federation=crowd.dbf.pk, export="csv", season=season)
    assert len(rows) == PLAYERS + 1 and rows == table_export(crowd, see_hidden=False, season=season)
    assert response["Content-Disposition"] == f'attachment; filename="rankings-dbf-{season}.csv"'


def test_danish_writes_semicolons_and_decimal_commas_in_every_chunk(client, crowd):
    client.cookies["django_language"] = "da"
    response = client.get(reverse("public:rankings"), {"federation": crowd.dbf.pk, "export": "csv"})
    text = response.getvalue().decode("utf-8-sig")
    lines = text.splitlines()
    assert lines[0].startswith("Placering;") and len(lines) == PLAYERS + 1
    assert all(";" in line and "30.7" not in line for line in lines)
    assert any(";30,7;" in line for line in lines)


def test_the_xlsx_holds_the_list_up_to_its_stated_bound(client, crowd, monkeypatch):
    response = client.get(reverse("public:rankings"), {"federation": crowd.dbf.pk, "export": "xlsx"})
    assert response["Content-Disposition"] == 'attachment; filename="rankings-dbf.xlsx"'
    sheet = load_workbook(io.BytesIO(response.getvalue())).active
    assert sheet.max_row == PLAYERS + 1
    monkeypatch.setattr(exports, "XLSX_MAX_ROWS", 12)
    response = client.get(reverse("public:rankings"), {"federation": crowd.dbf.pk, "export": "xlsx"})
    assert load_workbook(io.BytesIO(response.getvalue())).active.max_row == 12 + 1


def test_the_page_says_the_csv_is_whole_and_the_xlsx_bound(client, crowd):
    body = client.get(reverse("public:rankings"), {"federation": crowd.dbf.pk}).content.decode()
    assert "the CSV holds the whole list, the XLSX at most 100,000 rows" in body
    client.cookies["django_language"] = "da"
    body = client.get(reverse("public:rankings"), {"federation": crowd.dbf.pk}).content.decode()
    assert "CSV-filen rummer hele listen, XLSX-filen højst 100.000 rækker" in body


@pytest.fixture
def behind_one_proxy(settings):
    settings.TRUSTED_PROXY_COUNT = 1


def through_proxy(address: str) -> dict:
    return {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": f"1.2.3.4, {address}"}


def test_downloads_are_limited_per_client_naming_the_limit(client, crowd, rate_window, behind_one_proxy):
    address = reverse("public:rankings")
    for number in range(exports.EXPORT_RATE_PER_MINUTE):
        export = "csv" if number % 2 else "xlsx"
        response = client.get(address, {"federation": crowd.dbf.pk, "export": export}, **through_proxy(ALICE))
        assert response.status_code == 200
    refused = client.get(address, {"federation": crowd.dbf.pk, "export": "csv"}, **through_proxy(ALICE))
    assert refused.status_code == 429 and refused["Retry-After"] == "60"
    assert f"at most {exports.EXPORT_RATE_PER_MINUTE} a minute" in refused.content.decode()
    assert client.get(address, {"federation": crowd.dbf.pk}, **through_proxy(ALICE)).status_code == 200, (
        "the page itself is not a download"
    )
    other = client.get(address, {"federation": crowd.dbf.pk, "export": "csv"}, **through_proxy(BOB))
    assert other.status_code == 200, "another client has a count of its own"


def test_a_download_tells_postgresql_it_reads_every_row_and_restores_the_setting_after(client, crowd):
    """The cursor's query is planned for every row while the download reads it (``cursor_tuple_fraction``
    1.0), and the connection, kept for the next request, is left as it was."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL): cursor_tuple_fraction is PostgreSQL's planner setting")

    def setting() -> str:
        with connection.cursor() as cursor:
            cursor.execute("SHOW cursor_tuple_fraction")
            return cursor.fetchone()[0]

    response = client.get(reverse("public:rankings"), {"federation": crowd.dbf.pk, "export": "csv"})
    stream = iter(response.streaming_content)
    next(stream)  # the header
    next(stream)  # the first chunk: the cursor is open
    assert setting() == "1"
    rest = b"".join(stream)
    assert rest.count(b"\n") == PLAYERS - CHUNK and setting() == "0.1"
