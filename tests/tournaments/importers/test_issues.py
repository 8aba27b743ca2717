"""The issue catalogue: documented in one table, every error code has a fixture, every message renders."""

from __future__ import annotations

import json
import re

import pytest

from tournaments.importers import parse_results
from tournaments.issues import CATALOGUE, Severity, file_codes, make_issue, upload_codes
from tournaments.issues.file_codes import FILE_CODES

#: (code, variant) of every error -> the project's fixture that produces it. FILE_TOO_LARGE is
#: generated in test_hostile.py (a 50 MB file is not committed).
ERROR_FIXTURES = {
    ("FILE_EMPTY", ""): "empty.xml",
    ("FILE_BINARY", ""): "binary_renamed.xml",
    ("FILE_BINARY", "access"): "bridgemate_renamed.bws",
    ("FILE_BINARY", "zip"): "workbook_renamed.csv",
    ("FILE_BINARY", "ole"): "binary_ole_renamed.xls",
    ("FILE_BINARY", "pdf"): "document_renamed.xml",
    ("FORMAT_UNKNOWN", ""): "notes.txt",
    ("FORMAT_UNKNOWN", "xml"): "nz_scorer_native.xml",
    ("FORMAT_UNKNOWN", "csv"): "ranking_export_not_template.csv",
    ("XML_MALFORMED", ""): "xml_truncated.xml",
    ("XML_FORBIDDEN", ""): "hostile_billion_laughs.xml",
    ("EVENT_COUNT", ""): "event_count_two.xml",
    ("EVENT_TYPE_UNSUPPORTED", ""): "event_type_unsupported.xml",
    ("DATE_MISSING", ""): "date_missing.xml",
    ("DATE_UNPARSEABLE", ""): "date_unparseable.xml",
    ("DATE_UNPARSEABLE", "us"): "date_us_style.xml",
    ("NO_ENTRIES", ""): "no_entries.xml",
    ("ENTRY_DUPLICATE", ""): "entry_duplicate.xml",
    ("ENTRY_NO_PLAYERS", ""): "entry_no_players.xml",
    ("ID_DUPLICATE_IN_EVENT", ""): "player_twice.xml",
    ("SCORE_UNPARSEABLE", ""): "score_unparseable.xml",
    ("SCORE_UNPARSEABLE", "field"): "boards_unparseable.xml",
    ("SCORE_UNPARSEABLE", "boards"): "pbn_nrboards_out_of_bound.pbn",
    ("PLACE_UNPARSEABLE", ""): "place_unparseable.xml",
    ("PLACE_MISSING", "partial"): "place_partial.xml",
    ("PLACE_MISSING", "no_score"): "place_no_score.xml",
    ("PLACE_SEQUENCE_INCONSISTENT", ""): "place_sequence_dense.xml",
    ("PLACES_CONTRADICT_SCORES", ""): "places_contradict_scores.xml",
    ("MATCH_TEAM_UNKNOWN", ""): "match_team_unknown.xml",
    ("MATCH_DUPLICATE", ""): "csv_match_duplicate.csv",
    ("MATCH_DUPLICATE", "boards"): "usebio_match_listed_twice_boards.xml",
    ("NO_RANKING_TABLE", ""): "pbn_no_deals_no_table.pbn",
    ("NO_RANKING_TABLE", "hand_records"): "pbn_hand_records_only.pbn",
    ("NO_RANKING_TABLE", "table_results"): "pbn_table_results_only.pbn",
    ("PBN_ROW_MALFORMED", ""): "pbn_row_malformed.pbn",
    ("PBN_ROW_MALFORMED", "ids"): "pbn_id_count_mismatch.pbn",
    ("PBN_TRUNCATED", ""): "pbn_truncated.pbn",
    ("CSV_COLUMN_MISSING", ""): "csv_column_missing.csv",
    ("CSV_VALUE_INVALID", ""): "csv_value_invalid.csv",
}
GENERATED_IN_TESTS = {("FILE_TOO_LARGE", "")}


