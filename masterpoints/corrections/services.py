"""Correction requests: a player or a director asks, the commission decides, the ledger is compensated.

A request concerns one player's points, against a tournament or one award, with text and a document
(stored, offered as a download only; required where the rules ask for documents). The commission assigns
and decides it with a reason; granting posts new ledger rows (a reversal of the whole award, adjustments
with ``source=correction``), never an edit (design.md § Invariants). The requester is e-mailed when it
is filed and when decided.

HBS takes requests only during its one-year transition period, and only with documents (transition rule 6:
"U prijelaznom razdoblju od jedne godine, svaki registrirani igrač može dokumentirano zatražiti ispravak
bodovanja."). The windows are data (:class:`~masterpoints.models.CorrectionWindow`) the secretariat sets,
all of them within one year (H-12); a request outside an open window, or without a document (H-14), is
refused with the reason. DBf's rules set neither: its requests are taken at any time, a document optional.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from pathlib import PurePath

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.mail import notify, player_language
from federation.models import Federation, Player
from federation.outbox import enqueue_task
from federation.refusals import Days, refusals
from federation.schemes import decimals_of
from federation.services import audit_record
from masterpoints.engine.common import format_units
from masterpoints.models import Award, CorrectionRequest, CorrectionWindow
from masterpoints.standings.tasks import standings_update_players
from office.access import can_act_for_club, federations_served, is_secretariat
from office.models import Officer
from tournaments.models import Tournament

#: Documents are kept as evidence, never rendered: a size limit and a list of ordinary document types.
DOCUMENT_MAX_BYTES = settings.CORRECTION_DOCUMENT_MAX_BYTES
DOCUMENT_SUFFIXES = (".pdf", ".png", ".jpg", ".jpeg", ".txt", ".csv", ".xml", ".pbn", ".xlsx", ".docx", ".odt")

Status = CorrectionRequest.Status

REFUSALS = {
    "TARGET_REQUIRED": _("Name the tournament or the award the request is about."),
    "AWARD_OTHER_PLAYER": _("The award belongs to another player than the one named."),
    "OTHER_FEDERATION": _("The tournament or award belongs to another federation than the player."),
    "TEXT_REQUIRED": _("Say what is wrong and what it should be."),
    "DOCUMENT_TOO_LARGE": _("The document is %(size)s MB; at most %(limit)s MB is accepted."),
    "DOCUMENT_TYPE": _("Attach a PDF, an image, a text or spreadsheet file, or a results file."),
    "DOCUMENT_REQUIRED": _(
        "%(rule)s: a correction is asked for with documents. Attach the document that shows what is wrong "
        "(a PDF, an image, a text, spreadsheet or results file of at most %(limit)s MB)."
    ),
    "WINDOW_CLOSED": _(
        "Corrections are taken only during the transition period (%(rule)s), and no period is open today: %(windows)s."
    ),
    "WINDOW_NOT_IN_RULES": _(
        "The rules of %(federation)s set no period for correction requests: they are taken at any time."
    ),
    "WINDOW_DATES_ORDER": _("The window closes on %(closes_on)s, before it opens on %(opens_on)s."),
    "WINDOW_TOO_LONG": _(
        "%(rule)s: corrections are taken during a transition period of %(months)s months, so every window lies "
        "between %(first)s and %(limit)s. The window %(opens_on)s – %(closes_on)s would make the period run from "
        "%(first)s to %(last)s."
    ),
    "ASSIGNEE_NOT_COMMISSION": _("Requests are assigned to members of the federation's commission."),
    "ALREADY_DECIDED": _("This request was already decided: %(status)s."),
    "REASON_REQUIRED": _("Give the reason for the decision: the requester reads it."),
    "NOTHING_TO_POST": _("A granted correction posts at least one ledger entry: reverse the award or add an amount."),
    "NO_AWARD_TO_REVERSE": _("Only a request against an award can reverse it."),
    "ALREADY_REVERSED": _("The award was already reversed."),
    "KIND_NOT_OF_SCHEME": _("%(kind)s is not a point kind of this federation (%(kinds)s)."),
    "AMOUNT_ZERO": _("An adjustment of 0 posts nothing."),
    "BALANCE_NEGATIVE": _(
        "The correction would leave %(player)s with %(balance)s %(kind)s; a balance is never below 0."
    ),
}


refusal = refusals(REFUSALS)


# --- who may do what ---------------------------------------------------------------------------------


def is_commission(user, federation) -> bool:
    """A member of ``federation``'s commission (or a superuser): they decide corrections (transition rule 6)."""
    if not user.is_authenticated:
        return False
    return (
        user.is_superuser
        or Officer.objects.filter(user=user, role=Officer.Role.COMMISSION, federation=federation).exists()
    )


