"""Bad input tried as a hostile or careless user would: each gets its own clear issue, nothing crashes."""

from __future__ import annotations

import io
import socket
import urllib.request

import pytest

import tournaments.importers as importers
from tournaments.importers import MAX_UPLOAD_BYTES, parse_results, parse_upload

FIFTY_MB = 50 * 1024 * 1024


def test_a_billion_laughs_entity_bomb_is_refused_before_any_expansion(data):
    result = parse_results(data("hostile_billion_laughs.xml"), "results.xml")
    assert result.event is None
    assert [(i.code, i.severity) for i in result.issues] == [("XML_FORBIDDEN", "error")]
    assert result.issues[0].params == {"what": "<!ENTITY lol>"}


def test_an_external_entity_is_refused_and_the_local_file_never_read(data):
    result = parse_results(data("hostile_external_entity.xml"), "results.xml")
    assert result.codes == ["XML_FORBIDDEN"]
    assert "root:" not in repr(result)


def test_an_entity_bomb_under_another_root_element_is_still_called_forbidden():
    bomb = b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><lolz>&lol2;</lolz>'
    assert parse_results(bomb, "lolz.xml").codes == ["XML_FORBIDDEN"]


def test_the_dtd_named_in_the_doctype_is_never_fetched(sample, monkeypatch):
    def no_network(*args, **kwargs):
        raise AssertionError("the importer tried to use the network")

    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(urllib.request, "urlopen", no_network)
    # Compscore files name http://www.ebu.co.uk/usebio/usebio_v1_2.dtd
    result = parse_results(sample("usebio_cobalt_butler_howell.xml"), "x.xml")
    assert not result.has_errors


def test_a_50_mb_upload_is_refused_by_size_before_anything_parses_it(monkeypatch):
    def must_not_run(*args, **kwargs):
        raise AssertionError("a parser saw an oversized file")

    monkeypatch.setattr(importers, "sniff", must_not_run)
    monkeypatch.setattr(importers, "parse_usebio", must_not_run)
    data = b'<?xml version="1.0"?><USEBIO Version="1.2">' + b" " * FIFTY_MB
    result = parse_results(data, "huge.xml")
    assert result.event is None
    assert [(i.code, i.severity) for i in result.issues] == [("FILE_TOO_LARGE", "error")]
    assert result.issues[0].params == {"filename": "huge.xml", "size_mb": "50.1", "limit_mb": "5.0"}


class EndlessUpload(io.RawIOBase):
    """A 50 MB upload that is never held in memory; counts what the importer reads."""

    size = FIFTY_MB

    def __init__(self) -> None:
        self.delivered = 0

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        n = self.size - self.delivered if n < 0 else min(n, self.size - self.delivered)
        self.delivered += n
        return b"<" * n


def test_a_50_mb_upload_stream_is_read_only_up_to_the_limit():
    stream = EndlessUpload()
    result = parse_upload(stream, "huge.xml")
    assert result.codes == ["FILE_TOO_LARGE"]
    assert result.issues[0].params["size_mb"] == "50.0"
    assert stream.delivered == MAX_UPLOAD_BYTES + 1


def test_a_small_upload_stream_is_parsed_normally(data):
    result = parse_upload(io.BytesIO(data("usebio_ties_equals.xml")), "ties.xml")
    assert result.codes == [] and result.event.group("-/-/-").field_size == 6


@pytest.mark.parametrize(
    ("name", "variant"),
    [
        ("binary_renamed.xml", ""),
        ("bridgemate_renamed.bws", "access"),
        ("workbook_renamed.csv", "zip"),
        ("binary_ole_renamed.xls", "ole"),
        ("document_renamed.xml", "pdf"),
    ],
)
def test_a_binary_file_whatever_its_name_is_refused_saying_what_it_is(data, name, variant):
    result = parse_results(data(name), name)
    assert result.event is None
    assert [(i.code, i.variant) for i in result.issues] == [("FILE_BINARY", variant)]
    assert result.issues[0].params["filename"] == name


