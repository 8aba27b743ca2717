"""Reading a register file: CSV (UTF-8, separator ``;``, ``,`` or tab) or XLSX (its first sheet) → the
header and the data rows as text, each with the line it stands on (``static/register-templates/README.md``).

Pure: no database. Everything that comes from outside is bounded here: the file's size, an XLSX file's
unpacked size, the number of rows and the length of a cell. A file that cannot be read is refused whole.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
import zipfile
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from federation.refusals import refusals

#: The largest register file accepted (a register of 25,000 players and 30,000 memberships is about 4 MB).
MAX_BYTES = 20 * 1024 * 1024
#: The most an XLSX file may unpack to (its XML): more is a compressed bomb, not a register.
MAX_UNPACKED_BYTES = 10 * MAX_BYTES
#: The most data rows a file may hold (players, clubs, memberships and officers together).
MAX_ROWS = 200_000
#: The longest cell read; the layout's longest field is an e-mail address (254 characters).
MAX_CELL = 254
#: The columns of the layout, in the template's order (``static/register-templates/``).
COLUMNS = (
    "record",
    "number",
    "first_name",
    "last_name",
    "email",
    "birth_year",
    "status",
    "dues_paid_until",
    "club",
    "name",
    "since",
    "until",
    "home",
    "role",
    "region",
)
SEPARATORS = (";", ",", "\t")
XLSX_MAGIC = b"PK\x03\x04"
#: A NUL or another control character (tab and line ends are the file's own): a broken export.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")

REFUSALS = {
    "TOO_LARGE": _("The file is %(size)s MB; at most %(limit)s MB is accepted."),
    "XLSX_UNREADABLE": _("The file looks like an XLSX workbook but cannot be opened (%(error)s)."),
    "XLSX_TOO_LARGE": _("The workbook unpacks to more than %(limit)s MB; that is not a register."),
    "ENCODING": _("The file is neither UTF-8 text nor an XLSX workbook; save it as CSV UTF-8 or as XLSX."),
    "NOT_CSV": _("line %(line)s: the file cannot be read as CSV (%(error)s)."),
    "CONTROL_CHARACTER": _("line %(line)s: the file holds a NUL or another control character; export it again."),
    "HEADER_MISSING": _("The header (line %(line)s) lacks the columns %(columns)s of the register layout."),
    "HEADER_UNKNOWN": _("The header (line %(line)s) has columns the register layout does not know: %(columns)s."),
    "HEADER_TWICE": _("The header (line %(line)s) has the column %(column)s twice."),
    "EMPTY": _("The file has no rows after its header."),
    "TOO_MANY_ROWS": _("The file has more than %(limit)s rows; split it or ask for a higher limit."),
    "TOO_MANY_CELLS": _("line %(line)s: the row has %(found)s cells, the header %(expected)s."),
    "CELL_TOO_LONG": _("line %(line)s, column %(column)s: the value has %(length)s characters; at most %(limit)s."),
}
refusal = refusals(REFUSALS)


@dataclass(frozen=True)
class Row:
    """One data row: the line (CSV) or row number (XLSX) it stands on, and its cells by column name."""

    line: int
    cells: dict[str, str]


def column_label(column: str) -> str:
    """A column's name and its spreadsheet letter, ``dues_paid_until (H)``, as messages name it."""
    index = COLUMNS.index(column) if column in COLUMNS else -1
    return f"{column} ({chr(65 + index)})" if 0 <= index < 26 else column


