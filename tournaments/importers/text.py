"""Character encodings and the small value readers every importer shares.

Decoding order (formats.md § 5.3): the director's choice (``encoding``) → byte-order mark → the file's
own declaration → strict UTF-8 → the most plausible 8-bit encoding, the caller's preferred ones first
(:mod:`.charsets`: the federation's languages decide between cp1250 and cp1252). The decision is
returned as an :class:`~.model.EncodingDecision` and a guess is reported as an issue, so the director
knows to check accented names.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Sequence
from decimal import Decimal, InvalidOperation

from tournaments.issues import IssueList, Location

from .charsets import (
    CENTRAL_EUROPEAN,
    DEFAULT_FALLBACK_ENCODINGS,
    WESTERN_EUROPEAN,
    choose_encoding,
    codec_name,
)
from .model import EncodingDecision

__all__ = [
    "CENTRAL_EUROPEAN",
    "DEFAULT_FALLBACK_ENCODINGS",
    "WESTERN_EUROPEAN",
    "codec_name",
    "decode_chosen",
    "decode_text",
]

_BOMS = (
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)


def detect_bom(data: bytes) -> tuple[str, int] | None:
    """The encoding a byte-order mark announces and the mark's length, or ``None``."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return encoding, len(bom)
    return None


def decode_chosen(
    data: bytes, chosen: str, issues: IssueList, *, fallbacks: Sequence[str] = DEFAULT_FALLBACK_ENCODINGS
) -> tuple[str, EncodingDecision]:
    """Decode ``data`` with the encoding the director chose, whatever the file declares; never raises.

    Guarantees: a known ``chosen`` is used (a byte-order mark of that very encoding is dropped; bytes it
    cannot decode become U+FFFD, which the mojibake check reports) with ``ENCODING_CHOSEN``; an unknown
    name is reported (``ENCODING_CHOSEN`` / ``unknown``) and the usual rules decide instead.
    """
    codec = codec_name(chosen)
    if codec is None:
        text, decision = _undeclared(data, None, xml=False, fallbacks=fallbacks)
        issues.add("ENCODING_CHOSEN", variant="unknown", chosen=chosen[:40], encoding=decision.encoding)
        return text, decision
    bom = detect_bom(data)
    if bom is not None and codec_name(bom[0]) == codec:
        data = data[bom[1] :]
    elif codec == "utf-8" and data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    issues.add("ENCODING_CHOSEN", encoding=codec)
    return data.decode(codec, errors="replace"), EncodingDecision(codec, "chosen", None)


def decode_text(
    data: bytes,
    issues: IssueList,
    *,
    declared: str | None = None,
    xml: bool = False,
    fallbacks: Sequence[str] = DEFAULT_FALLBACK_ENCODINGS,
    chosen: str | None = None,
) -> tuple[str, EncodingDecision]:
    """Decode ``data`` and say how; never raises.

    Guarantees: the director's ``chosen`` encoding wins (:func:`decode_chosen`); then a BOM; a declared
    encoding is used when it decodes the bytes strictly (otherwise ``ENCODING_DECLARATION_WRONG``);
    undeclared text is UTF-8 when it is valid UTF-8 (``xml-default`` for XML); otherwise the most
    plausible 8-bit encoding is taken, ``fallbacks`` (the caller's preference) first, and
    ``ENCODING_GUESSED`` reported. Some text always comes back. The BOM is removed from the returned text.
    """
    if chosen:
        text, decision = decode_chosen(data, chosen, issues, fallbacks=fallbacks)
        return text, EncodingDecision(decision.encoding, decision.method, declared)
    bom = detect_bom(data)
    if bom is not None:
        encoding, length = bom
        try:
            return data[length:].decode(encoding), EncodingDecision(encoding, "bom", declared)
        except UnicodeDecodeError:
            pass  # a BOM followed by other bytes: fall through to the other rules
    declared_codec = codec_name(declared) if declared else None
    if declared:
        if declared_codec is not None:
            try:
                return data.decode(declared_codec), EncodingDecision(declared_codec, "declared", declared)
            except UnicodeDecodeError:
                pass
        text, decision = _undeclared(data, declared, xml=xml, fallbacks=fallbacks)
        issues.add("ENCODING_DECLARATION_WRONG", declared=declared, encoding=decision.encoding)
        return text, decision
    text, decision = _undeclared(data, None, xml=xml, fallbacks=fallbacks)
    if decision.guessed:
        issues.add("ENCODING_GUESSED", variant="xml" if xml else "", encoding=decision.encoding)
    return text, decision


