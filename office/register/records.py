"""The register file's rows as typed records, every value checked and bounded where it enters.

Pure: no database. Each row is one record, named by its ``record`` column (``static/register-templates/``):
``club``, ``player``, ``membership`` or ``officer``. A bad value is named by its line and column; the file
is refused when any row is bad (the import then writes nothing), with at most :data:`MAX_ERRORS` problems.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext_lazy as _

from federation.refusals import refusals
from office.register.reader import COLUMNS, Row, column_label

#: The problems listed before the check stops (the file is refused all the same).
MAX_ERRORS = 100
#: Dates a register may hold: membership, dues; nothing of a bridge federation lies outside them.
FIRST_DATE, LAST_DATE = datetime.date(1900, 1, 1), datetime.date(2100, 12, 31)
FIRST_BIRTH_YEAR = 1900
#: A registration or club number: letters and digits, dots, slashes and hyphens inside (``12345``, ``HR-101``).
NUMBER = re.compile(r"[0-9A-Za-z](?:[0-9A-Za-z./-]*[0-9A-Za-z])?")
DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})|(\d{1,2})([./])(\d{1,2})\5(\d{4})")
#: Field lengths of the records (the models' own).
LENGTHS = {"number": 20, "first_name": 100, "last_name": 100, "club": 20, "name": 200, "region": 30}
STATUSES = ("member", "guest", "lapsed")
#: The offices the register appoints: a club's director and a region's officer. Secretariat and commission
#: give admin access and are appointed in the admin only.
ROLES = ("club_director", "region_officer")
YES, NO = ("1", "yes", "x", "ja", "da", "true"), ("", "0", "no", "nej", "ne", "false")
RECORDS = ("club", "player", "membership", "officer")
#: The columns each record uses; the others must stay empty.
USES = {
    "club": ("club", "name", "email"),
    "player": ("number", "first_name", "last_name", "email", "birth_year", "status", "dues_paid_until"),
    "membership": ("number", "club", "since", "until", "home"),
    "officer": ("number", "role", "club", "region"),
}
UNUSED = {kind: tuple(c for c in COLUMNS if c != "record" and c not in uses) for kind, uses in USES.items()}

REFUSALS = {
    "RECORD": _("line %(line)s, column %(column)s: %(value)s is not a record of the layout (%(names)s)."),
    "REQUIRED": _("line %(line)s, column %(column)s: a %(record)s row needs a value here."),
    "NOT_USED": _("line %(line)s, column %(column)s: a %(record)s row leaves this column empty (found %(value)s)."),
    "TOO_LONG": _("line %(line)s, column %(column)s: %(length)s characters; at most %(limit)s."),
    "NUMBER": _("line %(line)s, column %(column)s: %(value)s is not a number (letters, digits, . / -)."),
    "EMAIL": _("line %(line)s, column %(column)s: %(value)s is not an e-mail address."),
    "YEAR": _("line %(line)s, column %(column)s: %(value)s is not a year from %(first)s to %(last)s."),
    "DATE": _(
        "line %(line)s, column %(column)s: %(value)s is not a date from %(first)s to %(last)s "
        "(YYYY-MM-DD, DD.MM.YYYY or DD/MM/YYYY)."
    ),
    "UNTIL_BEFORE_SINCE": _("line %(line)s, column %(column)s: the membership ends (%(until)s) before it starts."),
    "CHOICE": _("line %(line)s, column %(column)s: %(value)s is not one of %(names)s."),
    "DUPLICATE": _("line %(line)s, column %(column)s: %(key)s is already on line %(first)s."),
    "TWO_HOMES": _("line %(line)s, column %(column)s: player %(number)s already has a home club on line %(first)s."),
    "NO_PLAYER": _("line %(line)s, column %(column)s: no player row of the file has the number %(value)s."),
    "NO_CLUB": _("line %(line)s, column %(column)s: the club %(value)s is neither a club row of the file nor a club."),
    "NO_REGION": _("line %(line)s, column %(column)s: the federation has no region with the code %(value)s."),
    "TOO_MANY_ERRORS": _("The check stopped after %(count)s problems; correct these and import again."),
}
refusal = refusals(REFUSALS)


@dataclass(frozen=True)
class ClubRecord:
    line: int
    number: str
    name: str
    email: str


@dataclass(frozen=True)
class PlayerRecord:
    line: int
    number: str
    first_name: str
    last_name: str
    email: str
    birth_year: int | None
    status: str
    dues_paid_until: datetime.date | None


@dataclass(frozen=True)
class MembershipRecord:
    line: int
    number: str
    club: str
    since: datetime.date | None
    until: datetime.date | None
    home: bool


@dataclass(frozen=True)
class OfficerRecord:
    line: int
    number: str
    role: str
    club: str
    region: str


@dataclass
class Register:
    """The file's records by kind, in file order."""

    clubs: list[ClubRecord] = field(default_factory=list)
    players: list[PlayerRecord] = field(default_factory=list)
    memberships: list[MembershipRecord] = field(default_factory=list)
    officers: list[OfficerRecord] = field(default_factory=list)


