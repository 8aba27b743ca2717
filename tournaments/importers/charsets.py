"""Choosing the 8-bit encoding of an undeclared, non-UTF-8 file, with the federation's languages in mind.

Windows-1250 and Windows-1252 (and their ISO cousins) decode almost every byte, so "does it decode" does not
decide between them: the Danish ``Søren Ærø`` in Latin-1 is valid cp1250 too and comes out as ``Sřren
Ćrř``. What decides is whether the letters make sense together: every real name is written in one
language's alphabet, so its non-ASCII letters all belong to one of the alphabets below (``ø`` and ``æ`` to
Danish), while a wrong code page scatters them over several (``ř`` is Czech, ``Ć`` Croatian or Polish, no
language has both). Each candidate decoding gets a cost - the letters its best-fitting alphabet does not
explain, and the control characters and stray symbols inside words it produces - and the cheapest wins;
among equally cheap ones the caller's order decides: the federation's preference (a Danish file is Latin-1
or cp1252 far more often than cp1250, a Croatian one the other way round).

Only the candidates are guessed; the choice is reported (``ENCODING_GUESSED``) and the director can force
another one (``parse_results(..., encoding=...)``).
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence

#: The federation-independent order: Central European first (the order the importer always had).
DEFAULT_FALLBACK_ENCODINGS: tuple[str, ...] = ("cp1250", "cp1252")
#: A preference for Danish (and other Western European) clubs: cp1252/Latin-1 first, cp1250 last.
WESTERN_EUROPEAN: tuple[str, ...] = ("cp1252", "iso8859-15", "cp1250")
#: A preference for Croatian (and other Central European) clubs: cp1250 first, cp1252 last.
CENTRAL_EUROPEAN: tuple[str, ...] = ("cp1250", "iso8859-2", "cp1252")
#: Also weighed, after the caller's, so that an unexpected code page can still win on the letters.
OTHER_CANDIDATES: tuple[str, ...] = ("cp1252", "cp1250", "iso8859-2", "latin-1", "iso8859-15")

#: The non-ASCII lower-case letters of the alphabets names in our federations' files are written in.
ALPHABETS: dict[str, str] = {
    "danish/norwegian": "æøåéüöäè",
    "swedish/finnish": "åäöéü",
    "german": "äöüßé",
    "icelandic/faroese": "áðéíóúýþæöø",
    "dutch": "éëïèáóöü",
    "french": "àâæçéèêëîïôœùûüÿ",
    "spanish/portuguese/catalan": "áàâãçéêíïñóòôõúü",
    "italian": "àèéìíîòóùú",
    "croatian/bosnian/serbian": "čćđšžé",
    "slovene": "čšžćé",
    "czech/slovak": "áäčďéěíĺľňóôŕřšťúůýž",
    "polish": "ąćęłńóśźż",
    "hungarian": "áéíóöőúüű",
    "romanian": "ăâîșțşţ",
    "turkish": "çğıöşü",
}

_WORD_SYMBOL = re.compile(r"(?<=[^\W\d_])[^\w\s\x00-\x7f]|[^\w\s\x00-\x7f](?=[^\W\d_])")
_CONTROL = re.compile("[\u0080-\u009f]")


def codec_name(name: str | None) -> str | None:
    """Python's canonical codec name for ``name`` (``ISO-8859-1`` → ``iso8859-1``), ``None`` if unknown."""
    if not name:
        return None
    try:
        return codecs.lookup(name.strip()).name
    except LookupError:
        return None


def implausibility(text: str) -> int:
    """How unlikely ``text`` is as decoded names: C1 control characters and symbols glued to letters
    (``Ko¹ak``) count 5 each; every non-ASCII letter that the best-fitting alphabet lacks counts 1."""
    cost = 5 * len(_CONTROL.findall(text)) + 5 * len(_WORD_SYMBOL.findall(text))
    letters = Counter(char for char in text.lower() if not char.isascii() and char.isalpha())
    if letters:
        explained = max(sum(n for char, n in letters.items() if char in alphabet) for alphabet in ALPHABETS.values())
        cost += sum(letters.values()) - explained
    return cost


def choose_encoding(data: bytes, preferred: Sequence[str]) -> tuple[str, str, bool]:
    """(text, codec, whether the codec is one of ``preferred``) for bytes that are not UTF-8.

    Guarantees: every candidate that decodes the bytes strictly is weighed (``preferred`` first, then
    :data:`OTHER_CANDIDATES`); the least implausible wins, ties going to the earlier candidate; when none
    decodes strictly, Latin-1 (which decodes every byte) is used. Only the first 256 KB are weighed.
    """
    wanted = [c for c in (codec_name(name) for name in preferred) if c]
    candidates = list(dict.fromkeys([*wanted, *(c for c in map(codec_name, OTHER_CANDIDATES) if c)]))
    sample = _sample(data)
    best: tuple[int, int, str] | None = None
    for order, candidate in enumerate(candidates):
        try:
            decoded = sample.decode(candidate)
            data.decode(candidate)
        except UnicodeDecodeError:
            continue
        key = (implausibility(unicodedata.normalize("NFC", decoded)), order, candidate)
        if best is None or key < best:
            best = key
    if best is None:
        return data.decode("latin-1"), "iso8859-1", "iso8859-1" in wanted
    return data.decode(best[2]), best[2], best[2] in wanted


def _sample(data: bytes, limit: int = 256 * 1024) -> bytes:
    return data if len(data) <= limit else data[:limit]
