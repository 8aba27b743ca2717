"""DBf sanctions (§ 403): who may award SP and GP at a club's tournament, and the workflow that grants it.

Automatic rights (§ 403): clubs award BP, districts and kredse SP, DBf GP (``preview.DBF_ALLOWED``); a club
awards SP without applying in DBf's simultaneous events such as Klubsølv (§ 403A1) and in one top-16 per
playing time per season (§ 403A2). Anything more needs a sanction applied for here:

1. the club files (:func:`sanction_apply`); the conditions of § 403B1–7 are checked at once
   (``rules.application_problems``) and every unmet one is a refusal with its rule;
2. the district grants SP within the playing time's quota itself (§ 403 4, § 403B4: :func:`sanction_decide`),
   or recommends the application to the secretariat (:func:`sanction_recommend`) when the secretariat decides:
   GP (§ 403B7), SP beyond the quota (§ 403B3), jubilee GP (§ 403B4), dispensations (§ 403B5e);
3. the secretariat decides (:func:`sanction_decide`, in the admin);
4. when the results are uploaded, the sanction sets the quota (full or half, § 403B1–2) and the entry list
   is checked (``selectors.event_sanction``, ``selectors.sanction_check_after``, § 403B5c, § 403B6c); it pays
   that one tournament (D-Q24: ``Tournament.sanction``, one current tournament per sanction).

This module holds the writes (steps 1–3). Every step is audited and e-mailed (``notify``) to the club, the
district or the secretariat (§ 403B7: the decision goes to the club with a copy to the district).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, PlayingTime
from federation.models import Region
from federation.services import audit_record
from office.access import can_act_for_club, can_act_for_region, is_secretariat
from tournaments.models import Sanction, SanctionApplication
from tournaments.sanctions.notify import mail_decided, mail_filed, mail_recommended
from tournaments.sanctions.rules import application_problems, club_district, jubilee_age, refusal

App = SanctionApplication


# --- the club files ----------------------------------------------------------------------------------------


@transaction.atomic
def sanction_apply(
    *,
    actor,
    club: Club,
    name: str,
    date: datetime.date,
    entry_deadline: datetime.date,
    advertised_on: datetime.date,
    advertisement: str,
    form: str,
    boards: int,
    category: str,
    quota: str,
    playing_time: PlayingTime | None = None,
    basis: str = App.Basis.QUOTA,
    end_date: datetime.date | None = None,
    open_to_all: bool = True,
    national: bool = False,
    dispensations: Sequence[str] = (),
    dispensation_reason: str = "",
    contact_email: str = "",
    note: str = "",
    today: datetime.date | None = None,
) -> SanctionApplication:
    """File a club's application for an SP or GP sanction (§ 403B) with its district (§ 403B7), audited and
    e-mailed to the district and the club; returns the saved application, status ``filed``.

    Only the club's directors (and the secretariat) file for a club, only in a federation with sanctions
    (§ 403) and only when the club has a district. Refused, with every unmet condition of § 403B1–7 and its
    rule (``rules.application_problems``, as of ``today``), when there is any; nothing is written then.
    A playing time is kept only for the quota basis (§ 403B1–2). A jubilee's years are not stated but
    counted from the club's recorded founding year and kept on the application (§ 403B4, D-Q25, D-Q26).
    """
    district = _filing_district(actor, club)
    # Serialise filings of one club, so two at once cannot both take the same quota (§ 403B1–2); the locked
    # row is read fresh, so the jubilee is counted from the founding year on record now (§ 403B4).
    club = Club.objects.select_related("federation").select_for_update(of=("self",)).get(pk=club.pk)
    application = App(
        federation=club.federation,
        club=club,
        district=district,
        playing_time=playing_time if basis == App.Basis.QUOTA else None,
        name=name.strip()[:200],
        date=date,
        end_date=end_date,
        entry_deadline=entry_deadline,
        advertised_on=advertised_on,
        advertisement=advertisement,
        open_to_all=open_to_all,
        national=national,
        form=form,
        boards=boards,
        category=category,
        quota=quota,
        basis=basis,
        jubilee_years=_jubilee_age(club, date) if basis == App.Basis.JUBILEE else None,
        dispensations=sorted(set(dispensations)),
        dispensation_reason=dispensation_reason.strip(),
        contact_email=contact_email,
        note=note.strip(),
        filed_by=actor,
    )
    problems = application_problems(application, today=today or timezone.localdate())
    if problems:
        raise ValidationError(problems)
    application.save()
    _audit_filed(actor, application)
    mail_filed(application)
    return application


def _jubilee_age(club: Club, date: datetime.date) -> int | None:
    """The club's age in the tournament's year when that is one of its jubilee years (§ 403B4, D-Q25), else
    ``None`` (``rules.application_problems`` then refuses the jubilee application)."""
    return None if club.founding_year is None else jubilee_age(club.founding_year, date.year)


def _filing_district(actor, club: Club) -> Region:
    """The district ``actor`` files with for ``club`` (§ 403B7); refused unless they act for the club, the
    club's federation has sanctions (§ 403) and the club has a district."""
    if not can_act_for_club(actor, club):
        raise PermissionDenied(_("You may apply for sanctions only for your own club."))
    if not club.federation.scheme_info.sanctions:
        raise refusal("NOT_DBF")
    district = club_district(club)
    if district is None:
        raise refusal("NO_DISTRICT")
    return district