class _Errors(list):
    """The problems found; raises when there are too many to go on (the file is refused either way)."""

    def add(self, code: str, row: Row, column: str, **params) -> None:
        self.append(refusal(code, line=row.line, column=column_label(column), **params))
        if len(self) >= MAX_ERRORS:
            raise ValidationError([*self, refusal("TOO_MANY_ERRORS", count=len(self))])


def parse_register(rows: list[Row], *, today: datetime.date) -> Register:
    """The records of ``rows``; refused with every problem (line and column) when any row is bad. The links
    between records (a membership's player and club) are checked by :func:`check_links`."""
    errors = _Errors()
    register = Register()
    for row in rows:
        kind = row.cells["record"].lower()
        if kind not in RECORDS:
            errors.add("RECORD", row, "record", value=row.cells["record"] or "–", names=", ".join(RECORDS))
            continue
        cells = row.cells
        if any(cells[column] for column in UNUSED[kind]):
            for column in UNUSED[kind]:
                if cells[column]:
                    errors.add("NOT_USED", row, column, record=kind, value=cells[column])
        record = _PARSERS[kind](row, errors, today)
        if record is not None:
            getattr(register, f"{kind}s" if kind != "membership" else "memberships").append(record)
    _check_unique(register, rows, errors)
    if errors:
        raise ValidationError(list(errors))
    return register


# --- one value -------------------------------------------------------------------------------------------


def _text(row: Row, column: str, errors: _Errors, *, record: str, required: bool = True) -> str | None:
    value = row.cells[column]
    if not value:
        if required:
            errors.add("REQUIRED", row, column, record=record)
            return None
        return ""
    limit = LENGTHS.get(column)
    if limit is not None and len(value) > limit:
        errors.add("TOO_LONG", row, column, length=len(value), limit=limit)
        return None
    if column in ("number", "club") and not NUMBER.fullmatch(value):
        errors.add("NUMBER", row, column, value=value)
        return None
    return value


def _email(row: Row, errors: _Errors) -> str | None:
    value = row.cells["email"]
    if value:
        try:
            validate_email(value)
        except ValidationError:
            errors.add("EMAIL", row, "email", value=value)
            return None
    return value


def parse_date(value: str) -> datetime.date | None:
    """``YYYY-MM-DD``, ``DD.MM.YYYY`` or ``DD/MM/YYYY`` (day first, never month first); ``None`` otherwise."""
    found = DATE.fullmatch(value)
    if found is None:
        return None
    iso_year, iso_month, iso_day, day, _separator, month, year = found.groups()
    try:
        if iso_year:
            return datetime.date(int(iso_year), int(iso_month), int(iso_day))
        return datetime.date(int(year), int(month), int(day))
    except ValueError:
        return None


def _date(row: Row, column: str, errors: _Errors) -> datetime.date | None:
    value = row.cells[column]
    if not value:
        return None
    parsed = parse_date(value)
    if parsed is not None and FIRST_DATE <= parsed <= LAST_DATE:
        return parsed
    errors.add("DATE", row, column, value=value, first=FIRST_DATE, last=LAST_DATE)
    return None


def _choice(row: Row, column: str, errors: _Errors, names: tuple[str, ...], default: str | None = None) -> str | None:
    value = row.cells[column].lower() or default
    if value in names:
        return value
    errors.add("CHOICE", row, column, value=row.cells[column] or "–", names=", ".join(names))
    return None


# --- one record ------------------------------------------------------------------------------------------


def _club(row: Row, errors: _Errors, today) -> ClubRecord | None:
    number = _text(row, "club", errors, record="club")
    name = _text(row, "name", errors, record="club")
    email = _email(row, errors)
    if None in (number, name, email):
        return None
    return ClubRecord(row.line, number, name, email)


