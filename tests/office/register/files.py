"""Register files for the import tests, written in the layout of ``static/register-templates/README.md``."""

from __future__ import annotations

import datetime
import io

from office.register.reader import COLUMNS

#: The day the tests import on (memberships the file no longer holds end on it).
TODAY = datetime.date(2025, 3, 1)


def row(record: str, **cells: str) -> list[str]:
    """One row of the layout: ``record`` and the cells named, every other column empty."""
    assert set(cells) <= set(COLUMNS), set(cells) - set(COLUMNS)
    return [record if column == "record" else cells.get(column, "") for column in COLUMNS]


def csv_file(*rows: list[str], separator: str = ";") -> bytes:
    """A CSV register file (UTF-8): the header, then ``rows`` (line 2 onwards)."""
    lines = [separator.join(COLUMNS), *(separator.join(cells) for cells in rows)]
    return ("\n".join(lines) + "\n").encode("utf-8")


def xlsx_file(*rows: list[str]) -> bytes:
    """The same register as an XLSX workbook (first sheet), birth years written as numbers."""
    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    sheet.append(list(COLUMNS))
    at = COLUMNS.index("birth_year")
    for cells in rows:
        values: list = list(cells)
        if values[at]:
            values[at] = int(values[at])
        sheet.append(values)
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def base_rows() -> list[list[str]]:
    """Clubs A and B of the ``world`` fixture, the world's player 12345 and two new players, their
    memberships and the director of club A."""
    return [
        row("club", club="1001", name="Bridgeklubben A", email="a@example.org"),
        row("club", club="1002", name="Bridgeklubben B"),
        row("player", number="12345", first_name="Karen", last_name="Jensen", status="member"),
        row(
            "player",
            number="20001",
            first_name="Søren",
            last_name="Ærø",
            email="soren@example.org",
            birth_year="1961",
            dues_paid_until="2025-12-31",
        ),
        row("player", number="20002", first_name="Jørgen", last_name="Ødegård", dues_paid_until="31.12.2025"),
        row("membership", number="12345", club="1001", home="1"),
        row("membership", number="20001", club="1002", since="2020-09-01", home="1"),
        row("membership", number="20002", club="1001", since="01.09.2019"),
    ]
