"""Test factories: players, clubs' members, tournaments, awards and uploads, and synthetic result files.

The records are the least a test needs, with names and numbers it may override. The files are USEBIO 1.2
as Compscore and ScoreBridge write them (also used by ``bench/upload.py`` and ``bench/standings.py``),
deterministic for a given seed.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from unittest import mock
from xml.sax.saxutils import escape

from django.db.models import fields as model_fields
from django.utils import timezone

from clubs.models import ClubMembership
from federation.models import Player
from masterpoints.ledger import explanation_ref
from masterpoints.models import Award
from masterpoints.uploads.services import results_upload_create
from tournaments.models import Tournament

#: The date the factories give a tournament or an award unless told otherwise (a DBf 2023 rule-set date).
DAY = datetime.date(2025, 2, 3)


def make_player(federation, number: str, *, first: str = "Ole", last: str | None = None, club=None, **fields):
    """A registered player; with ``club``, at home there (``ClubMembership.is_home``)."""
    player = Player.objects.create(
        federation=federation, number=number, first_name=first, last_name=last or f"L{number}", **fields
    )
    if club is not None:
        ClubMembership.objects.create(player=player, club=club, is_home=True)
    return player


def make_players(federation, numbers: Sequence[str], *, first: str = "Player") -> list:
    """One registered player per number, named after it as the synthetic files name them ("Player 3001",
    :func:`pairs_from_numbers`), so that the upload's name check finds them as written."""
    return [make_player(federation, number, first=first, last=number) for number in numbers]


def make_tournament(federation, club, *, category: str = "BP", key: str = "t1", day: datetime.date = DAY, **fields):
    """A confirmed club pairs tournament of 24 boards, with no groups."""
    values = {"name": "Mandagsturnering", "form": "pairs", "boards": 24, **fields}
    return Tournament.objects.create(
        federation=federation, organiser_kind="club", club=club, event_key=key, date=day, category=category, **values
    )


class _FieldClock:
    """Django's model fields' view of ``django.utils.timezone`` with ``now`` fixed: only ``auto_now_add``
    stamps change, not the clocks the outbox and the jobs read."""

    def __init__(self, moment: datetime.datetime) -> None:
        self._moment = moment

    def now(self) -> datetime.datetime:
        return self._moment

    def __getattr__(self, name: str):
        return getattr(timezone, name)


@contextmanager
def registered_on(day: datetime.date):
    """Ledger rows written inside this block are registered on ``day`` (their ``created_at``, at noon in the
    site's time zone): the day § 404A counts a title from (D-Q21)."""
    noon = timezone.make_aware(datetime.datetime.combine(day, datetime.time(12)))
    with mock.patch.object(model_fields, "timezone", _FieldClock(noon)):
        yield


def post_award(
    player,
    kind: str,
    units: int,
    *,
    day: datetime.date = DAY,
    source: str = "manual",
    registered: datetime.date | None = None,
    **fields,
):
    """One ledger row for ``player`` (an office entry unless ``source`` says otherwise), dated ``day`` and
    registered now, or on ``registered``; an ``explanation`` dict is stored as the ledger stores it (issue 16)."""
    fields.setdefault("reason", "" if source == "result" else "entered by the office")
    if "explanation" in fields:
        fields["explanation_ref_id"] = explanation_ref(fields.pop("explanation"))
    with registered_on(registered) if registered else nullcontext():
        return Award.objects.create(
            federation_id=player.federation_id,
            player=player,
            kind=kind,
            units=units,
            source=source,
            awarded_on=day,
            **fields,
        )


def make_upload(federation, club, data: bytes, *, actor=None, filename: str = "results.xml", **facts):
    """A stored upload of ``data`` for ``club`` (the server's own import when ``actor`` is ``None``)."""
    values = {"organiser_kind": "club", "form": "", "boards": None, **facts}
    return results_upload_create(
        actor=actor,
        federation=federation,
        club=club,
        region=None,
        data=data,
        filename=filename,
        facts=values,
        trusted=actor is None,
    )


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


def usebio_sessions(
    *,
    club_number: str,
    date: datetime.date,
    name: str,
    sessions: Sequence[tuple[int, Sequence[SyntheticPair]]],
) -> bytes:
    """A USEBIO 1.2 pairs file ranking each session on its own, without an overall ranking (a qualification and
    a final, say): ``sessions`` are (boards, pairs in order of place) in playing order, each in a ``SESSION``; the
    event declares the boards of all sessions, each pair its session's boards, each place its own percentage."""
    out = [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<USEBIO Version="1.2">',
        f"<CLUB><CLUB_NAME>Demo club</CLUB_NAME><CLUB_ID_NUMBER>{club_number}</CLUB_ID_NUMBER></CLUB>",
        '<EVENT EVENT_TYPE="MP_PAIRS">',
        f"<EVENT_DESCRIPTION>{escape(name)}</EVENT_DESCRIPTION>",
        "<PROGRAM_NAME>synthetic</PROGRAM_NAME>",
        f"<DATE>{date:%d/%m/%Y}</DATE>",
        f"<BOARDS_PLAYED>{sum(boards for boards, _pairs in sessions)}</BOARDS_PLAYED>",
    ]
    for s_index, (boards, pairs) in enumerate(sessions, start=1):
        out.append(f'<SESSION SESSION_ID="{s_index}"><WINNER_TYPE>1</WINNER_TYPE><PARTICIPANTS>')
        for place, pair in enumerate(pairs, start=1):
            out.append(f"<PAIR><PAIR_NUMBER>{pair.number}</PAIR_NUMBER><PLACE>{place}</PLACE>")
            out.append(f"<PERCENTAGE>{70 - place}.00</PERCENTAGE><BOARDS_PLAYED>{boards}</BOARDS_PLAYED>")
            for player_name, number in pair.players:
                ident = f"<NATIONAL_ID_NUMBER>{number}</NATIONAL_ID_NUMBER>" if number else ""
                out.append(f"<PLAYER><PLAYER_NAME>{escape(player_name)}</PLAYER_NAME>{ident}</PLAYER>")
            out.append("</PAIR>")
        out.append("</PARTICIPANTS></SESSION>")
    out += ["</EVENT>", "</USEBIO>"]
    return "\n".join(out).encode("utf-8")
