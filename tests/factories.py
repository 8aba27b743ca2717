"""Synthetic USEBIO 1.2 result files, written the way Compscore and ScoreBridge write them.

Used by ``seed_demo`` for a realistic season, by the tests of the upload flow and by ``bench/upload.py``
(a 400-pair, 3-section file). Deterministic for a given seed.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape


@dataclass(frozen=True)
class SyntheticPair:
    number: str
    players: tuple[tuple[str, str | None], ...]  # (name, membership number or None)
    percentage: str


def pairs_from_numbers(numbers: Sequence[str], *, seed: int = 1) -> list[SyntheticPair]:
    """Pair up consecutive membership numbers with descending, distinct percentages (no ties)."""
    rng = random.Random(seed)
    pairs = []
    count = len(numbers) // 2
    scores = sorted({round(rng.uniform(35, 70), 2) for _ in range(count * 3)}, reverse=True)[:count]
    for index in range(count):
        a, b = numbers[2 * index], numbers[2 * index + 1]
        pairs.append(SyntheticPair(str(index + 1), ((f"Player {a}", a), (f"Player {b}", b)), f"{scores[index]:.2f}"))
    return pairs


def usebio_pairs(
    *,
    club_number: str,
    club_name: str = "Demo club",
    date: datetime.date,
    name: str,
    sections: Sequence[Sequence[SyntheticPair]],
    boards: int,
    places: Sequence[Sequence[str]] | None = None,
) -> bytes:
    """A USEBIO 1.2 pairs file with one ranking per section (``SECTION`` wrappers when more than one).

    Places are 1, 2, 3 … in the order given unless ``places`` gives the place text per pair (``"3="``).
    """
    out = [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<USEBIO Version="1.2">',
        f"<CLUB><CLUB_NAME>{escape(club_name)}</CLUB_NAME><CLUB_ID_NUMBER>{club_number}</CLUB_ID_NUMBER></CLUB>",
        '<EVENT EVENT_TYPE="MP_PAIRS">',
        f"<EVENT_DESCRIPTION>{escape(name)}</EVENT_DESCRIPTION>",
        "<PROGRAM_NAME>synthetic</PROGRAM_NAME>",
        f"<DATE>{date:%d/%m/%Y}</DATE>",
        "<WINNER_TYPE>1</WINNER_TYPE>",
        f"<BOARDS_PLAYED>{boards}</BOARDS_PLAYED>",
    ]
    wrap = len(sections) > 1
    for s_index, section in enumerate(sections):
        if wrap:
            out.append(f'<SECTION SECTION_ID="{chr(65 + s_index)}">')
        out.append("<PARTICIPANTS>")
        for p_index, pair in enumerate(section):
            place = places[s_index][p_index] if places else str(p_index + 1)
            out.append(f"<PAIR><PAIR_NUMBER>{pair.number}</PAIR_NUMBER><PLACE>{place}</PLACE>")
            out.append(f"<PERCENTAGE>{pair.percentage}</PERCENTAGE><BOARDS_PLAYED>{boards}</BOARDS_PLAYED>")
            for player_name, number in pair.players:
                ident = f"<NATIONAL_ID_NUMBER>{number}</NATIONAL_ID_NUMBER>" if number else ""
                out.append(f"<PLAYER><PLAYER_NAME>{escape(player_name)}</PLAYER_NAME>{ident}</PLAYER>")
            out.append("</PAIR>")
        out.append("</PARTICIPANTS>")
        if wrap:
            out.append("</SECTION>")
    out += ["</EVENT>", "</USEBIO>"]
    return "\n".join(out).encode("utf-8")
