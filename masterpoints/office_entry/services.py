"""Writes of the office entry: the entered ranking stored as an upload of our CSV template (§ 451A, D-Q33).

The office's entry becomes a :class:`~tournaments.models.ResultUpload` of the federation itself, its bytes the
results template (``static/results-templates/README.md``) written from the checked lines with the register's
numbers and names, its facts the form and the facts the section needs. From there it is an upload like any
other: the same preview, the same player checks, the same confirm (``results_upload_confirm``), so a second
entry of the same form, date and name supersedes the first, and the ledger rows and standings follow. The
engine scores it by the section's own table (``rulebooks.dbf.office_scoring``).
"""

from __future__ import annotations

import csv
import datetime
import io

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from federation.models import Federation, Player
from masterpoints.engine.dbf.tables import OfficeForm
from masterpoints.office_entry.ranking import RankingLine
from masterpoints.uploads.services import results_upload_create
from office.access import is_secretariat
from tournaments.models import ResultUpload


def office_event_id(form: OfficeForm, name: str) -> str:
    """The entry's event id: a re-entry of the same form and name on the same date supersedes (formats.md § 1.3)."""
    return f"office:{form.code}:{name.strip()}"


@transaction.atomic
def office_award_create(
    *,
    actor,
    federation: Federation,
    form: OfficeForm,
    name: str,
    day: datetime.date,
    facts: dict,
    lines: list[RankingLine],
    players: dict[str, Player],
) -> ResultUpload:
    """Store a checked office entry as a pending upload of the federation, to be previewed and confirmed.

    Only the federation's secretariat enters awards (§ 451A: DBf's secretariat administers the MP scheme).
    ``facts`` are the form's facts (participants, boards, level, …) as the office form cleaned them.
    """
    if not is_secretariat(actor, federation) or form not in federation.scheme_info.office_forms:
        raise PermissionDenied(_("Only the federation's secretariat enters awards (§ 451A)."))
    stored = {
        "organiser_kind": "federation",
        "category": form.category,
        "form": "pairs" if form.entry == "pairs" else "teams",
        "office_form": form.code,
        **facts,
        "results": {str(index): _line_facts(line) for index, line in enumerate(lines, start=1)},
    }
    data = _template(form, name, day, stored, lines, players)
    return results_upload_create(
        actor=actor,
        federation=federation,
        club=None,
        region=None,
        data=data,
        filename=f"office-{form.code}-{day.isoformat()}.csv",
        facts=stored,
    )


def _line_facts(line: RankingLine) -> dict:
    """What the section needs of one entry besides its place and players (JSON for ``facts``)."""
    facts: dict = {}
    if line.won or line.drawn:
        facts.update(won=line.won, drawn=line.drawn)
    if line.rounds:
        facts["rounds"] = list(line.rounds)
    if line.bonus is not None:
        facts["bonus"] = str(line.bonus)
    return facts


def _template(
    form: OfficeForm, name: str, day: datetime.date, facts: dict, lines: list[RankingLine], players: dict
) -> bytes:
    """The results template (version 1) for the entered ranking: event fields, then one row per entry.

    A tie written ``3-4`` is written as the template writes ties, the first place on each tied row."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\n")
    teams = form.entry != "pairs"
    writer.writerow([f"# Entered by the office (§ 451A): {form.code} ({form.section})"])
    writer.writerow(["event_date", day.isoformat()])
    writer.writerow(["event_name", name])
    writer.writerow(["event_type", "teams" if teams else "pairs"])
    writer.writerow(["event_id", office_event_id(form, name)])
    # The event's boards as the template states them: the tournament's for pairs, each team's for teams (the
    # cup's teams play different numbers of matches: none).
    event_boards = facts.get("team_boards") if teams else facts["boards"]
    if event_boards:
        writer.writerow(["boards_played", event_boards])
    widest = max(len(line.numbers) for line in lines)
    columns = ["id", "name", "boards"] if teams else ["id", "name"]
    header = ["team_no", "place", *(["boards_played"] if teams else [])] if teams else ["entry_no", "place"]
    header += [f"player_{n}_{column}" for n in range(1, widest + 1) for column in columns]
    writer.writerow(header)
    team_boards = facts.get("team_boards")
    for index, line in enumerate(lines, start=1):
        row: list = [index, line.first, *([team_boards or ""] if teams else [])]
        for number, boards in zip(line.numbers, line.boards, strict=True):
            player = players[number]
            row += [player.number, f"{player.first_name} {player.last_name}".strip()]
            if teams:
                row.append(boards if boards is not None else team_boards or "")
        writer.writerow(row + [""] * (len(header) - len(row)))
    return out.getvalue().encode("utf-8")
