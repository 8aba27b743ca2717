"""A Danish club's spreadsheet export in Latin-1, with no encoding declared, previews with the names as
written (the federation's preferred code pages, formats.md § 5.3), and the director can read the stored
bytes again in another encoding from the preview."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.factories import make_players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DATA = Path(__file__).resolve().parents[1] / "tournaments" / "data"


def test_a_latin1_danish_file_previews_with_its_names_and_another_encoding_can_be_chosen(
    page, log_in, personas, world, tmp_path
):
    make_players(world.dbf, [str(40001 + i) for i in range(8)])
    data = (
        (DATA / "csv_pairs_latin1_danish.csv")
        .read_bytes()
        .replace(b"club_id;1001", f"club_id;{world.club_a.number}".encode())
    )
    results = tmp_path / "onsdag.csv"
    results.write_bytes(data)

    log_in("director_a", "pw-director_a")
    page.goto("/tournaments/upload/")
    page.get_by_label("Organiser").select_option(label=str(world.club_a))
    page.get_by_label("Points played for").select_option("BP")
    page.get_by_label("Results file").set_input_files(str(results))
    page.get_by_role("button", name="Upload and check").click()

    page.get_by_role("heading", name="Check the results").wait_for()
    body = page.content()
    assert "Søren Ærø" in body and "Jørgen Ågård" in body
    assert "Sřren" not in body

    # Read the same bytes as Windows-1250 (a Croatian file's code page): the names change, and back.
    form = page.locator("form.encoding-form")
    form.locator("select").select_option("cp1250")
    form.get_by_role("button").click()
    page.get_by_role("heading", name="Check the results").wait_for()
    assert "Sřren" in page.content()
    form = page.locator("form.encoding-form")
    form.locator("select").select_option("iso8859-1")
    form.get_by_role("button").click()
    page.get_by_role("heading", name="Check the results").wait_for()
    assert "Søren Ærø" in page.content() and "as you chose" in page.content()
