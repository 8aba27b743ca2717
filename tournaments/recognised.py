"""HBS's list of recognised tournaments and the approvals around it.

- The annual named list (H-1, H-4): each entry awards one or more kinds, each with its strength S and, for a
  fixed official event, B fixed in advance or by bands of field size (H-8, H-17); an upload of a listed
  tournament takes its kinds, S and fixed B from the entry (:func:`upload_kinds`).
- Tourist tournaments in Croatia score only once HBS approved them (rule 2): :func:`tourist_approval_decide`.
- Internet tournaments count when their director holds an HBS licence, and the director reports them
  (rule 10): :func:`director_licence_grant`, :func:`director_licence_revoke`, :func:`licence_valid`.

The secretariat keeps all of it in the admin; every write goes through a service here and is audited.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.mail import notify
from federation.models import Federation
from federation.refusals import refusals
from federation.rulesets import rules_or_built_in
from federation.services import audit_record
from masterpoints.engine.common import MAX_FIELD
from masterpoints.engine.hbs.rules import number_text
from office.access import is_secretariat
from tournaments.issues import Issue
from tournaments.models import (
    FIXED_B_BANDS_MAX,
    FIXED_B_MAX,
    DirectorLicence,
    RecognisedAward,
    RecognisedTournament,
    ResultUpload,
    TouristApproval,
)

KINDS = ("black", "red", "master")

REFUSALS = {
    "NOT_HBS": _("The list of recognised tournaments and its approvals are HBS rules (H-1, rules 2 and 10)."),
    "NO_KINDS": _("A recognised tournament awards at least one kind with its strength S (H-1, H-4)."),
    "STRENGTH_NOT_POSITIVE": _("The strength S of %(kind)s points must be above 0 (H-4)."),
    "FIXED_B_BOTH": _("%(kind)s points: fix B or give bands by field size, not both (H-8)."),
    "FIXED_B_KIND": _("B is fixed for %(kind)s points, which the tournament does not award (H-8)."),
    "FIXED_B_BOUNDS": _("%(kind)s points: a fixed B lies above 0 and at most %(max)s, with 2 decimals (H-17)."),
    "FIXED_B_BANDS": _(
        "%(kind)s points: at most %(count)s bands, each starting at a different field size from 1 to %(field)s "
        "units (H-8, H-17)."
    ),
    "NOT_TOURIST": _("%(entry)s is not marked as a tourist tournament; only those need approval (rule 2)."),
    "ALREADY_DECIDED": _("This was already decided: %(status)s."),
    "REASON_REQUIRED": _("Give the reason for the refusal."),
    "LICENCE_DATES": _("A licence ends on or after the day it starts."),
    "LICENCE_REVOKED": _("This licence was already revoked."),
}


refusal = refusals(REFUSALS)


def _check_secretariat(actor, federation: Federation) -> None:
    if not is_secretariat(actor, federation):
        raise PermissionDenied(_("Only the federation's secretariat keeps the list and its approvals."))
    if not federation.scheme_info.recognised_list:
        raise refusal("NOT_HBS")


@dataclass(frozen=True)
class FixedB:
    """B of one kind fixed in advance (``first_place``) or by bands of field size (``((N_min, B), …)``), H-8."""

    first_place: Decimal | None = None
    bands: tuple[tuple[int, Decimal], ...] = ()

    def as_fields(self) -> dict:
        return {
            "first_place": self.first_place,
            "bands": [[n_min, str(b)] for n_min, b in sorted(self.bands, key=lambda band: band[0])],
        }


def _check_amount(kind: str, value: Decimal) -> None:
    if not (0 < value <= FIXED_B_MAX) or value != value.quantize(Decimal("0.01")):
        raise refusal("FIXED_B_BOUNDS", kind=kind, max=FIXED_B_MAX)


def fixed_b_check(kinds: dict[str, Decimal], fixed: dict[str, FixedB]) -> None:
    """H-8, H-17: a fixed B or bands (not both) for a kind the entry awards (``kinds``: S by kind), every number
    bounded; the refusal (a ``ValidationError``) names the kind and the bound."""
    for kind, terms in fixed.items():
        if not (terms.first_place is not None or terms.bands):
            continue
        if kind not in kinds:
            raise refusal("FIXED_B_KIND", kind=kind)
        if terms.first_place is not None and terms.bands:
            raise refusal("FIXED_B_BOTH", kind=kind)
        if terms.first_place is not None:
            _check_amount(kind, terms.first_place)
        starts = [n_min for n_min, _b in terms.bands]
        if (
            len(starts) > FIXED_B_BANDS_MAX
            or len(set(starts)) != len(starts)
            or not all(isinstance(n, int) and 1 <= n <= MAX_FIELD for n in starts)
        ):
            raise refusal("FIXED_B_BANDS", kind=kind, count=FIXED_B_BANDS_MAX, field=MAX_FIELD)
        for _n, b in terms.bands:
            _check_amount(kind, b)


@transaction.atomic
def recognised_tournament_save(
    *, actor, tournament: RecognisedTournament, kinds: dict[str, Decimal], fixed: dict[str, FixedB] | None = None
) -> RecognisedTournament:
    """Add or change an entry of the annual list with the kinds it awards, their S (H-1, H-4) and, where the
    list fixes it, B in advance or by bands of field size instead of the formula (H-8, H-17). Every kind
    keeps its S: "Svaki turnir ima unaprijed određenu snagu iskazanu faktorom S" (Način bodovanja 2), and
    the per-win points of rule 8 (H-5) need it even where B is fixed."""
    _check_secretariat(actor, tournament.federation)
    kinds = {kind: strength for kind, strength in kinds.items() if strength is not None}
    if not kinds:
        raise refusal("NO_KINDS")
    for kind, strength in kinds.items():
        if kind not in KINDS or strength <= 0:
            raise refusal("STRENGTH_NOT_POSITIVE", kind=kind)
    fixed = fixed or {}
    fixed_b_check(kinds, fixed)
    created = tournament.pk is None
    tournament.save()
    tournament.awards.exclude(kind__in=list(kinds)).delete()
    for kind, strength in kinds.items():
        terms = fixed.get(kind, FixedB()).as_fields()
        RecognisedAward.objects.update_or_create(
            tournament=tournament, kind=kind, defaults={"strength": strength, **terms}
        )
    audit_record(
        actor=actor,
        action="recognised.create" if created else "recognised.change",
        target=tournament,
        payload={
            "year": tournament.year,
            "tourist": tournament.tourist,
            "kinds": {k: str(s) for k, s in kinds.items()},
            "fixed_b": {a.kind: a.fixed_b for a in RecognisedAward.objects.filter(tournament=tournament) if a.fixed_b},
        },
    )
    return tournament


@transaction.atomic
def tourist_approval_request(
    *,
    actor,
    tournament: RecognisedTournament,
    organiser: str,
    place: str,
    starts_on: datetime.date,
    ends_on: datetime.date,
    contact_email: str = "",
) -> TouristApproval:
    """Record a request to approve a tourist tournament of the list (rule 2)."""
    _check_secretariat(actor, tournament.federation)
    if not tournament.tourist:
        raise refusal("NOT_TOURIST", entry=tournament)
    approval = TouristApproval.objects.create(
        tournament=tournament,
        organiser=organiser,
        place=place,
        starts_on=starts_on,
        ends_on=ends_on,
        contact_email=contact_email,
    )
    audit_record(actor=actor, action="tourist.request", target=approval, payload={"organiser": organiser})
    return approval


@transaction.atomic
def tourist_approval_decide(*, actor, approval: TouristApproval, approve: bool, reason: str = "") -> TouristApproval:
    """HBS approves or refuses a tourist tournament (rule 2); a refusal needs a reason. The organiser's
    contact is e-mailed in the federation's language."""
    approval = TouristApproval.objects.select_for_update().select_related("tournament__federation").get(pk=approval.pk)
    federation = approval.tournament.federation
    _check_secretariat(actor, federation)
    if approval.status != TouristApproval.Status.REQUESTED:
        raise refusal("ALREADY_DECIDED", status=approval.get_status_display())
    if not approve and not reason.strip():
        raise refusal("REASON_REQUIRED")
    status = TouristApproval.Status.APPROVED if approve else TouristApproval.Status.REFUSED
    approval.decide(actor=actor, status=status, reason=reason)
    audit_record(
        actor=actor,
        action="tourist.decide",
        target=approval,
        payload={"approve": approve, "reason": approval.decision_reason},
    )
    notify(
        template="tourist_decided",
        to=[approval.contact_email],
        language=federation.default_language,
        context={"approval": approval},
    )
    return approval


