"""The catalogue of issue codes the results importers report: severity and message of every variant.

Every code has a default variant ``""`` and may have named ones (``FILE_BINARY`` / ``access``); an
:class:`~.issues.Issue` is built from here by :func:`~.issues.make_issue`. Messages are lazy
translations with named placeholders, filled from the issue's ``params`` when rendered.

Severities: ``error`` blocks the upload; ``warning`` needs the director's acknowledgement; ``info`` is
shown for the record. The table below is the single list of codes (a test keeps it in step with
:data:`CATALOGUE`).

==============================  ========  ==================================================================
Code                            Severity  When
==============================  ========  ==================================================================
FILE_EMPTY                      error     the upload has no bytes (or only white space)
FILE_TOO_LARGE                  error     the upload exceeds the size limit (5 MB); checked before parsing
FILE_BINARY                     error     binary data (variants name Access/BWS, ZIP/xlsx, OLE/xls, PDF)
FORMAT_UNKNOWN                  error     text that is not USEBIO, PBN or our CSV (variants: xml, csv)
ENCODING_GUESSED                warning   no declared encoding and not UTF-8: the encoding was guessed
ENCODING_DECLARATION_WRONG      warning   the declared encoding does not decode the bytes: guessed instead
ENCODING_SUSPECT                warning   decoded text looks like mojibake (``Å½``) or has undecodable bytes
XML_MALFORMED                   error     the XML is not well-formed (line and column given)
XML_FORBIDDEN                   error     entity declarations / external references (entity bombs, XXE)
USEBIO_VERSION_UNKNOWN          warning   USEBIO ``Version`` other than 1.0-1.3
EVENT_COUNT                     error     a USEBIO file with no EVENT or with several
EVENT_TYPE_UNSUPPORTED          error     an event type we cannot rank (e.g. ``NOTSUP``)
EVENT_TYPE_MISSING              warning   no event type: the form was inferred from the content
EVENT_NAME_MISSING              warning   no event name/description/title
DATE_MISSING                    error     no event date
DATE_UNPARSEABLE                error     a date we cannot read (never guessed as US month/day)
ELEMENTS_IGNORED                info      unknown parts of the file that were skipped (listed once)
SESSION_RESULTS_IGNORED         info      per-session rankings skipped because an overall ranking exists
NO_ENTRIES                      error     no pairs, teams or players at all
ENTRY_DUPLICATE                 error     the same entry (session/section/direction/number) twice
ENTRY_NO_PLAYERS                error     an entry without players (and not a phantom)
ENTRY_NUMBER_MISSING            warning   an entry without a number (numbered by position)
ENTRY_PHANTOM                   info      a phantom / sit-out entry, left out of the field
PLAYER_COUNT_UNUSUAL            warning   a pair without 2 players, a team with fewer than 4 or more than 6
NAME_MISSING                    warning   a player without a name
ID_MISSING                      warning   a player without a membership number (``0`` counts as none)
ID_DUPLICATE_IN_EVENT           error     the same membership number twice in one session of an event
SCORE_UNPARSEABLE               error     a score / percentage / boards value that is not a number
PLACE_UNPARSEABLE               error     a place that is not ``3`` or ``3=``
PLACE_MISSING                   warning   no places at all: computed from the scores (variants ``partial``
                                          and ``no_score`` are errors)
PLACE_SEQUENCE_INCONSISTENT     error     places that are not a competition ranking (1, 2, 3, 3, 5)
PLACES_CONTRADICT_SCORES        error     a better place with a lower score in the same group
TIE_SCORES_DIFFER               warning   entries sharing a place with different scores
TIE_NOT_SHARED                  warning   entries with equal scores on different places
TIE_MARK_UNMATCHED              warning   ``3=`` where no other entry has place 3
GROUP_AMBIGUOUS                 warning   the ranking groups were decided against a declaration or a guess
HANDICAP_RANKED_ON_SCRATCH      warning   a handicap event, re-ranked on the scratch scores
BOARDS_DECLARED_DIFFER          warning   declared boards differ from the boards found in travellers
MATCH_TEAM_UNKNOWN              error     a match names a team that is not in the results
MATCH_DUPLICATE                 error     a team plays twice in one round
NO_RANKING_TABLE                error     a PBN without a TotalScoreTable (hand records, table results)
PBN_ROW_MALFORMED               error     a ranking-table row that does not fit its header
PBN_ID_COLUMN_USED              info      which user-defined column gave the membership numbers
PBN_ID_COLUMN_MISSING           warning   a PBN ranking without a membership-number column
PBN_TABLE_REPEATED              info      a ranking table that repeats an earlier one (ignored)
PBN_TABLE_COMMENT               warning   a comment inside a ranking table (e.g. "only the best 10")
CSV_COLUMN_MISSING              error     a required column is absent from a CSV table header
CSV_VALUE_INVALID               error     a CSV cell that is not a valid value for its column
CSV_ROW_IGNORED                 warning   a CSV row outside the event fields and tables
CSV_COLUMN_UNKNOWN              info      CSV columns that are not in the template (ignored)
ISSUES_CAPPED                   info      more than 200 issues of one code: the rest are counted, not listed
==============================  ========  ==================================================================
"""