def commission_federations(user) -> frozenset[int] | None:
    """The ids of the federations whose correction requests ``user`` decides (``None``: every one, a
    superuser): the page offers the decision to them only."""
    if user.is_authenticated and user.is_superuser:
        return None
    return frozenset(federations_served(user, roles=(Officer.Role.COMMISSION,)).values_list("pk", flat=True))


def not_deciding(correction: CorrectionRequest) -> str:
    """The one refusal of a decision by someone not on the commission (transition rule 6 for HBS)."""
    return _(
        "Request #%(pk)s is decided by the commission of %(federation)s; you may read it and assign it to one "
        "of its members."
    ) % {"pk": correction.pk, "federation": correction.federation}


def may_file_for(user, player: Player, tournament: Tournament | None) -> bool:
    """A player for themselves; a director for any player in a tournament of their club; the secretariat."""
    if not user.is_authenticated:
        return False
    if player.user_id == user.pk or is_secretariat(user, player.federation):
        return True
    return tournament is not None and tournament.club_id is not None and can_act_for_club(user, tournament.club)


def may_see(user, correction: CorrectionRequest) -> bool:
    """The requester, the player, the commission and the secretariat; a director of the organising club."""
    if not user.is_authenticated:
        return False
    if user.pk in (correction.requested_by_id, correction.player.user_id):
        return True
    if is_commission(user, correction.federation) or is_secretariat(user, correction.federation):
        return True
    tournament = correction.tournament
    return tournament is not None and tournament.club_id is not None and can_act_for_club(user, tournament.club)


# --- filing -------------------------------------------------------------------------------------------


def transition_period_end(first_day: datetime.date, years: int) -> datetime.date:
    """The last day of a period of ``years`` years from ``first_day`` (H-12): the day before the same date
    ``years`` later, 28 February for a period opened on 29 February."""
    try:
        anniversary = first_day.replace(year=first_day.year + years)
    except ValueError:  # 29 February in a year without one: the anniversary is 1 March
        anniversary = datetime.date(first_day.year + years, 3, 1)
    return anniversary - datetime.timedelta(days=1)


def correction_window_check(window: CorrectionWindow) -> None:
    """Refuse a window the federation's rules do not allow, as it would be saved (form and service).

    H-12, on transition rule 6 ("U prijelaznom razdoblju od jedne godine …"): the rule sets *one* period
    of one year, so all of a federation's windows together lie within one year of the first one's opening
    day (:func:`transition_period_end`); a window may close early and another open later, but never beyond
    it. A federation whose rules set no period (DBf) takes no window."""
    federation = window.federation
    info = federation.scheme_info
    if not info.correction_window_rule:
        raise refusal("WINDOW_NOT_IN_RULES", federation=str(federation))
    if window.closes_on < window.opens_on:
        raise refusal("WINDOW_DATES_ORDER", opens_on=window.opens_on, closes_on=window.closes_on)
    others = CorrectionWindow.objects.filter(federation=federation).exclude(pk=window.pk)
    first = min([window.opens_on, *others.values_list("opens_on", flat=True)])
    last = max([window.closes_on, *others.values_list("closes_on", flat=True)])
    limit = transition_period_end(first, info.correction_window_years)
    if last > limit:
        raise refusal(
            "WINDOW_TOO_LONG",
            rule=info.correction_window_rule,
            months=12 * info.correction_window_years,
            first=first,
            limit=limit,
            last=last,
            opens_on=window.opens_on,
            closes_on=window.closes_on,
        )