def test_cp1250_bytes_without_an_xml_declaration_are_read_with_the_guess_reported_pitfall_9(data):
    result = parse_results(data("usebio_cp1250_no_declaration.xml"), "cp1250.xml")
    assert [(i.code, i.variant, i.params) for i in result.issues] == [
        ("ENCODING_GUESSED", "xml", {"encoding": "cp1250"})
    ]
    event = result.event
    assert event.encoding.encoding == "cp1250" and event.encoding.guessed
    assert event.name == "Četvrtak parovi"
    assert [p.name for p in event.group("-/-/-").entries[0].players] == ["Ivan Čačić", "Željka Šimić"]
    assert event.group("-/-/-").entries[1].players[0].name == "Đurđa Kovačević"


def test_utf8_bytes_declared_as_latin1_are_flagged_as_garbled_pitfall_9(data):
    result = parse_results(data("usebio_utf8_declared_latin1.xml"), "mojibake.xml")
    assert result.codes == ["ENCODING_SUSPECT"]
    assert result.issues[0].params["repaired"] == "Četvrtak parovi"


def test_a_player_entered_twice_in_one_event_is_an_error_naming_both_entries(data):
    result = parse_results(data("player_twice.xml"), "twice.xml")
    assert result.codes == ["ID_DUPLICATE_IN_EVENT"]
    issue = result.issues[0]
    assert issue.params == {
        "national_id": "10004",
        "name": "Petra Olsen",
        "entry": "5",
        "other_name": "Petra Olsen",
        "other_entry": "2",
    }
    assert issue.where.path == "USEBIO/EVENT/PARTICIPANTS/PAIR[5]/PLAYER[1]"


def test_places_that_contradict_the_scores_are_an_error(data):
    result = parse_results(data("places_contradict_scores.xml"), "contradict.xml")
    assert result.codes == ["PLACES_CONTRADICT_SCORES"]
    assert result.issues[0].params == {
        "entry": "2",
        "place": 2,
        "score": "66.67",
        "other_entry": "1",
        "other_place": 1,
        "other_score": "55.56",
    }


def test_a_truncated_xml_file_names_the_line_and_column(data):
    result = parse_results(data("xml_truncated.xml"), "cut.xml")
    assert result.codes == ["XML_MALFORMED"]
    assert (result.issues[0].params["line"], result.issues[0].where.line) == (32, 32)


def test_deeply_nested_wrappers_do_not_crash_the_reader():
    deep = b'<USEBIO Version="1.2"><EVENT EVENT_TYPE="MP_PAIRS"><DATE>1/1/2025</DATE>'
    deep += b"<SESSION>" * 50_000 + b"</SESSION>" * 50_000 + b"</EVENT></USEBIO>"
    result = parse_results(deep, "deep.xml")
    assert result.codes == ["ELEMENTS_IGNORED", "NO_ENTRIES"]


def test_a_flood_of_identical_issues_is_capped_and_counted():
    pair = b"<PAIR><PAIR_NUMBER>1</PAIR_NUMBER><PLACE>1</PLACE><PLAYER><PLAYER_NAME>A</PLAYER_NAME></PLAYER></PAIR>"
    text = b'<USEBIO Version="1.2"><EVENT EVENT_TYPE="MP_PAIRS"><DATE>1/1/2025</DATE><PARTICIPANTS>'
    text += pair * 1000 + b"</PARTICIPANTS></EVENT></USEBIO>"
    result = parse_results(text, "flood.xml")
    assert result.codes.count("ENTRY_DUPLICATE") == 200
    capped = [i.params for i in result.issues if i.code == "ISSUES_CAPPED"]
    assert {"kind": "ENTRY_DUPLICATE", "count": 799, "shown": 200} in capped


def test_utf16_with_a_byte_order_mark_is_read(data):
    text = data("usebio_ties_equals.xml").decode("utf-8").replace('encoding="utf-8"', 'encoding="utf-16"')
    result = parse_results(text.encode("utf-16"), "utf16.xml")
    assert result.codes == []
    assert result.event.encoding.method == "bom"


def test_garbage_text_gets_the_list_of_supported_formats(data):
    result = parse_results(data("notes.txt"), "notes.txt")
    assert [(i.code, i.variant) for i in result.issues] == [("FORMAT_UNKNOWN", "")]
    assert "supported" in result.issues[0].params
