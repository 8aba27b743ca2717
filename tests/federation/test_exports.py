"""Exports are safe to open in a spreadsheet: a name that begins like a formula is written as text, in the
rankings' CSV and XLSX and in the HBS what-if CSV (one helper, ``federation.exports``)."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from federation.exports import csv_cell
from masterpoints.standings.services import standings_refresh_players
from tests.factories import make_player, post_award

HOSTILE = ['=HYPERLINK("http://x")', "+1+1", "-2+3", "@SUM(A1)", "\tTab", "\rCR"]


@pytest.mark.parametrize("text", HOSTILE)
def test_text_that_reads_as_a_formula_gets_an_apostrophe(text):
    assert csv_cell(text) == "'" + text


@pytest.mark.parametrize("value", ["12", "-0.5", "30.7", "-", "Jørgen", 7])
def test_numbers_and_plain_text_are_written_as_they_are(value):
    assert csv_cell(value) == value


@pytest.fixture
def hostile_player(world):
    player = make_player(world.dbf, "66601", first='=HYPERLINK("http://evil")', last="@SUM(A1)")
    post_award(player, "BP", 120)
    standings_refresh_players(federation=world.dbf, player_ids=[player.pk])
    return player


def test_the_rankings_csv_writes_a_formula_like_name_as_text(client, world, hostile_player):
    response = client.get(reverse("public:rankings"), {"federation": world.dbf.pk, "export": "csv"})
    rows = list(csv.reader(io.StringIO(response.getvalue().decode("utf-8-sig"))))
    cells = [cell for row in rows for cell in row]
    assert any(cell.startswith("'=HYPERLINK") or cell.startswith("'@SUM") for cell in cells), cells
    assert not any(cell.startswith(("=", "@", "+")) for cell in cells)


def test_the_rankings_xlsx_stores_names_as_text_and_points_as_numbers(client, world, hostile_player):
    response = client.get(reverse("public:rankings"), {"federation": world.dbf.pk, "export": "xlsx"})
    sheet = load_workbook(io.BytesIO(response.getvalue())).active
    values = [cell for row in sheet.iter_rows() for cell in row]
    texts = [cell.value for cell in values if isinstance(cell.value, str)]
    assert all(cell.data_type != "f" for cell in values)
    assert not any(text.startswith(("=", "@", "+")) for text in texts), texts
    assert any(isinstance(cell.value, int | float) and cell.value == 120 for cell in values)


def test_danish_and_croatian_csv_use_a_semicolon_and_a_decimal_comma_issue_38():
    from federation.exports import csv_write

    rows = [["Navn", "MP", "BP"], ["=Hansen", "30.7", 12], ["Jensen, Ib", Decimal("0.50"), 0]]
    for language in ("da", "hr"):
        out = io.StringIO()
        csv_write(out, rows, language=language)
        assert out.getvalue().splitlines() == ["Navn;MP;BP", "'=Hansen;30,7;12", "Jensen, Ib;0,50;0"]
    out = io.StringIO()
    csv_write(out, rows, language="en")
    assert out.getvalue().splitlines() == ["Navn,MP,BP", "'=Hansen,30.7,12", '"Jensen, Ib",0.50,0']
