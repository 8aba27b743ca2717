"""The office's queue of players an upload left to it (issue 19): opened by the upload's confirm, resolved by
the secretariat of the tournament's federation, once each.

D-Q48: resolving a case to a member posts the awards the engine computed for the player when the upload was
confirmed, as result awards of the tournament (so a later re-upload reverses them with the others); each
row's reason cites the upload. A guest receives nothing. A new member is added through the register
(``office.register.services.register_player_add``), never by the upload.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from federation.models import Player
from federation.outbox import enqueue_task
from federation.refusals import refusals
from federation.services import audit_record
from masterpoints.ledger import ResultEntry, awards_post_results
from masterpoints.models import Award, OfficeCase
from masterpoints.standings.tasks import standings_update_players
from office.access import is_secretariat
from office.register.services import register_player_add
from tournaments.models import Participation, Tournament

Status = OfficeCase.Status

REFUSALS = {
    "NOT_SECRETARIAT": _("Only the secretariat of %(federation)s resolves the players its uploads left to the office."),
    "ALREADY_RESOLVED": _(
        "%(case)s was already resolved on %(date)s by %(user)s: %(status)s%(player)s. Nothing was changed."
    ),
    "SUPERSEDED": _("%(tournament)s was replaced by a re-upload: %(name)s is resolved on the upload that replaced it."),
    "OTHER_FEDERATION": _("%(player)s is a player of %(federation)s, not of %(tournament_federation)s."),
    "ALREADY_PLAYED": _("%(player)s already has a place in %(tournament)s (place %(place)s): one player plays once."),
    "MEMBER_REQUIRED": _("Choose the member, by number or name."),
    "UNKNOWN_RESOLUTION": _("Unknown choice %(choice)s: a member, a new member or a guest."),
}

refusal = refusals(REFUSALS)

RESOLUTIONS = ("member", "new", "guest")


def office_cases_open(*, tournament: Tournament, lines) -> int:
    """Open a case for every player the confirmed upload left to the office, with the awards the engine
    computed for them (``lines``: the preview's player lines); inside the confirm's transaction, after the
    participations were written in the lines' order (a line's key is its entry's key and place in it).
    Returns how many were opened."""
    left = {line.key: line for line in lines if line.resolution == Participation.Resolution.OFFICE}
    if not left:
        return 0
    rows = Participation.objects.filter(entry__group__tournament=tournament).select_related("entry").order_by("pk")
    counted: dict[int, int] = {}
    cases = []
    for participation in rows:
        counted[participation.entry_id] = counted.get(participation.entry_id, 0) + 1
        line = left.get(f"{participation.entry.key}#{counted[participation.entry_id]}")
        if line is None or participation.resolution != Participation.Resolution.OFFICE:
            continue
        cases.append(
            OfficeCase(
                federation_id=tournament.federation_id,
                tournament=tournament,
                participation=participation,
                name_in_file=participation.name_in_file,
                id_in_file=participation.id_in_file,
                group=line.group[:100],
                place_first=line.place_first,
                place_last=line.place_last,
                awards=[
                    {"kind": a.kind, "units": a.units, "part": a.part, "explanation": a.explanation.as_dict()}
                    for a in line.awards
                    if a.units > 0
                ],
            )
        )
    OfficeCase.objects.bulk_create(cases)
    return len(cases)


@transaction.atomic
def office_case_resolve(
    *,
    actor,
    case: OfficeCase,
    resolution: str,
    player: Player | None = None,
    number: str = "",
    first_name: str = "",
    last_name: str = "",
) -> list[Award]:
    """Resolve one case (D-Q48): ``member`` (the existing ``player``), ``new`` (a member added to the register
    with ``number`` and names, then as ``member``) or ``guest``; returns the awards posted.

    The secretariat of the case's federation only; refused, naming the case, when it was resolved already
    (two resolutions at once: the row is locked, and the write is conditional on the case still being open,
    so one of them stands), when its tournament was replaced by a re-upload, or when the member is of another
    federation or already has a place in the tournament. Audited (``office_queue.resolve``)."""
    case = (
        OfficeCase.objects.select_for_update(of=("self",))
        .select_related("federation", "tournament__upload", "participation", "resolved_by", "player")
        .get(pk=case.pk)
    )
    if not is_secretariat(actor, case.federation):
        raise PermissionDenied(REFUSALS["NOT_SECRETARIAT"] % {"federation": case.federation})
    _check_open(case)
    if resolution not in RESOLUTIONS:
        raise refusal("UNKNOWN_RESOLUTION", choice=str(resolution)[:40])
    if resolution == "new":
        player = register_player_add(
            actor=actor, federation=case.federation, number=number, first_name=first_name, last_name=last_name
        )
    if resolution == "guest":
        player = None
    elif player is None:
        raise refusal("MEMBER_REQUIRED")
    else:
        _check_member(case, player)
    now = timezone.now()
    status = Status.GUEST if player is None else Status.MEMBER
    if not OfficeCase.objects.filter(pk=case.pk, status=Status.OPEN).update(
        status=status, player=player, resolved_by=actor, resolved_at=now
    ):
        raise refusal("ALREADY_RESOLVED", **_resolved_params(OfficeCase.objects.get(pk=case.pk)))
    Participation.objects.filter(pk=case.participation_id).update(
        player=player, resolution=Participation.Resolution.GUEST if player is None else Participation.Resolution.MEMBER
    )
    posted = _post(actor, case, player) if player is not None else []
    audit_record(
        actor=actor,
        action="office_queue.resolve",
        target=case,
        payload={
            "resolution": resolution,
            "player": player.number if player else None,
            "upload": case.tournament.upload_id,
            "awards": [{"kind": a.kind, "units": a.units} for a in posted],
        },
    )
    if posted:
        enqueue_task(standings_update_players, case.federation_id, [player.pk])
    return posted


def _check_open(case: OfficeCase) -> None:
    if not case.is_open:
        raise refusal("ALREADY_RESOLVED", **_resolved_params(case))
    if not case.tournament.is_current:
        raise refusal("SUPERSEDED", tournament=str(case.tournament), name=case.name_in_file)


def _resolved_params(case: OfficeCase) -> dict:
    return {
        "case": str(case),
        "date": case.resolved_at or "–",
        "user": case.resolved_by.get_username() if case.resolved_by else "–",
        "status": case.get_status_display(),
        "player": f" {case.player}" if case.player else "",
    }


def _check_member(case: OfficeCase, player: Player) -> None:
    if player.federation_id != case.federation_id:
        raise refusal(
            "OTHER_FEDERATION",
            player=str(player),
            federation=str(player.federation),
            tournament_federation=str(case.federation),
        )
    other = (
        Participation.objects.filter(entry__group__tournament=case.tournament_id, player=player)
        .select_related("entry")
        .first()
    )
    if other is not None:
        raise refusal(
            "ALREADY_PLAYED", player=str(player), tournament=str(case.tournament), place=other.entry.place_first
        )


def _post(actor, case: OfficeCase, player: Player) -> list[Award]:
    """The case's awards for ``player``, each row citing the upload the player was left to the office in."""
    if not case.awards:
        return []
    upload = case.tournament.upload
    reason = gettext("Left to the office in upload #%(upload)s (%(file)s), number in file %(number)s.") % {
        "upload": upload.pk if upload else "–",
        "file": upload.original_name if upload else "–",
        "number": case.id_in_file or "–",
    }
    entries = [
        ResultEntry(
            player=player,
            kind=award["kind"],
            units=award["units"],
            part=award["part"],
            place_first=case.place_first,
            place_last=case.place_last,
            explanation=award["explanation"],
        )
        for award in case.awards
    ]
    return awards_post_results(actor=actor, tournament=case.tournament, entries=entries, reason=reason)