def test_the_module_docstring_table_lists_exactly_the_catalogue_codes():
    documented = re.findall(r"^([A-Z][A-Z0-9_]+)\s+(error|warning|info)\s", file_codes.__doc__, re.MULTILINE)
    assert [code for code, _severity in documented] == list(FILE_CODES)
    for code, severity in documented:
        assert FILE_CODES[code][""][0] == severity, code


def test_every_error_code_and_variant_has_its_own_fixture():
    errors = {
        (code, variant)
        for code, variants in FILE_CODES.items()
        for variant, (sev, _t) in variants.items()
        if sev == "error"
    }
    assert errors == set(ERROR_FIXTURES) | GENERATED_IN_TESTS


@pytest.mark.parametrize(("code", "variant"), sorted(ERROR_FIXTURES))
def test_each_error_fixture_produces_its_error(data, code, variant):
    name = ERROR_FIXTURES[(code, variant)]
    result = parse_results(data(name), name)
    found = [i for i in result.issues if (i.code, i.variant) == (code, variant)]
    assert found, result.codes
    assert all(i.severity is Severity.ERROR for i in found)
    assert result.has_errors


def _settings_ready() -> bool:
    from django.conf import settings

    try:
        return bool(settings.configured and settings.USE_I18N is not None)
    except Exception:  # ImproperlyConfigured: running with -p no:django and no settings
        return False


def all_fixture_issues(data_dir):
    for path in sorted(data_dir.iterdir()):
        yield from parse_results(path.read_bytes(), path.name).issues


@pytest.mark.parametrize("language", ["en", "da", "hr"])
def test_every_issue_of_every_fixture_renders_its_message_with_all_placeholders_filled(data_dir, language):
    if not _settings_ready():
        pytest.skip("Django settings are not configured; messages are checked by code and params elsewhere")
    from django.utils import translation

    with translation.override(language):
        for issue in all_fixture_issues(data_dir):
            message = str(issue.message)
            assert message and "%(" not in message, (issue.code, message)
            assert str(issue.where.label)
            json.dumps(issue.as_dict())  # the API form is plain JSON


def test_messages_are_lazy_and_params_are_plain_values_for_code_level_checks(data):
    result = parse_results(data("player_twice.xml"), "x.xml")
    (issue,) = result.issues
    assert issue.template is CATALOGUE["ID_DUPLICATE_IN_EVENT"][""][1]
    assert all(isinstance(v, (str, int)) for v in issue.params.values())


def test_the_upload_codes_tables_list_exactly_the_upload_service_codes():
    """The upload service's codes are documented in their modules' tables, as the file's codes are."""
    from tournaments.issues import dbf_codes
    from tournaments.issues.upload_codes import UPLOAD_CODES

    tables = upload_codes.__doc__ + dbf_codes.__doc__
    documented = re.findall(r"^([A-Z][A-Z0-9_]+)\s+(error|warning|info)\s", tables, re.MULTILINE)
    assert sorted(code for code, _severity in documented) == sorted(UPLOAD_CODES)
    for code, severity in documented:
        assert UPLOAD_CODES[code][0] == severity, code


def test_one_issue_type_for_the_file_and_the_upload_service():
    """The importers' and the upload service's findings are the same :class:`Issue`: one catalogue, one JSON
    shape (numbers stay numbers, a date is ISO 8601), and a code or variant outside the catalogue is refused."""
    import datetime

    file_issue = make_issue("ENTRY_DUPLICATE", entry=3, group="A")
    upload_issue = make_issue("DATE_IN_FUTURE", date=datetime.date(2026, 12, 24))
    assert type(file_issue) is type(upload_issue)
    assert file_issue.as_dict()["params"] == {"entry": 3, "group": "A"}
    assert upload_issue.as_dict()["params"] == {"date": "2026-12-24"}
    assert upload_issue.severity is Severity.ERROR
    assert set(CATALOGUE) >= {"ENTRY_DUPLICATE", "DATE_IN_FUTURE"}
    with pytest.raises(KeyError):
        make_issue("NOT_A_CODE")
    with pytest.raises(KeyError):
        make_issue("DATE_IN_FUTURE", variant="us")