@transaction.atomic
def director_licence_grant(
    *, actor, federation: Federation, user, number: str, valid_from: datetime.date, valid_until: datetime.date
) -> DirectorLicence:
    """License an internet tournament director (rule 10)."""
    _check_secretariat(actor, federation)
    if valid_until < valid_from:
        raise refusal("LICENCE_DATES")
    licence = DirectorLicence.objects.create(
        federation=federation,
        user=user,
        number=number.strip(),
        valid_from=valid_from,
        valid_until=valid_until,
        granted_by=actor,
    )
    audit_record(
        actor=actor,
        action="licence.grant",
        target=licence,
        payload={"user": user.get_username(), "from": valid_from.isoformat(), "until": valid_until.isoformat()},
    )
    return licence


@transaction.atomic
def director_licence_revoke(*, actor, licence: DirectorLicence, reason: str) -> DirectorLicence:
    """End a licence before its time (rule 10); the reason is required and kept."""
    licence = DirectorLicence.objects.select_for_update().select_related("federation").get(pk=licence.pk)
    _check_secretariat(actor, licence.federation)
    if licence.revoked_at is not None:
        raise refusal("LICENCE_REVOKED")
    if not reason.strip():
        raise refusal("REASON_REQUIRED")
    licence.revoked_at = timezone.now()
    licence.revoked_by = actor
    licence.revoke_reason = reason.strip()
    licence.save(update_fields=["revoked_at", "revoked_by", "revoke_reason"])
    audit_record(actor=actor, action="licence.revoke", target=licence, payload={"reason": licence.revoke_reason})
    return licence