def _undeclared(
    data: bytes, declared: str | None, *, xml: bool, fallbacks: Sequence[str]
) -> tuple[str, EncodingDecision]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        method = "xml-default" if xml else "ascii" if text.isascii() else "utf-8"
        return text, EncodingDecision("utf-8", method, declared)
    text, encoding, preferred = choose_encoding(data, fallbacks)
    return text, EncodingDecision(encoding, "fallback" if preferred else "detected", declared)


_C1_CONTROLS = re.compile("[\u0080-\u009f]")


def _byte_of(char: str) -> int | None:
    for encoding in ("cp1252", "latin-1"):
        try:
            return char.encode(encoding)[0]
        except UnicodeEncodeError:
            continue
    return None


#: Characters that a UTF-8 continuation byte (0x80-0xBF) becomes when read as cp1252 or Latin-1.
_CONTINUATION = "".join(
    sorted(
        {bytes([b]).decode("cp1252", errors="ignore") or chr(b) for b in range(0x80, 0xC0)}
        | set(map(chr, range(0x80, 0xC0)))
    )
)
_CONT = "[" + re.escape(_CONTINUATION) + "]"
_GARBLED = re.compile(f"[\u00c2-\u00df]{_CONT}|[\u00e0-\u00ef]{_CONT}{{2}}|[\u00f0-\u00f4]{_CONT}{{3}}")


def _repair(match: re.Match) -> str:
    raw = bytes(b for b in (_byte_of(c) for c in match.group()) if b is not None)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return match.group()


def find_mojibake(texts: Iterable[tuple[str | None, Location]]) -> tuple[str, str | None, Location] | None:
    """The first text that looks mis-decoded, as (text, repaired text or ``None``, location).

    Mojibake is UTF-8 read as Latin-1/cp1252 (``Å½`` for ``Ž``): a lead byte's character followed by
    continuation bytes' characters that decode as UTF-8 again, which real names practically never
    contain. Replacement characters and C1 control characters (8-bit text read as Latin-1) also count,
    without a repair.
    """
    for text, where in texts:
        if not text or text.isascii():
            continue
        repaired = _GARBLED.sub(_repair, text)
        if repaired != text:
            return text, repaired, where
        if "\ufffd" in text or _C1_CONTROLS.search(text):
            return text, None, where
    return None


def report_mojibake(texts: Iterable[tuple[str | None, Location]], issues: IssueList) -> None:
    """Add one ``ENCODING_SUSPECT`` warning for the first suspicious text, if any."""
    found = find_mojibake(texts)
    if found is None:
        return
    text, repaired, where = found
    if repaired is None:
        issues.add("ENCODING_SUSPECT", where, variant="undecodable", sample=text)
    else:
        issues.add("ENCODING_SUSPECT", where, sample=text, repaired=repaired)


# --- values -----------------------------------------------------------------------------------------

#: A number in a results file has at most this many characters (``-12345678.123456``); longer text is no score.
MAX_DECIMAL_CHARS = 18
_DECIMAL = re.compile(r"^[+-]?(\d+([.,]\d*)?|[.,]\d+)$")
_INT = re.compile(r"^\d+$")
_PLACE = re.compile(r"^=?\s*(\d+)\s*(=?)$")


def clean(text: str | None) -> str | None:
    """Strip white space; empty text becomes ``None``."""
    if text is None:
        return None
    text = text.strip()
    return text or None


def normalise_id(text: str | None) -> str | None:
    """A membership number as written (leading zeros kept), or ``None`` for empty, ``0``, ``-`` or ``?``."""
    text = clean(text)
    if text is None or not text.strip("0") or text in ("-", "?"):
        return None
    return text


def parse_decimal(text: str | None) -> tuple[Decimal | None, bool]:
    """(value, ok): ``None, True`` for empty text; accepts ``-5.00``, ``62,10``, ``+3``, ``55.5%``; text of
    more than :data:`MAX_DECIMAL_CHARS` characters is not a number (every number read is bounded)."""
    text = clean(text)
    if text is None:
        return None, True
    text = text.replace("\u2212", "-").replace(" ", "").rstrip("%")
    if len(text) > MAX_DECIMAL_CHARS or not _DECIMAL.match(text):
        return None, False
    try:
        return Decimal(text.replace(",", ".")), True
    except InvalidOperation:  # pragma: no cover - the pattern rules this out
        return None, False


