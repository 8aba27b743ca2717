"""The history files (CSV UTF-8, ``;`` or ``,``, a header row) → typed rows; pure, every value bounded where it
enters and every bad one named by its file and line. A file with any bad row is refused whole.

- balances: ``number;kind;points``: the old system's balance of one kind as of the import's date.
- titles: ``number;title;stars;reached_on``: a title or category held, and the day the old system gave it.
- awards: ``number;date;tournament;kind;points``: one historic award.
"""

from __future__ import annotations

import csv
import datetime
import io
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from federation.schemes import decimals_of

#: No player holds anything near a million points of one kind: more is a mistake in the file.
MAX_POINTS = 1_000_000
MAX_ROWS = 2_000_000
MAX_ERRORS = 50
FIRST_DATE, LAST_DATE = datetime.date(1900, 1, 1), datetime.date(2100, 12, 31)
HEADERS = {
    "balances": ("number", "kind", "points"),
    "titles": ("number", "title", "stars", "reached_on"),
    "awards": ("number", "date", "tournament", "kind", "points"),
}


@dataclass(frozen=True, slots=True)
class BalanceRow:
    line: int
    number: str
    kind: str
    units: int


@dataclass(frozen=True, slots=True)
class TitleRow:
    line: int
    number: str
    title: str
    stars: int
    reached_on: datetime.date


@dataclass(frozen=True, slots=True)
class AwardRow:
    line: int
    number: str
    day: datetime.date
    tournament: str
    kind: str
    units: int


class _Errors(list):
    def add(self, name: str, line: int, text: str) -> None:
        if len(self) < MAX_ERRORS:
            self.append(f"{name}, line {line}: {text}")


def _records(name: str, data: bytes) -> list[tuple[int, dict[str, str]]]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValidationError(_("%(name)s: the file is not UTF-8 text.") % {"name": name}) from None
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") >= first.count(",") else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    header = [cell.strip().lower() for cell in next(reader, [])]
    if tuple(header) != HEADERS[name]:
        raise ValidationError(
            _("%(name)s: the header must be %(header)s.") % {"name": name, "header": ";".join(HEADERS[name])}
        )
    rows = []
    for cells in reader:
        if not any(cell.strip() for cell in cells):
            continue
        if len(rows) >= MAX_ROWS:
            raise ValidationError(_("%(name)s: more than %(limit)s rows.") % {"name": name, "limit": MAX_ROWS})
        rows.append((reader.line_num, dict(zip(header, (cell.strip() for cell in cells), strict=False))))
    return rows


def _units(value: str, kind: str) -> int:
    """Points in the kind's decimals (``"30.7"`` SP, ``"1,5"``) as integer units; ``ValueError`` otherwise."""
    try:
        amount = Decimal(value.replace(",", "."))
    except InvalidOperation:
        raise ValueError(value) from None
    units = amount.scaleb(decimals_of(kind))
    if not amount.is_finite() or abs(amount) > MAX_POINTS or units != units.to_integral_value():
        raise ValueError(value)
    return int(units)


def _date(value: str) -> datetime.date:
    day = datetime.date.fromisoformat(value)
    if not FIRST_DATE <= day <= LAST_DATE:
        raise ValueError(value)
    return day


def read_history(
    *, kinds: tuple[str, ...], balances: bytes | None, titles: bytes | None, awards: bytes | None
) -> tuple[list[BalanceRow], list[TitleRow], list[AwardRow]]:
    """The three files' rows (a file not given: none); ``kinds``: the scheme's point kinds."""
    errors = _Errors()
    out_balances, out_titles, out_awards = [], [], []
    for line, cells in _records("balances", balances) if balances else []:
        try:
            kind = cells.get("kind", "")
            if kind not in kinds:
                raise KeyError(kind)
            out_balances.append(BalanceRow(line, cells["number"], kind, _units(cells.get("points", ""), kind)))
        except (KeyError, ValueError) as error:
            errors.add("balances", line, _("bad kind or points (%(value)s)") % {"value": str(error)[:40]})
    for line, cells in _records("titles", titles) if titles else []:
        try:
            stars = int(cells.get("stars") or 0)
            if not 0 <= stars <= 5 or not cells.get("title"):
                raise ValueError(cells.get("stars"))
            out_titles.append(
                TitleRow(line, cells["number"], cells["title"], stars, _date(cells.get("reached_on", "")))
            )
        except (KeyError, ValueError) as error:
            errors.add("titles", line, _("bad title, stars or date (%(value)s)") % {"value": str(error)[:40]})
    for line, cells in _records("awards", awards) if awards else []:
        try:
            kind = cells.get("kind", "")
            if kind not in kinds:
                raise KeyError(kind)
            units = _units(cells.get("points", ""), kind)
            name = cells.get("tournament", "")[:200]
            out_awards.append(AwardRow(line, cells["number"], _date(cells.get("date", "")), name, kind, units))
        except (KeyError, ValueError) as error:
            errors.add("awards", line, _("bad date, kind or points (%(value)s)") % {"value": str(error)[:40]})
    if errors:
        raise ValidationError(list(errors))
    return out_balances, out_titles, out_awards
