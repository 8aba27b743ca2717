"""The office's queue of players an upload left to it: opened by the upload's confirm, resolved by
the secretariat of the tournament's federation, once each.

D-Q48: resolving a case to a member posts the awards the engine computed for the player when the upload was
confirmed, as result awards of the tournament (so a later re-upload reverses them with the others); each
row's reason cites the upload. A guest receives nothing. A new member is added through the register
(``office.register.services.register_player_add``), never by the upload.

Every case belongs to a :class:`~masterpoints.models.ProvisionalPlayer`, the person the files name
(by their number, else their folded name in the club), whose points are held. When a member with that number
joins the register, :func:`provisional_players_join` (beat, every minute) credits every held case to them
(DBf appendix B: "medregnes … automatisk"); the office merges a provisional player into an existing member
with :func:`provisional_credit`. Either way the ledger rows cite each upload, and the credit is audited.
"""

from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from federation.models import Player
from federation.names import fold_name
from federation.outbox import enqueue_task
from federation.refusals import refusals
from federation.services import audit_record
from masterpoints.ledger import ResultEntry, awards_post_results
from masterpoints.models import Award, OfficeCase, ProvisionalPlayer
from masterpoints.standings.tasks import standings_update_players
from office.access import is_secretariat
from office.register.services import register_player_add
from tournaments.models import Participation, Tournament

Status = OfficeCase.Status
log = logging.getLogger(__name__)

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
    "ALREADY_CREDITED": _("%(provisional)s was already credited to %(member)s on %(date)s. Nothing was changed."),
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
    club = tournament.upload.club if tournament.upload_id else None
    for case in cases:
        case.provisional = _provisional_for(tournament.federation_id, case, club)
    OfficeCase.objects.bulk_create(cases)
    return len(cases)


def _provisional_for(federation_id: int, case: OfficeCase, club) -> ProvisionalPlayer | None:
    """The held provisional player the case's file names: the one with its number, else the one with its
    folded name in the same club without a number; a new one when none is held."""
    number, folded = case.id_in_file.strip(), fold_name(case.name_in_file)[:200]
    held = ProvisionalPlayer.objects.filter(federation_id=federation_id, member__isnull=True)
    found = (
        held.filter(number=number).first()
        if number
        else held.filter(number="", folded_name=folded, club=club).first()
        if folded
        else None
    )
    if found is None and number and ProvisionalPlayer.objects.filter(federation_id=federation_id, number=number):
        # Credited already, and the number is still not on the register: a new record would break the
        # one-per-number constraint, so the case waits for the office without one.
        return None
    return found or ProvisionalPlayer.objects.create(
        federation_id=federation_id, name=case.name_in_file[:200], number=number, folded_name=folded, club=club
    )


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
    posted = _settle(actor, case, player)
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


def _settle(actor, case: OfficeCase, player: Player | None) -> list[Award]:
    """Record the case's resolution (conditional on it still being open) and post its awards to ``player``."""
    status = Status.GUEST if player is None else Status.MEMBER
    if not OfficeCase.objects.filter(pk=case.pk, status=Status.OPEN).update(
        status=status, player=player, resolved_by=actor, resolved_at=timezone.now()
    ):
        raise refusal("ALREADY_RESOLVED", **_resolved_params(OfficeCase.objects.get(pk=case.pk)))
    Participation.objects.filter(pk=case.participation_id).update(
        player=player, resolution=Participation.Resolution.GUEST if player is None else Participation.Resolution.MEMBER
    )
    return _post(actor, case, player) if player is not None else []


@transaction.atomic
def provisional_credit(*, actor, provisional: ProvisionalPlayer, player: Player, joined: bool = False) -> list[Award]:
    """Credit every held case of ``provisional`` to the member ``player``: the office merging two
    records of one person, or (``joined``, ``actor=None``: the schedule) the member with the files' number
    who joined the register. Cases of tournaments replaced since are left to their re-upload. Refused when
    ``actor`` is not the federation's secretariat, when it was credited already, or as a case would be
    (another federation, a place already in the tournament). Audited (``provisional.credit``) naming the
    cases and the points; the standings of the member are updated after commit."""
    provisional = ProvisionalPlayer.objects.select_for_update().select_related("federation").get(pk=provisional.pk)
    if actor is not None and not is_secretariat(actor, provisional.federation):
        raise PermissionDenied(REFUSALS["NOT_SECRETARIAT"] % {"federation": provisional.federation})
    if not provisional.is_held:
        raise refusal(
            "ALREADY_CREDITED",
            provisional=str(provisional),
            member=str(provisional.member),
            date=provisional.credited_at,
        )
    cases = list(
        provisional.cases.select_for_update(of=("self",))
        .filter(status=Status.OPEN, tournament__is_current=True)
        .select_related("federation", "tournament__upload", "participation")
    )
    posted: list[Award] = []
    for case in cases:
        _check_member(case, player)
        posted += _settle(actor, case, player)
    provisional.member, provisional.credited_at, provisional.credited_by = player, timezone.now(), actor
    provisional.save(update_fields=["member", "credited_at", "credited_by"])
    audit_record(
        actor=actor,
        action="provisional.credit",
        target=provisional,
        payload={
            "player": player.number,
            "how": "joined" if joined else "merged",
            "cases": [case.pk for case in cases],
            "tournaments": sorted({case.tournament_id for case in cases}),
            "awards": [{"kind": a.kind, "units": a.units} for a in posted],
        },
    )
    if posted:
        enqueue_task(standings_update_players, provisional.federation_id, [player.pk])
    return posted


def provisional_players_join() -> int:
    """Credit each held provisional player whose number a member of the register now holds (a register
    import, the admin, the office's "new member"): DBf appendix B's "automatisk". One that cannot be credited
    (the member already has a place in one of its tournaments) is logged and stays held for the office.
    Returns how many were credited."""
    members = Player.objects.filter(federation_id=OuterRef("federation_id"), number=OuterRef("number"))
    held = ProvisionalPlayer.objects.filter(member__isnull=True).exclude(number="").filter(Exists(members))
    credited = 0
    for provisional in held.select_related("federation"):
        member = Player.objects.get(federation_id=provisional.federation_id, number=provisional.number)
        try:
            provisional_credit(actor=None, provisional=provisional, player=member, joined=True)
        except ValidationError as error:
            reason = " ".join(error.messages)
            log.warning("Provisional player %s not credited to %s: %s", provisional.pk, member, reason)
        else:
            credited += 1
    return credited


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
