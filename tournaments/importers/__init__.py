"""Results-file importers: USEBIO XML, PBN (TotalScoreTable) and our CSV templates.

Pure parsing and validation into the normalised model of :mod:`.model`, with every problem reported as
a :class:`~tournaments.issues.Issue` (codes documented in :mod:`tournaments.issues.file_codes`). No
database: checking clubs and members is the upload service's job.

Entry points::

    result = parse_results(data, "friday.xml")            # bytes already in memory
    result = parse_upload(request.FILES["file"], name)    # reads at most the size limit + 1 byte
    result = parse_results(data, name, fallback_encodings=WESTERN_EUROPEAN)   # a Danish club's file
    result = parse_results(data, name, encoding="cp1252")  # the director chose how to read the bytes
    if result.has_errors: ...                             # errors block the upload
    result.event.groups[0].entries[0].place_first

Order of work (formats.md § 5): size limit (before anything is parsed) → format from the content →
decoding (decision recorded) → parsing → validation, collecting every issue.

Modules: :mod:`.detect` (format from the content), :mod:`.text` (decoding and value readers) with
:mod:`.charsets` (which 8-bit encoding, by the federation's languages), the readers :mod:`.usebio`
(with :mod:`.usebio_entries` for entries and :mod:`.usebio_boards` for travellers and matches),
:mod:`.pbn` (with :mod:`.pbn_table` for the ranking table) and :mod:`.csv`, which fill a :mod:`.draft`;
:mod:`.ranking` checks and freezes it into :mod:`.model`, deciding the groups with :mod:`.grouping`, the
places with :mod:`.places` and checking the matches with :mod:`.matches`. The issues' type and
codes are :mod:`tournaments.issues`, shared with the upload service.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import ROUND_UP, Decimal
from typing import BinaryIO

from tournaments.issues import SUPPORTED_FORMATS, Issue, IssueList, Location, Severity, make_issue

from .csv import find_delimiter, looks_delimited, parse_csv_text
from .detect import sniff
from .model import (
    EncodingDecision,
    Entry,
    Match,
    MatchPair,
    ParsedEvent,
    Participant,
    RankingGroup,
    SuppliedAward,
)
from .pbn import parse_pbn
from .text import CENTRAL_EUROPEAN, DEFAULT_FALLBACK_ENCODINGS, WESTERN_EUROPEAN, decode_text
from .usebio import parse_usebio

__all__ = [
    "CENTRAL_EUROPEAN",
    "DEFAULT_FALLBACK_ENCODINGS",
    "MAX_UPLOAD_BYTES",
    "WESTERN_EUROPEAN",
    "EncodingDecision",
    "Entry",
    "ImportResult",
    "Match",
    "MatchPair",
    "ParsedEvent",
    "Participant",
    "RankingGroup",
    "SuppliedAward",
    "parse_results",
    "parse_upload",
]

#: Uploads above this are refused unread; the largest real results file we know is 0.3 MB.
MAX_UPLOAD_BYTES = 5 * 1024 * 1024
_MB = Decimal(1024 * 1024)


@dataclass(frozen=True)
class ImportResult:
    """What an upload parsed into: the event (``None`` when nothing could be read) and every issue.

    ``format`` is the detected format (``usebio``, ``pbn``, ``csv``) or ``None`` when it is not one of
    ours; the decoding decision is the event's ``encoding``.
    """

    event: ParsedEvent | None
    issues: list[Issue] = field(default_factory=list)
    format: str | None = None

    @property
    def has_errors(self) -> bool:
        """Whether an issue blocks the upload (any of severity ``error``)."""
        return any(i.severity is Severity.ERROR for i in self.issues)

    @property
    def codes(self) -> list[str]:
        """Issue codes in the order found (handy in tests and logs)."""
        return [i.code for i in self.issues]


def _megabytes(size: int) -> str:
    return str((Decimal(size) / _MB).quantize(Decimal("0.1"), rounding=ROUND_UP))


def parse_results(
    data: bytes,
    filename: str = "",
    *,
    fallback_encodings: Sequence[str] = DEFAULT_FALLBACK_ENCODINGS,
    max_bytes: int = MAX_UPLOAD_BYTES,
    encoding: str | None = None,
) -> ImportResult:
    """Parse an uploaded results file held in memory.

    Guarantees: never raises on bad input; a file over ``max_bytes`` is refused before any parsing
    (``FILE_TOO_LARGE``); the format is decided from the content, not the file name; XML is parsed with
    entity expansion and external references forbidden; ``event`` is ``None`` exactly when the file could
    not be read into groups, and then at least one error explains why.

    Encodings: ``encoding`` (the director's choice, a Python codec name such as ``cp1252``) decodes the
    bytes whatever they declare, reported as ``ENCODING_CHOSEN``. Without it, undeclared text that is not
    UTF-8 is read in the most plausible 8-bit encoding, ``fallback_encodings`` - the federation's
    preference, e.g. :data:`WESTERN_EUROPEAN` for Danish clubs, :data:`CENTRAL_EUROPEAN` for Croatian
    ones - winning when the letters fit them as well as anything else (``ENCODING_GUESSED``).
    """
    issues = IssueList()
    name = filename or "?"
    if len(data) > max_bytes:
        issues.add("FILE_TOO_LARGE", filename=name, size_mb=_megabytes(len(data)), limit_mb=_megabytes(max_bytes))
        return ImportResult(None, issues.close())
    sniffed = sniff(data)
    event: ParsedEvent | None = None
    kind: str | None = None
    if sniffed.kind == "empty":
        issues.add("FILE_EMPTY", filename=name)
    elif sniffed.kind == "binary":
        issues.add("FILE_BINARY", variant=sniffed.variant, filename=name, supported=SUPPORTED_FORMATS)
    elif sniffed.kind == "usebio":
        kind = "usebio"
        event = parse_usebio(data, issues, fallbacks=fallback_encodings, chosen=encoding)
    elif sniffed.kind == "xml":
        if sniffed.entities:
            issues.add("XML_FORBIDDEN", what="<!ENTITY>")
        else:
            issues.add("FORMAT_UNKNOWN", variant="xml", filename=name, root=sniffed.root, supported=SUPPORTED_FORMATS)
    elif sniffed.kind == "pbn":
        kind = "pbn"
        event = parse_pbn(data, issues, fallbacks=fallback_encodings, chosen=encoding)
    else:
        decoding = IssueList()
        text, decision = decode_text(data, decoding, fallbacks=fallback_encodings, chosen=encoding)
        if find_delimiter(text) is None:
            if looks_delimited(text):
                required = ", ".join(("entry_no / team_no", "place", "player_1_id", "player_1_name"))
                issues.add("FORMAT_UNKNOWN", variant="csv", filename=name, required=required)
            else:
                issues.add("FORMAT_UNKNOWN", filename=name, supported=SUPPORTED_FORMATS)
        else:
            kind = "csv"
            issues.extend(decoding.close())
            event = parse_csv_text(text, decision, issues)
    return ImportResult(event, issues.close(), kind)


def parse_upload(
    stream: BinaryIO,
    filename: str = "",
    *,
    fallback_encodings: Sequence[str] = DEFAULT_FALLBACK_ENCODINGS,
    max_bytes: int = MAX_UPLOAD_BYTES,
    encoding: str | None = None,
) -> ImportResult:
    """Parse an uploaded file object (e.g. Django's ``UploadedFile``), reading at most ``max_bytes + 1``
    bytes: a larger upload is refused with ``FILE_TOO_LARGE`` without reading the rest."""
    chunks: list[bytes] = []
    total = 0
    while total <= max_bytes:
        chunk = stream.read(min(64 * 1024, max_bytes + 1 - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    if total > max_bytes:
        size = getattr(stream, "size", None)
        issue = make_issue(
            "FILE_TOO_LARGE",
            Location(),
            filename=filename or "?",
            size_mb=_megabytes(size) if isinstance(size, int) else f"> {_megabytes(max_bytes)}",
            limit_mb=_megabytes(max_bytes),
        )
        return ImportResult(None, [issue])
    return parse_results(
        b"".join(chunks), filename, fallback_encodings=fallback_encodings, max_bytes=max_bytes, encoding=encoding
    )