def _birth_year(row: Row, errors: _Errors, today) -> tuple[bool, int | None]:
    value = row.cells["birth_year"]
    if not value:
        return True, None
    if value.isdecimal() and len(value) == 4 and FIRST_BIRTH_YEAR <= int(value) <= today.year:
        return True, int(value)
    errors.add("YEAR", row, "birth_year", value=value, first=FIRST_BIRTH_YEAR, last=today.year)
    return False, None


def _player(row: Row, errors: _Errors, today) -> PlayerRecord | None:
    values = [_text(row, column, errors, record="player") for column in ("number", "first_name", "last_name")]
    email = _email(row, errors)
    year_ok, birth_year = _birth_year(row, errors, today)
    status = _choice(row, "status", errors, STATUSES, default="member")
    dues = _date(row, "dues_paid_until", errors)
    if None in (*values, email, status) or not year_ok or (row.cells["dues_paid_until"] and dues is None):
        return None
    return PlayerRecord(row.line, *values, email, birth_year, status, dues)


def _membership(row: Row, errors: _Errors, today) -> MembershipRecord | None:
    number = _text(row, "number", errors, record="membership")
    club = _text(row, "club", errors, record="membership")
    since, until = _date(row, "since", errors), _date(row, "until", errors)
    home = row.cells["home"].lower()
    bad = (row.cells["since"] and not since) or (row.cells["until"] and not until) or home not in YES + NO
    if home not in YES + NO:
        errors.add("CHOICE", row, "home", value=row.cells["home"], names="1, yes, x / 0, no, empty")
    if since and until and until < since:
        errors.add("UNTIL_BEFORE_SINCE", row, "until", until=until)
        return None
    if None in (number, club) or bad:
        return None
    return MembershipRecord(row.line, number, club, since, until, home in YES)


def _officer(row: Row, errors: _Errors, today) -> OfficerRecord | None:
    number = _text(row, "number", errors, record="officer")
    role = _choice(row, "role", errors, ROLES)
    club = _text(row, "club", errors, record="officer", required=role == "club_director")
    region = _text(row, "region", errors, record="officer", required=role == "region_officer")
    for column, value in (("club", club), ("region", region)):
        if role and value and column != ("club" if role == "club_director" else "region"):
            errors.add("NOT_USED", row, column, record=role, value=value)
            return None
    if None in (number, role, club, region):
        return None
    return OfficerRecord(row.line, number, role, club, region)


_PARSERS = {"club": _club, "player": _player, "membership": _membership, "officer": _officer}


# --- the records together --------------------------------------------------------------------------------


def _check_unique(register: Register, rows: list[Row], errors: _Errors) -> None:
    """A club, a player, a membership and an office once each; one home club per player."""
    by_line = {row.line: row for row in rows}
    keyed = (
        (register.clubs, "club", lambda r: r.number),
        (register.players, "number", lambda r: r.number),
        (register.memberships, "club", lambda r: f"{r.number} @ {r.club}"),
        (register.officers, "role", lambda r: f"{r.number} {r.role} {r.club or r.region}"),
    )
    for records, column, key_of in keyed:
        seen: dict[str, int] = {}
        for record in records:
            key = key_of(record)
            if key in seen:
                errors.add("DUPLICATE", by_line[record.line], column, key=key, first=seen[key])
            seen.setdefault(key, record.line)
    homes: dict[str, int] = {}
    for membership in register.memberships:
        if membership.home:
            if membership.number in homes:
                row = by_line[membership.line]
                errors.add("TWO_HOMES", row, "home", number=membership.number, first=homes[membership.number])
            homes.setdefault(membership.number, membership.line)


def check_links(register: Register, rows: list[Row], *, clubs: set[str], regions: set[str]) -> None:
    """Every membership and office names a player row of the file, and a club of the file (or, when the file
    has no club rows, one of ``clubs``, the federation's) or a region of ``regions``; refused otherwise."""
    errors = _Errors()
    by_line = {row.line: row for row in rows}
    players = {record.number for record in register.players}
    known_clubs = {record.number for record in register.clubs} if register.clubs else clubs
    for record in [*register.memberships, *register.officers]:
        row = by_line[record.line]
        if record.number not in players:
            errors.add("NO_PLAYER", row, "number", value=record.number)
        if record.club and record.club not in known_clubs:
            errors.add("NO_CLUB", row, "club", value=record.club)
        if getattr(record, "region", "") and record.region not in regions:
            errors.add("NO_REGION", row, "region", value=record.region)
    if errors:
        raise ValidationError(list(errors))
