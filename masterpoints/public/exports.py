"""The rankings' downloads: the list as filtered and sorted on the page, every row of it.

The CSV streams the whole list with flat memory: the rows are read a chunk at a time
(``QuerySet.iterator``; on PostgreSQL a server-side cursor) as plain column values, never as table rows
rendered cell by cell, and each chunk is written out before the next is read. The columns, their headers
and their order are the page's table's (:class:`~masterpoints.public.tables.StandingTable`); each cell is
what that table's export value is: points as integer units written with the kind's decimals
(:func:`~masterpoints.engine.common.format_units`, never a float), a hidden name as the number unless the
viewer may see hidden names (:func:`~masterpoints.public.tables.shown_name`), and the reader's delimiter and
decimal mark (:func:`federation.exports.csv_write`).

An XLSX workbook is complete only when its last row is in, so it cannot be sent while it is read: it is
written row by row (openpyxl's write-only workbook) into a temporary file, sent from there, and holds at
most :data:`XLSX_MAX_ROWS` rows (the page says so next to the links).

Every download counts against the client's :data:`EXPORT_RATE` (django-ratelimit, the client address of
:mod:`federation.client_address`); past it the answer is 429 naming the limit.
"""

from __future__ import annotations

import io
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from django.conf import settings
from django.db import connections
from django.db.models import QuerySet
from django.http import FileResponse, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django_ratelimit.core import is_ratelimited
from openpyxl import Workbook

from federation.exports import csv_write, xlsx_append
from masterpoints.engine.common import format_units
from masterpoints.models import SeasonStanding
from masterpoints.public.tables import StandingTable
from masterpoints.standings.titles import title_label

#: Downloads a minute per client address: each reads the whole filtered list.
EXPORT_RATE_PER_MINUTE = 10
EXPORT_RATE = f"{EXPORT_RATE_PER_MINUTE}/m"
#: Rows read from the database at a time (``RANKINGS_EXPORT_CHUNK_SIZE`` overrides it): the memory an
#: export holds is one chunk, whatever the length of the list.
CHUNK_SIZE = 2000
#: The most rows an XLSX download holds (a sheet holds 1,048,576 with the header): a workbook is built whole
#: before it is sent, so its length bounds the work of one request. The CSV has no such bound.
XLSX_MAX_ROWS = 100_000
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

Row = tuple
Cell = Callable[[Row], object]


def chunk_size() -> int:
    return max(int(getattr(settings, "RANKINGS_EXPORT_CHUNK_SIZE", CHUNK_SIZE)), 1)


def rankings_export(request, table: StandingTable, export: str, filename: str) -> HttpResponse:
    """The download ``export`` (``csv`` or ``xlsx``) of the table's list, filtered and sorted as the page
    (``table.data.data``: the queryset the table's ``RequestConfig`` ordered), or 429 past the rate."""
    if is_ratelimited(request, group="public.rankings_export", key="ip", rate=EXPORT_RATE, increment=True):
        return _too_many(request)
    rows = table.data.data
    if not isinstance(rows, QuerySet):
        raise TypeError("an export reads the list from the database, not from rows already read")
    header, fields, cells = export_columns(table, rows.model)
    values = rows.values_list(*fields)
    if export == "csv":
        response = StreamingHttpResponse(
            _csv_chunks(header, values, cells, get_language()), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="{filename}.csv"'
        return response
    return _xlsx_response(header, values[:XLSX_MAX_ROWS], cells, filename)


def _too_many(request) -> HttpResponse:
    message = _("Too many downloads from this address: at most %(count)s a minute. Try again in a minute.")
    response = render(
        request,
        "registration/rate_limited.html",
        {"message": message % {"count": EXPORT_RATE_PER_MINUTE}},
        status=429,
    )
    response["Retry-After"] = "60"
    return response


def export_columns(table: StandingTable, model) -> tuple[list[str], list[str], list[Cell]]:
    """The table's columns, in its order, as ``(headers, fields, cells)``: the headers as the table writes
    them, the fields to read (``values_list``) and for each column what its cell is, from a row of those
    fields, equal to the table's export value of that column (``StandingTable.as_values``)."""
    fields: list[str] = []

    def at(name: str) -> int:
        if name not in fields:
            fields.append(name)
        return fields.index(name)

    see_hidden = table.see_hidden
    title_of = "player__standing__" if model is SeasonStanding else ""
    place, number, club = at("place"), at("player__number"), at("home_club_name")
    first, last, hidden = at("player__first_name"), at("player__last_name"), at("player__hide_name")
    title, stars = at(f"{title_of}title"), at(f"{title_of}stars")
    known: dict[str, Cell] = {
        "place": lambda row: row[place],
        "number": lambda row: row[number],
        # shown_name: the number where the player hides their name and the viewer may not see it.
        "name": lambda row: row[number] if row[hidden] and not see_hidden else f"{row[first]} {row[last]}".strip(),
        "club": lambda row: row[club] or "",
        "title": lambda row: title_label(row[title] or "", row[stars] or 0),
    }
    headers, cells = [], []
    for bound in table.columns.iterall():
        if bound.column.exclude_from_export:
            continue
        headers.append(str(bound.header))
        if bound.name in known:
            cells.append(known[bound.name])
        else:  # a points column: integer units with the kind's decimals
            index, decimals = at(bound.name), bound.column.decimals
            cells.append(lambda row, index=index, decimals=decimals: format_units(row[index], decimals))
    return headers, fields, cells


def _chunks(values: QuerySet, cells: list[Cell]) -> Iterator[list[list]]:
    """The list's rows as cells, :func:`chunk_size` rows at a time, read with one cursor."""
    size = chunk_size()
    chunk = []
    with _every_row_read(connections[values.db]):
        for row in values.iterator(chunk_size=size):
            chunk.append([cell(row) for cell in cells])
            if len(chunk) >= size:
                yield chunk
                chunk = []
    if chunk:
        yield chunk


@contextmanager
def _every_row_read(connection):
    """PostgreSQL plans a cursor's query for its first tenth of rows (``cursor_tuple_fraction``, 0.1): index
    scans and nested loops that answer at once but read a whole federation's list three times slower than the
    hash joins it chooses for every row. A download reads every row, so the planner is told so while its
    cursor is open."""
    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("SET cursor_tuple_fraction = 1.0")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET cursor_tuple_fraction")


def _csv_chunks(header: list[str], values: QuerySet, cells: list[Cell], language: str | None) -> Iterator[str]:
    """The CSV's text a chunk at a time: the byte order mark (spreadsheet programs then read UTF-8), the
    header, then each chunk of rows, written in ``language``'s delimiter and decimal mark."""
    out = io.StringIO()
    out.write("\ufeff")
    csv_write(out, [header], language=language)
    yield out.getvalue()
    for chunk in _chunks(values, cells):
        out = io.StringIO()
        csv_write(out, chunk, language=language)
        yield out.getvalue()


def _xlsx_response(header: list[str], values: QuerySet, cells: list[Cell], filename: str) -> FileResponse:
    """The workbook written row by row into a temporary file (removed when the response is closed), then
    sent from the file a block at a time."""
    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet(_("Rankings"))
    xlsx_append(sheet, header)
    for chunk in _chunks(values, cells):
        for row in chunk:
            xlsx_append(sheet, row)
    file = tempfile.TemporaryFile()  # noqa: SIM115 - the response closes it (which removes it) once sent
    workbook.save(file)
    file.seek(0)
    return FileResponse(file, as_attachment=True, filename=f"{filename}.xlsx", content_type=XLSX_TYPE)
