"""Cells of the CSV and XLSX files the site writes, safe to open in a spreadsheet program.

A text cell that begins with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage return, which some programs
skip) would be read as a formula: a name such as ``=HYPERLINK(…)`` could run when a secretary opens the file.
Every such text is written with a leading apostrophe, the spreadsheet's own mark for "this is text"; numbers
(``12``, ``-0.5``, ``30.7``) stay numbers, and a lone ``-`` (nothing) stays as it is. In XLSX files text
cells are also stored as text, never as formulas. Every export of the site writes its cells through
:func:`csv_cell` or :func:`xlsx_append`.
"""

from __future__ import annotations

import csv
import re
from decimal import Decimal
from typing import Any

from django.utils import translation

#: What a spreadsheet program takes as the start of a formula (OWASP's list for CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def _is_number(text: str) -> bool:
    return _NUMBER.fullmatch(text) is not None


def csv_cell(value: Any) -> Any:
    """``value`` for a CSV row: numbers as they are, text neutralised when it would read as a formula."""
    if value is None or isinstance(value, bool | int | float | Decimal):
        return value
    text = str(value)
    if text.startswith(FORMULA_STARTS) and text != "-" and not _is_number(text):
        return "'" + text
    return text


def csv_row(values) -> list[Any]:
    return [csv_cell(value) for value in values]


#: Languages whose spreadsheet programs read ``;`` between fields and a decimal comma (Excel in Danish and
#: Croatian opens a comma-separated file in one column). English keeps ``,`` and the decimal point.
DECIMAL_COMMA_LANGUAGES = ("da", "hr")


def csv_local(language: str | None = None) -> tuple[str, str]:
    """``(delimiter, decimal mark)`` of a CSV file for ``language`` (the active language by default)."""
    code = (language or translation.get_language() or "en").split("-")[0].lower()
    return (";", ",") if code in DECIMAL_COMMA_LANGUAGES else (",", ".")


def csv_write(out, rows, *, language: str | None = None) -> None:
    """Write ``rows`` to ``out`` as the reader's spreadsheet program opens them: for Danish and
    Croatian ``;`` between fields and numbers with a decimal comma (``30,7``), else ``,`` and ``30.7``; every
    cell through :func:`csv_cell`. XLSX files carry numbers as numbers and need none of this."""
    delimiter, mark = csv_local(language)
    writer = csv.writer(out, delimiter=delimiter)
    for values in rows:
        cells = csv_row(values)
        if mark != ".":
            cells = [_with_mark(cell, mark) for cell in cells]
        writer.writerow(cells)


def _with_mark(cell: Any, mark: str) -> Any:
    if isinstance(cell, bool) or cell is None:
        return cell
    if isinstance(cell, float | Decimal) or (isinstance(cell, str) and _is_number(cell)):
        return str(cell).replace(".", mark)
    return cell


def xlsx_append(sheet, values) -> None:
    """Append one row to an openpyxl (write-only) sheet: numbers as numbers, every other value as text."""
    from openpyxl.cell import WriteOnlyCell

    cells = []
    for value in values:
        text = "" if value is None else str(value)
        if (isinstance(value, int | float | Decimal) and not isinstance(value, bool)) or _is_number(text):
            cells.append(WriteOnlyCell(sheet, value=Decimal(text) if "." in text else int(text)))
            continue
        cell = WriteOnlyCell(sheet, value=csv_cell(text))
        cell.data_type = "s"  # text, never a formula
        cells.append(cell)
    sheet.append(cells)
