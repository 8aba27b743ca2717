"""Names folded for comparison and search: one spelling for the ways a Danish or Croatian name is written.

A player is identified by the registration number (HBS rule 1: "Svaki igrač identificira se svojim matičnim
brojem"; DBf § 451B: "DBfs sekretariat foretager en central registrering af spillere"), but the name is what
a person types into a search box and what a scoring program writes beside a mistyped number. Both are
compared after :func:`fold_name`:

- case and accents fold away (``SØREN`` = ``søren``, ``é`` = ``e``);
- the Danish letters fold with the ways files and keyboards without them write them: ``ø``, ``oe`` and ``o``
  are one letter, ``å``, ``aa`` and ``a`` one, ``æ`` and ``ae`` one;
- the Croatian ones likewise: ``č``, ``ć`` and ``c``; ``đ``, ``dj`` and ``d``; ``š`` and ``s``; ``ž`` and ``z``;
- names in other scripts (Cyrillic, Greek, …) and letters without a decomposition (ø, æ, đ, ß, ł) are
  transliterated by anyascii after the accents are gone (``Петров`` = ``petrov``), so they are compared too;
- anything but letters and digits separates words (``Hansen-Møller`` = ``hansen moller``).

The folding is one-way and loses a little (``Noel`` and ``Nol`` fold alike): it is a search key, never a name
shown. No Django: the model stores it (``Player.search_name``) and the upload compares with it.
"""

from __future__ import annotations

import re
import unicodedata

from anyascii import anyascii

#: Two-letter spellings of one letter, folded to the one letter: å written "aa", ø written "oe", đ written
#: "dj". Applied after the accents are gone, so å (a + ring) arrives as "a" and "aa" folds to it too.
DIGRAPHS = re.compile(r"aa|oe|dj")
DIGRAPH_LETTER = {"aa": "a", "oe": "o", "dj": "d"}
SEPARATORS = re.compile(r"[^0-9a-z]+")


def fold_name(text: str) -> str:
    """``text`` lower-cased, without accents, transliterated to ASCII, with the letter spellings above made
    one, words separated by single spaces (the module's docstring gives the table)."""
    lowered = text.casefold()
    bare = "".join(char for char in unicodedata.normalize("NFKD", lowered) if not unicodedata.combining(char))
    words = SEPARATORS.sub(" ", anyascii(bare).lower()).strip()
    return DIGRAPHS.sub(lambda match: DIGRAPH_LETTER[match.group()], words)


def search_name(first_name: str, last_name: str) -> str:
    """The stored search key of a player: first and last name, folded (at most 201 characters)."""
    return fold_name(f"{first_name} {last_name}")[:201]