def holds_licence(user, federation: Federation) -> bool:
    """Whether ``user`` holds an HBS internet director licence not revoked (rule 10, H-26): who may report an
    internet tournament's results without an office role. The event's date is checked against the licence's
    dates in the preview (DIRECTOR_NOT_LICENSED, :func:`upload_issues`)."""
    if user is None or not user.is_authenticated:
        return False
    return DirectorLicence.objects.filter(federation=federation, user=user, revoked_at__isnull=True).exists()


def licensed_federations(user):
    """The federations in which ``user`` holds a licence not revoked (rule 10, H-26)."""
    if user is None or not user.is_authenticated:
        return Federation.objects.none()
    licences = DirectorLicence.objects.filter(user=user, revoked_at__isnull=True)
    return Federation.objects.filter(pk__in=licences.values("federation_id"))


def licence_valid(user, federation: Federation, on_date: datetime.date) -> bool:
    """Whether ``user`` holds an HBS internet director licence valid on ``on_date`` (rule 10)."""
    if user is None or not user.is_authenticated:
        return False
    return DirectorLicence.objects.filter(
        federation=federation,
        user=user,
        valid_from__lte=on_date,
        valid_until__gte=on_date,
        revoked_at__isnull=True,
    ).exists()


# --- at upload time -------------------------------------------------------------------------------------


def listed_for(federation: Federation, today: datetime.date):
    """The entries an upload may name: this year's and last year's list (results come in late)."""
    return (
        RecognisedTournament.objects.filter(federation=federation, year__in=[today.year, today.year - 1])
        .select_related("club")
        .prefetch_related("awards")
        .order_by("-year", "name")
    )


def tourist_refusal(federation: Federation, facts: dict) -> ValidationError | None:
    """H-27, rule 2: "Da bi se bodovao turistički turnir u Hrvatskoj, mora imati odobrenje HBS-a" (a tourist
    tournament in Croatia is scored only with HBS's approval). No results file says an event is one, so the upload
    asks; HBS's approval is recorded on the tournament's entry of the list (:func:`tourist_approval_decide`), so a
    tourist tournament is uploaded as its approved entry. One not on the list, or whose entry is not approved, is
    refused before anything is stored. ``None`` when the upload may go on."""
    if not facts.get("tourist"):
        return None
    entry = (
        RecognisedTournament.objects.filter(federation=federation, pk=facts.get("recognised"))
        .select_related("tourist_approval")
        .first()
        if facts.get("recognised")
        else None
    )
    approval = getattr(entry, "tourist_approval", None) if entry is not None else None
    if (
        entry is not None
        and entry.tourist
        and approval is not None
        and approval.status == TouristApproval.Status.APPROVED
    ):
        return None
    return ValidationError(
        _(
            "A tourist tournament in Croatia scores only with HBS's approval (rule 2): choose its entry of the list "
            "once HBS has approved it. An unlisted or unapproved tourist tournament is not scored."
        ),
        code="TOURIST_NOT_APPROVED",
    )


