"""Telling formats apart from the content (never from the file name).

Binary files are recognised first (Access/BWS, ZIP/xlsx, OLE/xls, PDF, or NUL and control bytes), so a
database renamed ``.xml`` gets a message that says what it is. Then XML (root or DOCTYPE ``USEBIO``),
PBN (``% PBN`` or a ``[Tag "value"]`` line before anything else) and, for the rest, the CSV reader
decides whether the text follows our template.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .text import detect_bom

SNIFF_BYTES = 64 * 1024

_SIGNATURES = (
    (b"\x00\x01\x00\x00Standard Jet DB", "access"),
    (b"\x00\x01\x00\x00Standard ACE DB", "access"),
    (b"PK\x03\x04", "zip"),
    (b"PK\x05\x06", "zip"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "ole"),
    (b"%PDF-", "pdf"),
)
_CONTROL = bytes([*range(0x00, 0x09), *range(0x0E, 0x1A), *range(0x1C, 0x20)])
_PROLOG_JUNK = re.compile(r"<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^\[>]*(?:\[.*?\])?\s*>", re.DOTALL | re.IGNORECASE)
_DOCTYPE = re.compile(r"<!DOCTYPE\s+([A-Za-z_][\w.:-]*)", re.IGNORECASE)
_ELEMENT = re.compile(r"<([A-Za-z_][\w.:-]*)")
_PBN_TAG = re.compile(r'^\[\s*[A-Za-z][A-Za-z0-9_]*\s+"')
_PBN_HEADER = re.compile(r"^%\s*PBN\b", re.IGNORECASE)


@dataclass(frozen=True)
class Sniffed:
    """``kind`` is ``empty``, ``binary``, ``usebio``, ``xml``, ``pbn`` or ``text``; ``variant`` names the
    binary kind (``access``, ``zip``, ``ole``, ``pdf`` or empty); ``root`` is the XML root element;
    ``entities`` tells that the XML prolog declares entities."""

    kind: str
    variant: str = ""
    root: str | None = None
    entities: bool = False


def sniff(data: bytes) -> Sniffed:
    """Classify ``data`` by looking at its first 64 KB only."""
    head = data[:SNIFF_BYTES]
    if not head.strip():
        return Sniffed("empty")
    for signature, variant in _SIGNATURES:
        if head.startswith(signature):
            return Sniffed("binary", variant)
    bom = detect_bom(head)
    if bom is not None:
        text = head[bom[1] :].decode(bom[0], errors="replace")
    else:
        sample = head[:8192]
        if b"\x00" in sample or sum(sample.count(bytes([c])) for c in _CONTROL) > len(sample) // 50:
            return Sniffed("binary")
        text = head.decode("latin-1")
    stripped = text.lstrip()
    if stripped.startswith("<"):
        return _sniff_xml(stripped)
    if _looks_like_pbn(stripped):
        return Sniffed("pbn")
    return Sniffed("text")


def _sniff_xml(text: str) -> Sniffed:
    entities = "<!ENTITY" in text.upper()
    doctype = _DOCTYPE.search(text)
    body = _PROLOG_JUNK.sub("", text)
    element = _ELEMENT.search(body)
    root = element.group(1) if element else (doctype.group(1) if doctype else None)
    if (root or "").upper() == "USEBIO" or (doctype and doctype.group(1).upper() == "USEBIO"):
        return Sniffed("usebio", root="USEBIO", entities=entities)
    return Sniffed("xml", root=root or "?", entities=entities)


def _looks_like_pbn(text: str) -> bool:
    """A ``% PBN`` line, or a tag line before anything but comments (``%``, ``;``, ``{...}``)."""
    in_comment = False
    for count, line in enumerate(re.split(r"\r\n|\r|\n", text)):
        if count > 500:
            return False
        line = line.strip()
        if in_comment:
            in_comment = "}" not in line
            continue
        if not line:
            continue
        if line.startswith("%"):
            if _PBN_HEADER.match(line):
                return True
            continue
        if line.startswith(";"):
            continue
        if line.startswith("{"):
            in_comment = "}" not in line
            continue
        return bool(_PBN_TAG.match(line))
    return False
