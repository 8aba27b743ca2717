"""Team CSV files for the tests of issue 34's team facts (rows by strength, Swiss, walkover, mini-teams): our
team template with a section column and a matches table, built from a plain schedule."""

from __future__ import annotations

import datetime

from django.db.models import Sum

from masterpoints.models import Award
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import results_upload_confirm
from tests.factories import make_players, make_upload

DAY = datetime.date(2025, 3, 12)


def team_numbers(section: int, team: int, players: int = 4) -> list[str]:
    return [f"7{section}{team:02d}{n}" for n in range(1, players + 1)]


def team_csv(
    club_number: str,
    teams: list[tuple[int, int, int, int]],
    matches: list[tuple[str, int, int | None, str, str, int]],
    *,
    players: int = 4,
) -> bytes:
    """``teams``: (section, team, place, boards played); ``matches``: (round, team, opponent or None, vp,
    opponent vp, boards). Sections are ``A``, ``B``, … by number; each team has ``players`` players who played
    all its boards."""
    lines = [
        f"event_date;{DAY.isoformat()}",
        "event_name;Holdturnering",
        "event_type;teams",
        f"club_id;{club_number}",
        "event_id;HOLD-2025-03",
        "scoring;VP",
        f"boards_played;{max(t[3] for t in teams)}",
        "#",
        "section;team_no;place;boards_played;"
        + ";".join(f"player_{n}_id;player_{n}_name;player_{n}_boards" for n in range(1, players + 1)),
    ]
    for section, team, place, boards in teams:
        cells = ";".join(f"{n};Player {n};{boards}" for n in team_numbers(section, team, players))
        lines.append(f"{'ABCDEF'[section - 1]};{team};{place};{boards};{cells}")
    lines += ["#", "round;team_no;opponent_no;vp;opponent_vp;boards"]
    for number, team, opponent, vp, other, boards in matches:
        lines.append(f"{number};{team};{'' if opponent is None else opponent};{vp};{other};{boards}")
    return ("\n".join(lines) + "\n").encode()


def register(world, teams, players: int = 4) -> None:
    make_players(world.dbf, [n for section, team, *_ in teams for n in team_numbers(section, team, players)])


def preview_and_confirm(world, personas, data: bytes, **facts):
    """The file uploaded by club A's director with ``facts``, its preview, and the ledger's units per member
    number after the confirm."""
    upload = make_upload(world.dbf, world.club_a, data, actor=personas.director_a, filename="hold.csv", **facts)
    preview = build_preview(upload)
    errors = [(issue.code, str(issue.message)) for issue in preview.issues if issue.severity == "error"]
    assert errors == [], errors
    tournament = results_upload_confirm(actor=personas.director_a, upload=upload, acknowledge_warnings=True)
    totals = Award.objects.filter(tournament=tournament).values("player__number").annotate(units=Sum("units"))
    return preview, {item["player__number"]: item["units"] for item in totals}


def round_robin(section_teams: list[int], boards: int) -> list[tuple[str, int, int, str, str, int]]:
    """Every team meets every other once; the lower number wins 16–4."""
    out = []
    for i, team in enumerate(section_teams):
        for opponent in section_teams[i + 1 :]:
            out.append((f"{team}-{opponent}", team, opponent, "16", "4", boards))
    return out