from __future__ import annotations

from enum import StrEnum

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


class Severity(StrEnum):
    """How much an issue matters: an error blocks the upload, a warning needs acknowledging, info is shown."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO  # noqa: E741 - short aliases for the table below

#: What the refusals of an unknown or binary file offer instead (the ``supported`` parameter).
SUPPORTED_FORMATS = _("USEBIO XML (1.2 or 1.3), PBN with a ranking table (TotalScoreTable), or our CSV templates")


#: code -> variant -> (severity, message template with named placeholders)
CATALOGUE: dict[str, dict[str, tuple[Severity, Promise]]] = {
    "FILE_EMPTY": {"": (E, _("The file %(filename)s is empty."))},
    "FILE_TOO_LARGE": {
        "": (
            E,
            _(
                "The file %(filename)s is %(size_mb)s MB; the limit is %(limit_mb)s MB. Results files are much "
                "smaller: check that you chose the right file."
            ),
        )
    },
    "FILE_BINARY": {
        "": (
            E,
            _(
                "The file %(filename)s contains binary data, not a results file, whatever its name says. "
                "Upload %(supported)s."
            ),
        ),
        "access": (
            E,
            _(
                "The file %(filename)s is a Microsoft Access database (for example a Bridgemate .bws file). It "
                "holds raw table results, not the final ranking, so it cannot be imported. Export the results "
                "from your scoring program as USEBIO XML, PBN or our CSV template."
            ),
        ),
        "zip": (
            E,
            _(
                "The file %(filename)s is a ZIP archive or a spreadsheet workbook (xlsx/ods). Save the sheet as "
                "CSV (UTF-8) in our template, or export USEBIO XML or PBN from your scoring program."
            ),
        ),
        "ole": (
            E,
            _(
                "The file %(filename)s is an old Microsoft Office document (for example .xls). Save the sheet "
                "as CSV (UTF-8) in our template, or export USEBIO XML or PBN from your scoring program."
            ),
        ),
        "pdf": (
            E,
            _(
                "The file %(filename)s is a PDF document, which cannot be read as results. Export the results "
                "from your scoring program as USEBIO XML, PBN or our CSV template."
            ),
        ),
    },
    "FORMAT_UNKNOWN": {
        "": (E, _("The file %(filename)s is not in a format we can read. Upload %(supported)s.")),
        "xml": (
            E,
            _("The file %(filename)s is XML, but its root element is <%(root)s>, not <USEBIO>. Upload %(supported)s."),
        ),
        "csv": (
            E,
            _(
                "The file %(filename)s looks like a table, but it does not follow our CSV template: the results "
                "header must have the columns %(required)s. Download the template from the upload page."
            ),
        ),
    },
    "ENCODING_GUESSED": {
        "": (
            W,
            _(
                "The file does not say which character encoding it uses and is not UTF-8; it was read as "
                "%(encoding)s. Check that names with accents look right."
            ),
        ),
        "xml": (
            W,
            _(
                "The XML file declares no encoding, so it should be UTF-8, but it is not; it was read as "
                "%(encoding)s. Check that names with accents look right."
            ),
        ),
    },
    "ENCODING_DECLARATION_WRONG": {
        "": (
            W,
            _(
                "The file declares the encoding %(declared)s, but its content is not valid %(declared)s; it was "
                "read as %(encoding)s. Check that names with accents look right."
            ),
        )
    },
    "ENCODING_SUSPECT": {
        "": (
            W,
            _(
                "Some text looks garbled (%(sample)s, probably meant as %(repaired)s): the file was saved in one "
                "encoding and declared as another. Check the names or export the file again as UTF-8."
            ),
        ),
        "undecodable": (
            W,
            _("Some characters could not be decoded (%(sample)s). Check the names or export the file again as UTF-8."),
        ),
    },
    "XML_MALFORMED": {
        "": (
            E,
            _(
                "The XML is damaged at line %(line)s, column %(column)s (%(reason)s). The file may be "
                "incomplete or edited by hand; export it again from the scoring program."
            ),
        )
    },
    "XML_FORBIDDEN": {
        "": (
            E,
            _(
                "The XML file declares entities or refers to external resources (%(what)s). Results files never "
                "need these, and they are used to attack servers, so the file is refused."
            ),
        )
    },
    "USEBIO_VERSION_UNKNOWN": {
        "": (
            W,
            _(
                "The file says it is USEBIO version %(version)s; we know versions 1.0 to 1.3. It was read like "
                "1.3: check the result carefully."
            ),
        )
    },
    "EVENT_COUNT": {
        "": (
            E,
            _("A USEBIO file must hold exactly one EVENT; this one has %(count)s. Upload each event in its own file."),
        )
    },
    "EVENT_TYPE_UNSUPPORTED": {
        "": (E, _("The event type %(event_type)s is not supported. Supported event types: %(supported)s."))
    },
    "EVENT_TYPE_MISSING": {
        "": (W, _("The file does not say what kind of event this is; it was read as a %(form)s event."))
    },
    "EVENT_NAME_MISSING": {"": (W, _("The file gives no name for the event. Please add one before confirming."))},
    "DATE_MISSING": {"": (E, _("The file does not give the date of the event."))},
    "DATE_UNPARSEABLE": {
        "": (
            E,
            _(
                "%(value)s is not a date we can read. Write day/month/year (31/12/2025 or 31.12.2025) or "
                "year-month-day (2025-12-31)."
            ),
        ),
        "us": (
            E,
            _(
                "%(value)s looks like a month/day/year date; we never guess it. Write day/month/year "
                "(31/12/2025) or year-month-day (2025-12-31)."
            ),
        ),
    },
    "ELEMENTS_IGNORED": {"": (I, _("These parts of the file are not used: %(names)s."))},
    "SESSION_RESULTS_IGNORED": {
        "": (I, _("The file has an overall ranking, so the rankings of the single sessions were not used."))
    },
    "NO_ENTRIES": {"": (E, _("The file has no results: no pairs, teams or players."))},
    "ENTRY_DUPLICATE": {
        "": (E, _("Entry %(entry)s appears more than once in %(group)s; only the first one was read."))
    },
    "ENTRY_NO_PLAYERS": {"": (E, _("Entry %(entry)s has no players."))},
    "ENTRY_NUMBER_MISSING": {"": (W, _("An entry has no number; it was given number %(entry)s by its position."))},
    "ENTRY_PHANTOM": {
        "": (I, _("Entry %(entry)s is a phantom or sit-out (%(reason)s) and is not counted in the field."))
    },
    "PLAYER_COUNT_UNUSUAL": {
        "": (
            W,
            _(
                "Entry %(entry)s has %(count)s players; a %(form)s entry normally has %(expected)s. Check "
                "substitutes and missing players."
            ),
        )
    },
    "NAME_MISSING": {"": (W, _("A player of entry %(entry)s has no name."))},
    "ID_MISSING": {
        "": (
            W,
            _(
                "%(name)s (entry %(entry)s) has no membership number. Match the player to a member or mark "
                "them as a guest."
            ),
        )
    },
    "ID_DUPLICATE_IN_EVENT": {
        "": (
            E,
            _(
                "Membership number %(national_id)s appears twice: %(name)s in entry %(entry)s and "
                "%(other_name)s in entry %(other_entry)s. A player can take part only once in an event."
            ),
        )
    },
    "SCORE_UNPARSEABLE": {
        "": (E, _("%(value)s is not a number (%(field)s of entry %(entry)s).")),
        "field": (E, _("%(value)s is not a number (%(field)s).")),
    },
    "PLACE_UNPARSEABLE": {
        "": (E, _("The place %(value)s of entry %(entry)s is not a number (a tie is written 3 or 3=)."))
    },
    "PLACE_MISSING": {
        "": (
            W,
            _(
                "The ranking of %(group)s has no places; they were computed from the %(basis)s (equal results "
                "share a place). Check the ranking."
            ),
        ),
        "partial": (E, _("Entry %(entry)s has no place, while other entries in %(group)s have one.")),
        "no_score": (E, _("The ranking of %(group)s has neither places nor scores, so it cannot be computed.")),
    },
    "PLACE_SEQUENCE_INCONSISTENT": {
        "": (
            E,
            _(
                "The places in %(group)s do not form a ranking: after %(after)s we expected place %(expected)s "
                "but found %(found)s. Tied entries share the best place and the next place skips (1, 2, 3, 3, 5)."
            ),
        )
    },
    "PLACES_CONTRADICT_SCORES": {
        "": (
            E,
            _(
                "Entry %(entry)s is placed %(place)s with %(score)s, but entry %(other_entry)s is placed higher "
                "(%(other_place)s) with less (%(other_score)s). Places and scores contradict each other."
            ),
        )
    },
    "TIE_SCORES_DIFFER": {
        "": (
            W,
            _(
                "Entries %(entry)s and %(other_entry)s share place %(place)s but have different results "
                "(%(score)s and %(other_score)s)."
            ),
        )
    },
    "TIE_NOT_SHARED": {
        "": (
            W,
            _(
                "Entries %(entry)s and %(other_entry)s have the same result (%(score)s) but different places "
                "(%(place)s and %(other_place)s). Check whether the tie was broken on purpose."
            ),
        )
    },
    "TIE_MARK_UNMATCHED": {
        "": (W, _("Entry %(entry)s is marked as tied (%(value)s), but no other entry in %(group)s has that place."))
    },
    "GROUP_AMBIGUOUS": {
        "": (
            W,
            _(
                "It is not clear whether the sections are ranked separately or together; they were ranked "
                "separately. Check the groups."
            ),
        ),
        "no_direction": (
            W,
            _(
                "The file says North-South and East-West are ranked separately, but the entries have no "
                "direction, so they were ranked as one field. Check the groups."
            ),
        ),
        "split_by_places": (
            W,
            _(
                "The file says there is one winner, but the places restart for North-South and East-West, so "
                "they were ranked separately. Check the groups."
            ),
        ),
        "joined_by_places": (
            W,
            _(
                "The file says North-South and East-West are ranked separately, but the places run across both, "
                "so they were ranked as one field. Check the groups."
            ),
        ),
        "tables": (
            W,
            _(
                "The file has %(count)s ranking tables without section names; each was read as its own group. "
                "Check the groups."
            ),
        ),
    },
    "HANDICAP_RANKED_ON_SCRATCH": {
        "": (
            W,
            _(
                "This is a handicap event. Masterpoints are based on the scratch result, so the ranking of "
                "%(group)s was computed from the scores without handicap; %(changed)s entries have a different "
                "place than in the file."
            ),
        )
    },
    "BOARDS_DECLARED_DIFFER": {
        "": (
            W,
            _(
                "The file says %(declared)s boards were played, but it has results for %(counted)s boards. "
                "Check the number of boards."
            ),
        )
    },
    "MATCH_TEAM_UNKNOWN": {"": (E, _("A match in round %(round)s names team %(team)s, which is not in the results."))},
    "MATCH_DUPLICATE": {"": (E, _("Team %(team)s plays more than one match in round %(round)s."))},
    "NO_RANKING_TABLE": {
        "": (
            E,
            _(
                "This PBN file has no ranking table (TotalScoreTable), so places and the field size cannot be "
                "read. Export the final ranking from your scoring program as USEBIO XML, or as PBN with a "
                "TotalScoreTable."
            ),
        ),
        "hand_records": (
            E,
            _(
                "This PBN file holds only hand records (%(games)s deals) and no results: it has no ranking "
                "table (TotalScoreTable). Export the final ranking from your scoring program as USEBIO XML, or "
                "as PBN with a TotalScoreTable."
            ),
        ),
        "table_results": (
            E,
            _(
                "This PBN file holds %(games)s single table results but no ranking table (TotalScoreTable), so "
                "places and the field size cannot be read. Export the final ranking from your scoring program "
                "as USEBIO XML, or as PBN with a TotalScoreTable."
            ),
        ),
    },
    "PBN_ROW_MALFORMED": {
        "": (
            E,
            _("This row of the ranking table has %(found)s values, but the header has %(expected)s columns."),
        ),
        "ids": (
            E,
            _("This row of the ranking table has %(names)s names but %(ids)s membership numbers."),
        ),
    },
    "PBN_ID_COLUMN_USED": {"": (I, _("Membership numbers were read from the column %(column)s."))},
    "PBN_ID_COLUMN_MISSING": {
        "": (
            W,
            _(
                "The ranking table has no column with membership numbers (for example MemberID), so every "
                "player has to be matched to a member by name."
            ),
        )
    },
    "PBN_TABLE_REPEATED": {"": (I, _("This ranking table repeats rows of an earlier table and was not used."))},
    "PBN_TABLE_COMMENT": {
        "": (
            W,
            _(
                "The ranking table has the comment %(comment)s. Check that it lists the whole field: the field "
                "size matters for masterpoints."
            ),
        )
    },
    "CSV_COLUMN_MISSING": {"": (E, _("The %(table)s table has no column %(column)s."))},
    "CSV_VALUE_INVALID": {"": (E, _("%(value)s is not a valid value for %(column)s (%(expected)s)."))},
    "CSV_ROW_IGNORED": {"": (W, _("This row is neither an event field nor part of a table, so it was not read."))},
    "CSV_COLUMN_UNKNOWN": {"": (I, _("These columns are not in the template and were not read: %(columns)s."))},
    "ISSUES_CAPPED": {
        "": (I, _("%(count)s more issues of the kind %(kind)s are not listed (the first %(shown)s are)."))
    },
}
