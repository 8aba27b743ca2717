"""The pasted ranking of an office entry, read and checked line by line (§ 451A, D-Q33).

One line per pair or team, its tokens separated by spaces, tabs or semicolons::

    1    12345 23456                 a pair on place 1
    3-4  34567 45678                 a pair tied on places 3 and 4 (or two lines each saying 3)
    1    11111 22222 33333:40 won=6 drawn=1      a team: player 33333 played 40 of the team's boards
    2    11111 22222 rounds=final,semifinal      a cup team and the rounds it won (§ 414H)
    1    12345 23456 bonus=4.5                   the § 406B2 bonus entered by hand (§ 433B2b, § 451A)

Every number that comes from the text is bounded here; each problem is reported with the line it is on,
and a ranking with any problem is not used at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from django.utils.translation import gettext as _

from masterpoints.numbers import shown_amount
from masterpoints.uploads.bounds import MAX_ENTRIES_PER_EVENT, MAX_PLAYERS_PER_ENTRY

#: Won or drawn matches of one team in one entry. A DBf division season is a double round robin of at most
#: 10 teams (18 matches) with its play-offs; 100 is five times that, and more is a typing error.
MAX_MATCHES = 100
#: Cup matches one team won in one entry: seven kinds of round (§ 414H2a–g); a team of a cup with 1,024
#: teams plays ten rounds; 20 leaves room for the extraordinary matches of § 414H2g.
MAX_CUP_MATCHES = 20
#: The highest bonus per player a line may carry, in the kind's amount: the § 406B2 bonus of the largest DM
#: junior pairs final the rules can make is far below this.
MAX_BONUS = Decimal(1000)
#: A place needs no more digits than the largest field (``forms.MAX_PARTICIPANTS``).
_PLACE = re.compile(r"^(\d{1,5})(?:-(\d{1,5}))?$")
_PLAYER = re.compile(r"^([0-9A-Za-z]{1,20})(?::(\d{1,5}))?$")
_SPLIT = re.compile(r"[\s;]+")


@dataclass(frozen=True)
class RankingLine:
    """One pair or team as entered: its place range, its players' numbers (with the boards each played of
    the team's boards, ``None`` for all of them), and what the form asks besides the place."""

    line: int
    first: int
    last: int
    numbers: tuple[str, ...]
    boards: tuple[int | None, ...]
    won: int = 0
    drawn: int = 0
    rounds: tuple[str, ...] = ()
    bonus: Decimal | None = None
    place_text: str = ""


@dataclass(frozen=True)
class Expectation:
    """What a line of this entry may hold: ``entry`` (``pairs``, ``teams`` or ``cup``, as
    :class:`~masterpoints.engine.dbf.tables.OfficeForm`), the field size, the team's boards (``None``: the
    form has none), the cup's rounds, and the bonus unit when a bonus may be entered by hand."""

    entry: str
    participants: int
    team_boards: int | None = None
    rounds: tuple[str, ...] = ()
    bonus_unit: Fraction | None = None


def parse_ranking(text: str, expect: Expectation) -> tuple[list[RankingLine], list[str]]:
    """The lines of ``text`` and every problem found, each naming its line; no lines when there is any."""
    raw = [(number, line.strip()) for number, line in enumerate(text.splitlines(), start=1)]
    raw = [(number, line) for number, line in raw if line and not line.startswith("#")]
    if not raw:
        return [], [_("The ranking is empty: give one line per pair or team, its place first.")]
    if len(raw) > MAX_ENTRIES_PER_EVENT:
        return [], [
            _("The ranking has %(count)s lines; at most %(limit)s are accepted in one entry.")
            % {"count": len(raw), "limit": MAX_ENTRIES_PER_EVENT}
        ]
    lines, errors = [], []
    for number, line in raw:
        parsed, problems = _parse_line(number, line, expect)
        errors += problems
        if parsed is not None:
            lines.append(parsed)
    if errors:
        return [], errors
    errors = _check_players(lines) + _check_places(lines, expect.participants)
    return ([], errors) if errors else (lines, [])


def _parse_line(number: int, line: str, expect: Expectation) -> tuple[RankingLine | None, list[str]]:
    tokens = _SPLIT.split(line)
    where = {"line": number}
    match = _PLACE.match(tokens[0])
    if match is None:
        text = _("Line %(line)s: “%(token)s” is not a place; begin the line with its place: 3, or 3-4 for a tie.")
        return None, [text % {**where, "token": tokens[0][:20]}]
    first = int(match.group(1))
    last = int(match.group(2)) if match.group(2) else first
    errors = []
    if first < 1 or last < first:
        errors.append(
            _("Line %(line)s: the places %(first)s-%(last)s are no range.") % {**where, "first": first, "last": last}
        )
    elif last > expect.participants:
        errors.append(
            _("Line %(line)s: place %(place)s is beyond the field of %(field)s that played.")
            % {**where, "place": last, "field": expect.participants}
        )
    values: dict[str, str] = {}
    numbers, boards = [], []
    for token in tokens[1:]:
        if "=" in token:
            key, _sign, value = token.partition("=")
            values[key.lower()] = value
            continue
        for part in filter(None, token.split(",")):
            player = _PLAYER.match(part)
            if player is None:
                errors.append(_("Line %(line)s: “%(token)s” is no player number.") % {**where, "token": part[:25]})
                continue
            numbers.append(player.group(1))
            boards.append(int(player.group(2)) if player.group(2) else None)
    extras, problems = _extras(values, expect, where)
    errors += problems + _check_count(numbers, expect, where) + _check_boards(boards, expect, where)
    if errors:
        return None, errors
    return RankingLine(number, first, last, tuple(numbers), tuple(boards), place_text=tokens[0], **extras), []