def parse_int(text: str | None) -> tuple[int | None, bool]:
    """(value, ok) for a non-negative whole number; ``None, True`` for empty text."""
    text = clean(text)
    if text is None:
        return None, True
    if not _INT.match(text) or len(text) > 9:
        return None, False
    return int(text), True


def parse_place(text: str | None) -> tuple[int | None, bool, bool]:
    """(place, tie_mark, ok) for ``3``, ``3=`` or ``=3``; ``None, False, True`` for empty text."""
    text = clean(text)
    if text is None:
        return None, False, True
    match = _PLACE.match(text)
    if not match or len(match.group(1)) > 6 or int(match.group(1)) < 1:
        return None, False, False
    return int(match.group(1)), "=" in text, True


_ISO = re.compile(r"^(\d{4})[-.](\d{1,2})[-.](\d{1,2})$")
_DAY_FIRST = re.compile(r"^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$")


def parse_date(text: str | None) -> tuple[datetime.date | None, str | None]:
    """(date, problem). ``problem`` is ``None`` when fine, ``"missing"``, ``"unparseable"`` or ``"us"``.

    Accepts ISO ``2025-12-31`` (USEBIO 1.3), PBN ``2025.12.31`` and day-first ``31/12/2025``,
    ``1/2/2025``, ``31.12.2025`` (USEBIO 1.2, European habit). A month above 12 with a day of 12 or less
    is reported as a US-style date rather than swapped (formats.md § 1.5.8).
    """
    text = clean(text)
    if text is None or set(text) <= set("?.-/ "):
        return None, "missing"
    match = _ISO.match(text)
    if match:
        year, month, day = (int(g) for g in match.groups())
    else:
        match = _DAY_FIRST.match(text)
        if not match:
            return None, "unparseable"
        day, month, year = (int(g) for g in match.groups())
        if month > 12 and day <= 12:
            return None, "us"
    try:
        return datetime.date(year, month, day), None
    except ValueError:
        return None, "unparseable"


_TIME = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2}))?$")


def parse_time(text: str | None) -> datetime.time | None:
    """A local start time as PBN writes it (``19:30:00``, also ``19:30``); ``None`` when missing, unknown
    (``?``) or not a time of day: the part of day is then not known, which the upload says (D-Q27)."""
    match = _TIME.match(clean(text) or "")
    if not match:
        return None
    hour, minute, second = (int(g) if g else 0 for g in match.groups())
    if hour > 23 or minute > 59 or second > 59:
        return None
    return datetime.time(hour, minute, second)


def report_date(text: str | None, where: Location, issues: IssueList) -> datetime.date | None:
    """Parse an event date, adding ``DATE_MISSING`` or ``DATE_UNPARSEABLE`` when needed."""
    value, problem = parse_date(text)
    if problem == "missing":
        issues.add("DATE_MISSING", where)
    elif problem == "us":
        issues.add("DATE_UNPARSEABLE", where, variant="us", value=text)
    elif problem:
        issues.add("DATE_UNPARSEABLE", where, value=text)
    return value


_NUMBER = re.compile(
    r"^\s*(?:\(\s*(?P<section>[^)\s]+)\s*\)\s*)?(?P<number>\d+)\s*(?P<direction>N\s*[-/]?\s*S|E\s*[-/]?\s*W)?\s*$",
    re.IGNORECASE,
)


def split_entry_number(text: str | None) -> tuple[str | None, str | None, str | None]:
    """(number, direction, section) from ``1``, ``1NS``, ``1EW``, ``(A) 1 NS``, ``(C) 3``.

    Unrecognised text is returned as the number unchanged, with no direction or section.
    """
    text = clean(text)
    if text is None:
        return None, None, None
    match = _NUMBER.match(text)
    if not match:
        return text, None, None
    return (
        match.group("number").lstrip("0") or "0",
        normalise_direction(match.group("direction")),
        match.group("section"),
    )


def normalise_direction(text: str | None) -> str | None:
    """``NS`` or ``EW`` for the usual spellings (``N-S``, ``n/s``, ``N``, ``E``); ``None`` otherwise."""
    text = clean(text)
    if text is None:
        return None
    compact = re.sub(r"[\s/\-]", "", text).upper()
    if compact in ("NS", "N", "NORTHSOUTH"):
        return "NS"
    if compact in ("EW", "E", "EASTWEST"):
        return "EW"
    return None