def _audit_filed(actor, application: SanctionApplication) -> None:
    """Audit the filing (§ 403B7) with what decides its quota and who decides it (§ 403B1–5)."""
    audit_record(
        actor=actor,
        action="sanction.apply",
        target=application,
        payload={
            "club": application.club.number,
            "date": application.date.isoformat(),
            "category": application.category,
            "quota": application.quota,
            "basis": application.basis,
            "dispensations": application.dispensations,
        },
    )


# --- the district and the secretariat ----------------------------------------------------------------------


def _locked(application: SanctionApplication) -> SanctionApplication:
    """The application fresh from the database and locked, so that two steps on it cannot overlap."""
    return (
        App.objects.select_for_update(of=("self",))
        .select_related("club__federation", "district")
        .get(pk=application.pk)
    )


@transaction.atomic
def sanction_recommend(*, actor, application: SanctionApplication, recommend: bool, note: str = "") -> None:
    """Record the district's recommendation, for or against, of an application the secretariat decides
    (GP, SP beyond the quota, jubilee GP, dispensations: § 403B3, § 403B4, § 403B5e, § 403B7); the application
    is then ``recommended``, audited, and mailed to the secretariat and the club.

    Only the officers of the club's district recommend, only while the application is ``filed``; SP within
    the quota is refused (the district decides it, § 403B4); "against" needs a note.
    """
    application = _locked(application)
    if not can_act_for_region(actor, application.district):
        raise PermissionDenied(_("Only the officers of the club's district recommend its applications."))
    if application.status != App.Status.FILED:
        raise refusal("NOT_AWAITING_DISTRICT", status=application.get_status_display())
    if not application.secretariat_decides:
        raise refusal("DISTRICT_DECIDES")
    if not recommend and not note.strip():
        raise refusal("NOTE_REQUIRED")
    application.recommendation = App.Recommendation.FOR if recommend else App.Recommendation.AGAINST
    application.recommendation_note = note.strip()
    application.recommended_by = actor
    application.recommended_at = timezone.now()
    application.status = App.Status.RECOMMENDED
    application.save(
        update_fields=["recommendation", "recommendation_note", "recommended_by", "recommended_at", "status"]
    )
    audit_record(
        actor=actor,
        action="sanction.recommend",
        target=application,
        payload={"recommend": recommend, "note": application.recommendation_note},
    )
    mail_recommended(application)


@transaction.atomic
def sanction_decide(*, actor, application: SanctionApplication, approve: bool, reason: str = "") -> Sanction | None:
    """Approve or refuse an application once; approving grants and returns the :class:`Sanction` (its
    quota, dates and dispensations), refusing returns ``None``. Audited; the decision goes to the club with
    a copy to the district (§ 403B7).

    SP within the quota: the district decides (§ 403 4, § 403B4), or the secretariat for it. Everything else:
    the secretariat only, and only after the district's recommendation (§ 403B3–4, § 403B5e, § 403B7).
    A refusal needs a reason; a decided application is refused.
    """
    application = _locked(application)
    _check_decider(actor, application)
    if not approve and not reason.strip():
        raise refusal("REASON_REQUIRED")
    application.decide(actor=actor, status=App.Status.APPROVED if approve else App.Status.REFUSED, reason=reason)
    sanction = None
    if approve:
        sanction = Sanction.objects.create(
            federation=application.federation,
            club=application.club,
            application=application,
            category=application.category,
            quota=application.quota,
            date=application.date,
            end_date=application.end_date or application.date,
            dispensations=application.dispensations,
            granted_by=actor,
        )
    audit_record(
        actor=actor,
        action="sanction.decide",
        target=application,
        payload={"approve": approve, "reason": application.decision_reason, "sanction": sanction and sanction.pk},
    )
    mail_decided(application, sanction)
    return sanction


def _check_decider(actor, application: SanctionApplication) -> None:
    """Refuse a decided application, and anyone who may not decide it now (§ 403B4, § 403B7)."""
    if application.status in (App.Status.APPROVED, App.Status.REFUSED):
        raise refusal("ALREADY_DECIDED", status=application.get_status_display())
    if application.secretariat_decides:
        if not is_secretariat(actor, application.federation):
            raise PermissionDenied(_("DBf's secretariat decides this application (§ 403B7)."))
        if application.status == App.Status.FILED:
            raise refusal("AWAITS_DISTRICT")
    elif not can_act_for_region(actor, application.district):
        raise PermissionDenied(_("Only the club's district or the secretariat decides this application."))