def _check_count(numbers: list[str], expect: Expectation, where: dict) -> list[str]:
    if expect.entry == "pairs" and len(numbers) != 2:
        text = _("Line %(line)s: a pair has two player numbers, not %(count)s.")
        return [text % {**where, "count": len(numbers)}]
    if not 1 <= len(numbers) <= MAX_PLAYERS_PER_ENTRY:
        text = _("Line %(line)s: a team has 1 to %(limit)s player numbers, not %(count)s.")
        return [text % {**where, "count": len(numbers), "limit": MAX_PLAYERS_PER_ENTRY}]
    return []


def _check_boards(boards: list[int | None], expect: Expectation, where: dict) -> list[str]:
    """``number:boards`` is for team events, at most the team's boards (§ 405A1, § 411D; D-Q34)."""
    given = [b for b in boards if b is not None]
    if not given:
        return []
    if expect.team_boards is None:
        return [_("Line %(line)s: “number:boards” is for the team events of § 414B–G only.") % where]
    too_many = [b for b in given if b > expect.team_boards]
    if too_many:
        text = _("Line %(line)s: a player played %(boards)s boards, more than the team's %(team)s.")
        return [text % {**where, "boards": max(too_many), "team": expect.team_boards}]
    return []


def _extras(values: dict[str, str], expect: Expectation, where: dict) -> tuple[dict, list[str]]:
    """``won=``/``drawn=`` (teams), ``rounds=`` (cup) and ``bonus=`` (a hand-entered § 406B2 bonus)."""
    allowed = {"teams": ("won", "drawn"), "cup": ("rounds",)}.get(expect.entry, ())
    if expect.bonus_unit is not None:
        allowed = (*allowed, "bonus")
    extras: dict = {}
    errors = []
    for key, value in values.items():
        if key not in allowed:
            text = _("Line %(line)s: “%(key)s=” has no meaning here; this form takes %(allowed)s.")
            shown = ", ".join(f"{name}=" for name in allowed) or _("place and player numbers only")
            errors.append(text % {**where, "key": key[:20], "allowed": shown})
        elif key in ("won", "drawn"):
            if not (value.isascii() and value.isdecimal()) or int(value) > MAX_MATCHES:
                text = _("Line %(line)s: %(key)s= takes a number of matches from 0 to %(limit)s, not “%(value)s”.")
                errors.append(text % {**where, "key": key, "limit": MAX_MATCHES, "value": value[:20]})
            else:
                extras[key] = int(value)
        elif key == "rounds":
            rounds = tuple(filter(None, value.lower().split(",")))
            unknown = [r for r in rounds if r not in expect.rounds]
            if unknown or len(rounds) > MAX_CUP_MATCHES:
                text = _("Line %(line)s: rounds= lists at most %(limit)s won matches, each one of %(rounds)s.")
                errors.append(text % {**where, "limit": MAX_CUP_MATCHES, "rounds": ", ".join(expect.rounds)})
            else:
                extras["rounds"] = rounds
        else:
            bonus, problem = _bonus(value, expect.bonus_unit, where)
            errors += problem
            extras["bonus"] = bonus
    return extras, errors


def _bonus(value: str, unit: Fraction, where: dict) -> tuple[Decimal | None, list[str]]:
    try:
        amount = Decimal(value.replace(",", ".")) if len(value) <= 12 else None
    except InvalidOperation:
        amount = None
    if amount is None or not amount.is_finite() or not 0 <= amount <= MAX_BONUS or Fraction(amount) % unit:
        text = _("Line %(line)s: bonus= takes an amount from 0 to %(limit)s in steps of %(unit)s, not “%(value)s”.")
        step = shown_amount(Decimal(unit.numerator) / unit.denominator)  # exact: the unit is 1/10**decimals
        return None, [text % {**where, "limit": MAX_BONUS, "unit": step, "value": value[:20]}]
    return amount, []


def _check_players(lines: list[RankingLine]) -> list[str]:
    seen: dict[str, int] = {}
    errors = []
    for line in lines:
        for number in line.numbers:
            if number in seen:
                text = _("Line %(line)s: player %(number)s is already on line %(other)s.")
                errors.append(text % {"line": line.line, "number": number, "other": seen[number]})
            else:
                seen[number] = line.line
    return errors


def _check_places(lines: list[RankingLine], participants: int) -> list[str]:
    """Places as a competition ranking from 1 (1, 2, 3, 3, 5; formats.md § 1.5.1): a tie written ``3-4`` is
    on as many lines as it spans, and lines that repeat one place form a tie over the next places."""
    groups: dict[int, list[RankingLine]] = {}
    for line in lines:
        groups.setdefault(line.first, []).append(line)
    expected = 1
    errors = []
    for first in sorted(groups):
        group = groups[first]
        spans = {(line.first, line.last) for line in group}
        head = group[0]
        if len(spans) > 1 or (head.last != head.first and head.last - head.first + 1 != len(group)):
            text = _("Line %(line)s: %(count)s lines share place %(place)s, which does not fit the tie written there.")
            errors.append(text % {"line": head.line, "count": len(group), "place": head.place_text})
        if first != expected:
            text = _("Line %(line)s: place %(place)s leaves a gap in the ranking: the next place is %(expected)s.")
            errors.append(text % {"line": head.line, "place": first, "expected": expected})
        elif first + len(group) - 1 > participants:
            text = _("Line %(line)s: %(count)s lines tied on place %(place)s reach beyond the field of %(field)s.")
            errors.append(text % {"line": head.line, "count": len(group), "place": first, "field": participants})
        expected = first + len(group)
    return errors