def upload_kinds(entry: RecognisedTournament) -> dict:
    """The facts an upload of a listed tournament takes from its entry (H-1): the kinds with their S (the
    first kind is the tournament's category) and, per kind, B fixed in advance or by bands (H-8)."""
    kinds = entry.kinds
    facts = {"recognised": entry.pk, "kinds": [list(pair) for pair in kinds], "category": kinds[0][0], "strength": ""}
    fixed = {award.kind: award.fixed_b for award in entry.awards.all() if award.fixed_b}
    if fixed:
        facts["fixed_b"] = fixed
    return facts


def fixed_b_text(fixed: dict) -> str:
    """``black: B = 40.00; red: B(N ≥ 6) = 20.00, B(N ≥ 12) = 30.00`` (H-8): symbols and numbers only, the
    same in every language of the preview."""
    parts = []
    for kind, terms in fixed.items():
        if "first_place" in terms:
            parts.append(f"{kind}: B = {terms['first_place']}")
        else:
            parts.append(f"{kind}: " + ", ".join(f"B(N ≥ {n_min}) = {b}" for n_min, b in terms.get("bands", [])))
    return "; ".join(parts)


def strength_issues(facts: dict, rules) -> list[Issue]:
    """Each S the upload awards by (the director's, or its list entry's per kind) against the bounds of the HBS
    rule set valid on the event's date (H-4): above ``strength_maximum`` it is refused
    (``STRENGTH_TOO_HIGH``), outside ``strength_usual_low``–``strength_usual_high`` it is a warning to check
    (``STRENGTH_UNUSUAL``); each names S, the bound and the rule set."""
    pairs = facts.get("kinds") or ([(facts["category"], facts["strength"])] if facts.get("strength") else [])
    issues = []
    for kind, text in pairs:
        strength = Decimal(text)
        params = {"kind": kind, "strength": text, "rule_set": rules.name}
        if strength > rules.strength_maximum:
            issues.append(Issue("STRENGTH_TOO_HIGH", params={**params, "limit": number_text(rules.strength_maximum)}))
        elif not rules.strength_usual_low <= strength <= rules.strength_usual_high:
            low, high = number_text(rules.strength_usual_low), number_text(rules.strength_usual_high)
            issues.append(Issue("STRENGTH_UNUSUAL", params={**params, "low": low, "high": high}))
    return issues


def upload_issues(*, upload: ResultUpload, on_date: datetime.date) -> tuple[list[str], list[Issue]]:
    """The kinds an HBS upload may award beyond the unlisted default, and the issues of its list entry and
    internet report: wrong year or organiser (H-1), tourist tournament not approved (rule 2), internet
    tournament without a licensed director (rule 10)."""
    facts, issues, kinds = upload.facts, [], []
    if facts.get("internet") and not licence_valid(upload.uploaded_by, upload.federation, on_date):
        issues.append(Issue("DIRECTOR_NOT_LICENSED", params={"date": on_date}))
    issues += strength_issues(facts, rules_or_built_in(upload.federation, on_date))
    if not facts.get("recognised"):
        return kinds, issues
    entry = (
        RecognisedTournament.objects.filter(pk=facts["recognised"], federation=upload.federation)
        .select_related("club", "tourist_approval")
        .first()
    )
    if entry is None:
        return kinds, issues
    kinds = [kind for kind, _s in facts.get("kinds", [])]
    if facts.get("fixed_b"):
        issues.append(Issue("FIXED_B_APPLIED", params={"entry": entry, "fixed": fixed_b_text(facts["fixed_b"])}))
    if entry.year != on_date.year:
        issues.append(Issue("RECOGNISED_WRONG_YEAR", params={"entry": entry, "year": entry.year, "date": on_date}))
    if entry.club_id and entry.club_id != upload.club_id:
        organiser = upload.club or upload.region or upload.federation
        issues.append(
            Issue("RECOGNISED_OTHER_ORGANISER", params={"entry": entry, "club": entry.club, "organiser": organiser})
        )
    approval = getattr(entry, "tourist_approval", None)
    if entry.tourist and (approval is None or approval.status != TouristApproval.Status.APPROVED):
        issues.append(Issue("TOURIST_NOT_APPROVED", params={"entry": entry}))
    return kinds, issues