def read_register(data: bytes) -> list[Row]:
    """The data rows of a register file, in file order (empty rows skipped); refused when the file is too
    large, cannot be read, or its header is not the layout's (every layout column once, no other)."""
    if len(data) > MAX_BYTES:
        raise refusal("TOO_LARGE", size=f"{len(data) / 1024 / 1024:.1f}", limit=MAX_BYTES // 1024 // 1024)
    lines = _xlsx_lines(data) if data.startswith(XLSX_MAGIC) else _csv_lines(data)
    header_line, header = next(lines, (1, []))
    positions = tuple(_header(header_line, header).items())
    rows = []
    for line, cells in lines:
        if not any(cells):
            continue
        if len(rows) == MAX_ROWS:
            raise refusal("TOO_MANY_ROWS", limit=MAX_ROWS)
        if len(cells) > len(header) and any(cells[len(header) :]):
            raise refusal("TOO_MANY_CELLS", line=line, found=len(cells), expected=len(header))
        if len(cells) < len(header):
            cells = cells + [""] * (len(header) - len(cells))
        values = {column: cells[at].strip() for column, at in positions}
        if max(map(len, values.values())) > MAX_CELL:
            column = next(column for column, value in values.items() if len(value) > MAX_CELL)
            length = len(values[column])
            raise refusal("CELL_TOO_LONG", line=line, column=column_label(column), length=length, limit=MAX_CELL)
        rows.append(Row(line, values))
    if not rows:
        raise refusal("EMPTY")
    return rows


def _header(line: int, header: list[str]) -> dict[str, int]:
    names = [cell.strip().lower() for cell in header]
    while names and not names[-1]:
        names.pop()
    for name in names:
        if names.count(name) > 1:
            raise refusal("HEADER_TWICE", line=line, column=name)
    missing = [column for column in COLUMNS if column not in names]
    if missing:
        raise refusal("HEADER_MISSING", line=line, columns=", ".join(missing))
    unknown = [name or "–" for name in names if name not in COLUMNS]
    if unknown:
        raise refusal("HEADER_UNKNOWN", line=line, columns=", ".join(unknown))
    return {column: names.index(column) for column in COLUMNS}


def _csv_lines(data: bytes):
    """(line, cells) of a CSV file; the separator is the one that splits the header into layout columns."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise refusal("ENCODING") from None
    found = CONTROL.search(text)
    if found:
        raise refusal("CONTROL_CHARACTER", line=text.count("\n", 0, found.start()) + 1)
    first = text.split("\n", 1)[0]
    separator = max(SEPARATORS, key=lambda sep: sum(cell.strip().lower() in COLUMNS for cell in first.split(sep)))
    reader = csv.reader(io.StringIO(text), delimiter=separator)
    try:
        for cells in reader:
            yield reader.line_num, cells
    except csv.Error as exc:
        raise refusal("NOT_CSV", line=reader.line_num, error=str(exc)) from None


def _xlsx_lines(data: bytes):
    """(row number, cells as text) of the workbook's first sheet, read without formulas' cached results
    being trusted for more than their value (``data_only``: a formula's result, never the formula)."""
    from openpyxl import load_workbook

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            if sum(info.file_size for info in archive.infolist()) > MAX_UNPACKED_BYTES:
                raise refusal("XLSX_TOO_LARGE", limit=MAX_UNPACKED_BYTES // 1024 // 1024)
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        raise refusal("XLSX_UNREADABLE", error=type(exc).__name__) from None
    try:
        sheet = workbook.worksheets[0]
        for line, values in enumerate(sheet.iter_rows(values_only=True), start=1):
            if line > MAX_ROWS + 1 and any(value is not None for value in values):
                raise refusal("TOO_MANY_ROWS", limit=MAX_ROWS)
            cells = [_cell_text(value) for value in values]
            if any(CONTROL.search(cell) for cell in cells):
                raise refusal("CONTROL_CHARACTER", line=line)
            yield line, cells
    finally:
        workbook.close()


def _cell_text(value) -> str:
    """A cell as the text a CSV export would hold: a date as ``YYYY-MM-DD``, a whole number without ``.0``."""
    if value is None:
        return ""
    if isinstance(value, datetime.datetime):
        return value.date().isoformat() if value.time() == datetime.time() else value.isoformat()
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
