"""The codes the results importers report about the file: severity and message of every variant.

Every code has a default variant ``""`` and may have named ones (``FILE_BINARY`` / ``access``); an
:class:`~tournaments.issues.Issue` is built from here by :func:`~tournaments.issues.make_issue`. Messages are lazy
translations with named placeholders, filled from the issue's ``params`` when rendered.

Severities: ``error`` blocks the upload; ``warning`` needs the director's acknowledgement; ``info`` is
shown for the record. The table below is the single list of codes (a test keeps it in step with
:data:`FILE_CODES`).

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
ENCODING_CHOSEN                 info      the file was decoded as the director chose (variant ``unknown``: a
                                          name we do not know, a warning)
XML_MALFORMED                   error     the XML is not well-formed (line and column given)
XML_FORBIDDEN                   error     entity declarations / external references (entity bombs, XXE)
USEBIO_VERSION_UNKNOWN          warning   USEBIO ``Version`` other than 1.0-1.3
USEBIO_CONTENT_MISSING          info      a USEBIO 1.0/1.1 file lacks parts later versions carry (named)
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
ENTRIES_UNRANKED                warning   entries the file does not rank (PBN rank ``-``), left out by name
PLAYER_COUNT_UNUSUAL            warning   a pair without 2 players, a team with fewer than 4 or more than 6
NAME_MISSING                    warning   a player without a name
ID_MISSING                      warning   a player without a membership number (``0`` counts as none)
ID_DUPLICATE_IN_EVENT           error     the same membership number twice in one session of an event
SCORE_UNPARSEABLE               error     a score / percentage / boards value that is not a number (variant
                                          ``boards``: boards played not from 1 to 2,000)
PLACE_UNPARSEABLE               error     a place that is not ``3`` or ``3=``
PLACE_MISSING                   warning   no places at all: computed from the scores (variants ``partial``
                                          and ``no_score`` are errors)
PLACE_SEQUENCE_INCONSISTENT     error     places that are not a competition ranking (1, 2, 3, 3, 5)
PLACES_CONTRADICT_SCORES        error     a better place with a lower score in the same group
TIE_SCORES_DIFFER               warning   entries sharing a place with different scores
TIE_NOT_SHARED                  warning   entries with equal scores on different places
TIE_MARK_UNMATCHED              warning   ``3=`` where no other entry has place 3
GROUP_AMBIGUOUS                 warning   the ranking groups were decided against a declaration or a guess
GROUPS_DECIDED                  info      sections or centres ranked as one field or each on its own, and why
HANDICAP_RANKED_ON_SCRATCH      warning   a handicap event, re-ranked on the scratch scores (the file's places kept)
BOARDS_DECLARED_DIFFER          warning   declared boards differ from the boards found in travellers
                                          (variant ``nrboards``: a PBN's NrBoards and its ScoreTables)
TRAVELLER_NUMBERS_UNKNOWN       warning   travellers name players or pairs that are not in the results
MATCH_TEAM_UNKNOWN              error     a match names a team that is not in the results
MATCH_DUPLICATE                 error     a team plays twice in one round (variant ``boards``: two teams'
                                          match on one board range listed twice with different scores)
NO_RANKING_TABLE                error     a PBN without a TotalScoreTable (hand records, table results)
PBN_ROW_MALFORMED               error     a ranking-table row that does not fit its header
PBN_TRUNCATED                   error     a PBN cut off mid-line (a last table row or tag without a line break)
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

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from .entry_codes import ENTRY_CODES
from .severity import E, I, Severity, W

#: What the refusals of an unknown or binary file offer instead (the ``supported`` parameter).
SUPPORTED_FORMATS = _("USEBIO XML (1.2 or 1.3), PBN with a ranking table (TotalScoreTable), or our CSV templates")

#: The file, encoding, XML and event codes (the entries' codes follow from :mod:`.entry_codes`).
_FILE_CODES: dict[str, dict[str, tuple[Severity, Promise]]] = {
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
    "ENCODING_CHOSEN": {
        "": (I, _("The file was read as %(encoding)s, the encoding you chose.")),
        "unknown": (
            W,
            _("The encoding %(chosen)s you chose is not one we know; the file was read as %(encoding)s instead."),
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
    "USEBIO_CONTENT_MISSING": {
        "": (
            I,
            _(
                "This file is USEBIO %(version)s, an early version of the format, and it does not carry "
                "%(missing)s. Check those parts of the result."
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
}

#: code -> variant -> (severity, message template with named placeholders)
FILE_CODES: dict[str, dict[str, tuple[Severity, Promise]]] = {**_FILE_CODES, **ENTRY_CODES}
