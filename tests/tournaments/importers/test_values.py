"""The small readers every format shares: places, dates, numbers, ids, encodings, mojibake."""

from __future__ import annotations

import codecs
import datetime
from decimal import Decimal

import pytest

from tournaments.importers.places import competition_ranking
from tournaments.importers.text import (
    decode_text,
    find_mojibake,
    normalise_id,
    parse_date,
    parse_decimal,
    parse_place,
    split_entry_number,
)
from tournaments.issues import IssueList, Location


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3", (3, False, True)),
        ("3=", (3, True, True)),
        (" 3 = ", (3, True, True)),
        ("=3", (3, True, True)),
        ("", (None, False, True)),
        (None, (None, False, True)),
        ("0", (None, False, False)),
        ("first", (None, False, False)),
        ("3-4", (None, False, False)),
    ],
)
def test_places_are_numbers_with_an_optional_tie_mark_pitfall_1(text, expected):
    assert parse_place(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("09/03/2026", (datetime.date(2026, 3, 9), None)),  # USEBIO 1.2, day first
        ("5/12/2015", (datetime.date(2015, 12, 5), None)),  # NZ converter, no leading zero
        ("14.03.2025", (datetime.date(2025, 3, 14), None)),
        ("2025-03-14", (datetime.date(2025, 3, 14), None)),  # USEBIO 1.3
        ("1999.01.29", (datetime.date(1999, 1, 29), None)),  # PBN
        ("12/25/2024", (None, "us")),  # never guessed as month/day
        ("31/02/2025", (None, "unparseable")),
        ("14/03/25", (None, "unparseable")),  # two-digit years are not guessed either
        ("????.??.??", (None, "missing")),
        ("", (None, "missing")),
    ],
)
def test_dates_are_day_first_or_iso_and_never_guessed_as_us_pitfall_8(text, expected):
    assert parse_date(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("-5.00", (Decimal("-5.00"), True)),
        ("62,10", (Decimal("62.10"), True)),
        ("+3", (Decimal("3"), True)),
        ("55.5%", (Decimal("55.5"), True)),
        ("\u22127", (Decimal("-7"), True)),
        ("", (None, True)),
        ("1O5", (None, False)),
        ("1,234.5", (None, False)),
    ],
)
def test_decimals_accept_signs_and_decimal_commas_but_not_garbage(text, expected):
    assert parse_decimal(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1", ("1", None, None)),
        ("1NS", ("1", "NS", None)),
        ("12EW", ("12", "EW", None)),
        ("(A) 1 NS", ("1", "NS", "A")),
        ("(C) 3", ("3", None, "C")),
        ("07", ("7", None, None)),
        ("A12", ("A12", None, None)),
    ],
)
def test_entry_numbers_carry_direction_and_section_in_every_dialect_pitfall_2(text, expected):
    assert split_entry_number(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("0555002", "0555002"), (" 788678 ", "788678"), ("0", None), ("000", None), ("", None), ("-", None), (None, None)],
)
def test_membership_numbers_keep_leading_zeros_and_zero_means_none_pitfall_4(text, expected):
    assert normalise_id(text) == expected


@pytest.mark.parametrize(
    ("places", "expected"),
    [
        ([1, 2, 3, 3, 5], None),
        ([3, 1, 2], None),
        ([1, 1, 1], None),
        ([1, 2, 2, 3], (2, 4, 3)),  # dense ranking
        ([1, 2, 4], (2, 3, 4)),  # a gap
        ([2, 3], (0, 1, 2)),  # does not start at 1
    ],
)
def test_competition_ranking_is_recognised_and_the_first_break_named(places, expected):
    assert competition_ranking(places) == expected


def test_a_bom_wins_over_everything():
    issues = IssueList()
    text, decision = decode_text(codecs.BOM_UTF8 + "Čačić".encode(), issues, declared="iso-8859-1")
    assert (text, decision.method, decision.encoding) == ("Čačić", "bom", "utf-8")
    assert issues == []


def test_a_wrong_declaration_is_replaced_by_a_guess_and_reported():
    issues = IssueList()
    text, decision = decode_text("Čačić Šimić Žužić".encode("cp1250"), issues, declared="utf-8")
    assert decision.encoding == "cp1250" and decision.declared == "utf-8"
    assert [(i.code, i.params) for i in issues] == [
        ("ENCODING_DECLARATION_WRONG", {"declared": "utf-8", "encoding": "cp1250"})
    ]
    assert text == "Čačić Šimić Žužić"


def test_undeclared_valid_utf8_is_utf8_and_plain_ascii_is_called_ascii():
    issues = IssueList()
    assert decode_text("Ærø".encode(), issues)[1].method == "utf-8"
    assert decode_text(b"abc", issues)[1].method == "ascii"
    assert issues == []


def test_the_configured_fallback_is_used_when_detection_has_nothing_to_go_on():
    issues = IssueList()
    text, decision = decode_text(b"\xe6", issues, fallbacks=("cp1252",))
    assert decision.encoding in ("cp1252", "cp1250", "iso8859-2", "iso8859-1", "iso8859-15")
    assert decision.guessed and len(text) == 1
    assert [i.code for i in issues] == ["ENCODING_GUESSED"]


@pytest.mark.parametrize("name", ["Søren Ærø", "Ivan Čačić", "Đurđa Kovačević", "Mette Højgaard", "O'Neill", "Ãrpád"])
def test_real_names_are_not_taken_for_mojibake(name):
    assert find_mojibake([(name, Location())]) is None


@pytest.mark.parametrize(
    ("garbled", "repaired"),
    [("Å½užić", "Žužić"), ("SÃ¸ren", "Søren"), ("Ä\x8cačić", "Čačić")],
)
def test_utf8_read_as_latin1_is_recognised_and_repaired_for_the_message(garbled, repaired):
    found = find_mojibake([(garbled, Location(line=3))])
    assert found is not None and found[1] == repaired and found[2].line == 3