@transaction.atomic
def correction_window_save(*, actor, window: CorrectionWindow) -> CorrectionWindow:
    """Open or change a period in which corrections are taken (HBS transition rule 6); the secretariat's.

    Refused (:func:`correction_window_check`) for a federation without such periods and for a window that
    would stretch the period beyond one year (H-12). The federation's row is locked first, so two windows
    saved at once are checked one after the other."""
    if not is_secretariat(actor, window.federation):
        raise PermissionDenied(_("Only the secretariat sets the correction windows."))
    Federation.objects.select_for_update().filter(pk=window.federation_id).first()
    correction_window_check(window)
    created = window.pk is None
    window.save()
    audit_record(
        actor=actor,
        action="correction.window.create" if created else "correction.window.change",
        target=window,
        payload={"opens_on": window.opens_on.isoformat(), "closes_on": window.closes_on.isoformat()},
    )
    return window


def open_window(federation, today: datetime.date) -> bool | None:
    """Whether a correction window is open today; ``None`` for a federation whose rules set no window."""
    if not federation.scheme_info.correction_window_rule:
        return None
    return CorrectionWindow.objects.filter(federation=federation, opens_on__lte=today, closes_on__gte=today).exists()


def _check_document(document, federation) -> None:
    """The document's bounds; H-14, on transition rule 6 ("… može dokumentirano zatražiti ispravak"): where
    the rules ask for documents, a request carries an attached file (the text alone documents nothing)."""
    rule = federation.scheme_info.correction_document_rule
    if rule and (document is None or not document.size):
        raise refusal("DOCUMENT_REQUIRED", rule=rule, limit=DOCUMENT_MAX_BYTES // 1024 // 1024)
    if document is None:
        return
    if document.size > DOCUMENT_MAX_BYTES:
        raise refusal(
            "DOCUMENT_TOO_LARGE", size=f"{document.size / 1024 / 1024:.1f}", limit=DOCUMENT_MAX_BYTES // 1024 // 1024
        )
    if PurePath(document.name or "").suffix.lower() not in DOCUMENT_SUFFIXES:
        raise refusal("DOCUMENT_TYPE")


@transaction.atomic
def correction_request_file(
    *,
    actor,
    player: Player,
    text: str,
    tournament: Tournament | None = None,
    award: Award | None = None,
    document=None,
    today: datetime.date | None = None,
) -> CorrectionRequest:
    """File a request to correct ``player``'s points, against a tournament or one award (then its tournament).

    Refused outside an open correction window where the federation's rules have one, and without a document
    where they ask for one (HBS transition rule 6, H-14); and for a missing target or text, an award of
    another player, or a document too large or of another type.
    """
    if award is not None:
        tournament = award.tournament or tournament
    if not may_file_for(actor, player, tournament):
        raise PermissionDenied(_("You may ask for corrections of your own points, or as a director of the club."))
    if tournament is None and award is None:
        raise refusal("TARGET_REQUIRED")
    if award is not None and award.player_id != player.pk:
        raise refusal("AWARD_OTHER_PLAYER")
    if (tournament is not None and tournament.federation_id != player.federation_id) or (
        award is not None and award.federation_id != player.federation_id
    ):
        raise refusal("OTHER_FEDERATION")
    if not text.strip():
        raise refusal("TEXT_REQUIRED")
    federation = player.federation
    _check_document(document, federation)
    today = today or timezone.localdate()
    if open_window(federation, today) is False:
        windows = tuple(Days(w.opens_on, w.closes_on) for w in federation.correction_windows.all())
        rule = federation.scheme_info.correction_window_rule
        raise refusal("WINDOW_CLOSED", rule=rule, windows=windows or _("none set"))
    # The same request sent twice (a double click, a reload) is filed once: an open request of the same
    # requester, player, tournament or award and text is the one already filed.
    Player.objects.select_for_update().filter(pk=player.pk).first()
    same = CorrectionRequest.objects.filter(
        player=player,
        tournament=tournament,
        award=award,
        text=text.strip(),
        requested_by=actor,
        status__in=[CorrectionRequest.Status.OPEN, CorrectionRequest.Status.ASSIGNED],
    ).first()
    if same is not None:
        return same
    correction = CorrectionRequest(
        federation=federation, player=player, tournament=tournament, award=award, text=text.strip(), requested_by=actor
    )
    if document is not None:
        correction.document_name = PurePath(document.name).name[:255]
        correction.document.save("document", document, save=False)
    correction.save()
    audit_record(
        actor=actor,
        action="correction.file",
        target=correction,
        payload={
            "player": player.number,
            "tournament": tournament and tournament.pk,
            "award": award and award.pk,
            "document": correction.document_name,
        },
    )
    notify(
        template="correction_filed",
        to=[actor.email],
        language=player_language(player),
        context={"correction": correction},
    )
    return correction


# --- the commission -------------------------------------------------------------------------------------


def _locked(correction: CorrectionRequest) -> CorrectionRequest:
    return (
        CorrectionRequest.objects.select_for_update(of=("self",))
        .select_related("federation", "player", "award", "tournament", "requested_by")
        .get(pk=correction.pk)
    )


@transaction.atomic
def correction_assign(*, actor, correction: CorrectionRequest, assignee) -> CorrectionRequest:
    """Give an open request to a commission member (the commission or the secretariat assigns)."""
    correction = _locked(correction)
    federation = correction.federation
    if not (is_commission(actor, federation) or is_secretariat(actor, federation)):
        raise PermissionDenied(_("Only the commission and the secretariat assign correction requests."))
    if not correction.is_open:
        raise refusal("ALREADY_DECIDED", status=correction.get_status_display())
    if not Officer.objects.filter(user=assignee, role=Officer.Role.COMMISSION, federation=federation).exists():
        raise refusal("ASSIGNEE_NOT_COMMISSION")
    correction.assigned_to = assignee
    correction.status = Status.ASSIGNED
    correction.save(update_fields=["assigned_to", "status"])
    audit_record(actor=actor, action="correction.assign", target=correction, payload={"to": assignee.get_username()})
    return correction


@transaction.atomic
def correction_decide(
    *,
    actor,
    correction: CorrectionRequest,
    grant: bool,
    reason: str,
    reverse_award: bool = False,
    adjustments: Sequence[tuple[str, int]] = (),
) -> list[Award]:
    """The commission's decision, with a reason the requester reads (transition rule 6).

    Granting posts compensating ledger rows and nothing else: ``reverse_award`` reverses the request's award
    in full (``source=reversal``), each ``(kind, units)`` of ``adjustments`` adds or removes units
    (``source=correction``), dated like the tournament when there is one. No balance may fall below 0.
    Returns the rows posted.
    """
    correction = _locked(correction)
    federation = correction.federation
    if not is_commission(actor, federation):
        raise PermissionDenied(not_deciding(correction))
    if not correction.is_open:
        raise refusal("ALREADY_DECIDED", status=correction.get_status_display())
    if not reason.strip():
        raise refusal("REASON_REQUIRED")
    entries: list[Award] = []
    if grant:
        entries = _entries(actor, correction, reason.strip(), reverse_award, adjustments)
    correction.decide(actor=actor, status=Status.GRANTED if grant else Status.REFUSED, reason=reason)
    audit_record(
        actor=actor,
        action="correction.decide",
        target=correction,
        payload={
            "grant": grant,
            "reason": correction.decision_reason,
            "entries": [{"award": a.pk, "kind": a.kind, "units": a.units, "source": a.source} for a in entries],
        },
    )
    if entries:
        # The player's standings, once the entries are committed.
        enqueue_task(standings_update_players, federation.pk, [correction.player_id])
    notify(
        template="correction_decided",
        to=[correction.requested_by.email, correction.player.email],
        language=player_language(correction.player),
        context={"correction": correction, "entries": entries},
    )
    return entries


def _entries(actor, correction: CorrectionRequest, reason: str, reverse_award: bool, adjustments) -> list[Award]:
    # Lock the player's ledger, and the award a grant reverses, so two decisions cannot both pass the checks.
    Player.objects.select_for_update().get(pk=correction.player_id)
    if reverse_award and correction.award_id is not None:
        Award.objects.select_for_update().get(pk=correction.award_id)
    rows = correction_entries_plan(
        actor=actor, correction=correction, reason=reason, reverse_award=reverse_award, adjustments=adjustments
    )
    for row in rows:
        row.save()
    return rows


def correction_entries_plan(
    *, actor, correction: CorrectionRequest, reason: str, reverse_award: bool, adjustments: Sequence[tuple[str, int]]
) -> list[Award]:
    """The ledger rows granting ``correction`` would post, unsaved, after every check the grant makes (issue
    19: the decide page shows them before the decision; D-Q47: what it shows is what the grant posts).

    ``reverse_award`` reverses the request's award in full (``source=reversal``); each ``(kind, units)`` of
    ``adjustments`` adds or removes units (``source=correction``), dated like the tournament when there is
    one. No balance may fall below 0."""
    player, federation = correction.player, correction.federation
    kinds = federation.scheme_info.kinds
    for kind, units in adjustments:
        if kind not in kinds:
            raise refusal("KIND_NOT_OF_SCHEME", kind=kind, kinds=", ".join(kinds))
        if units == 0:
            raise refusal("AMOUNT_ZERO")
    if not reverse_award and not adjustments:
        raise refusal("NOTHING_TO_POST")
    tournament = correction.tournament
    on = tournament.date if tournament else timezone.localdate()
    reason = reason.strip()[:300]
    rows = [_reversal(actor, correction, reason)] if reverse_award else []
    rows += [
        Award(
            federation=federation,
            player=player,
            kind=kind,
            units=units,
            source=Award.Source.CORRECTION,
            tournament=tournament,
            reason=reason,
            correction=correction,
            awarded_on=on,
            created_by=actor,
        )
        for kind, units in adjustments
    ]
    for kind in {row.kind for row in rows}:
        balance = Award.objects.filter(player=player, kind=kind).aggregate(total=Sum("units"))["total"] or 0
        after = balance + sum(row.units for row in rows if row.kind == kind)
        if after < 0:
            raise refusal("BALANCE_NEGATIVE", player=player, balance=format_units(after, decimals_of(kind)), kind=kind)
    return rows


def _reversal(actor, correction: CorrectionRequest, reason: str) -> Award:
    award = correction.award
    if award is None:
        raise refusal("NO_AWARD_TO_REVERSE")
    award = Award.objects.get(pk=award.pk)
    if Award.objects.filter(reverses=award).exists() or award.source == Award.Source.REVERSAL:
        raise refusal("ALREADY_REVERSED")
    return Award(
        federation=correction.federation,
        player=correction.player,
        kind=award.kind,
        units=-award.units,
        source=Award.Source.REVERSAL,
        tournament=award.tournament,
        part=award.part,
        place_first=award.place_first,
        place_last=award.place_last,
        reason=reason,
        correction=correction,
        reverses=award,
        awarded_on=award.awarded_on,
        created_by=actor,
    )
