"""DBf sanctions (§ 403): who may award SP and GP at a club's tournament, and the workflow that grants it.

Automatic rights (§ 403): clubs award BP, districts and kredse SP, DBf GP (``preview.DBF_ALLOWED``); a club
awards SP without applying in DBf's simultaneous events such as Klubsølv (§ 403A1) and in one top-16 per
playing time per season (§ 403A2). Anything more needs a sanction applied for here:

1. the club files (:func:`sanction_apply`); the conditions of § 403B1–7 are checked at once and every
   unmet one is a refusal with its rule;
2. the district grants SP within the playing time's quota itself (§ 403 4, § 403B4: :func:`sanction_decide`),
   or recommends the application to the secretariat (:func:`sanction_recommend`) when the secretariat decides:
   GP (§ 403B7), SP beyond the quota (§ 403B3), jubilee GP (§ 403B4), dispensations (§ 403B5e);
3. the secretariat decides (:func:`sanction_decide`, in the admin);
4. when the results are uploaded, the sanction sets the quota (full or half, § 403B1–2) and the entry list
   is checked (:func:`sanction_check_after`, § 403B5c, § 403B6c).

Every step is audited and e-mailed to the club, the district or the secretariat (§ 403B7: the decision
goes to the club with a copy to the district).
"""

from __future__ import annotations

import calendar
import datetime
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, ClubMembership, PlayingTime
from federation.mail import club_language, notify
from federation.models import Region
from federation.refusals import refusals
from federation.rulesets import rules_for
from federation.services import audit_record
from masterpoints.engine.dbf.scale import quota_n1
from office.access import can_act_for_club, can_act_for_region, is_secretariat
from office.models import Officer
from tournaments.checks import CheckIssue
from tournaments.models import Form, Sanction, SanctionApplication, Tournament

App = SanctionApplication

#: Minimum clubs in the entry list and the largest share of one club (§ 403B5c, § 403B6c).
MIN_CLUBS = 5
#: Months an application must be filed ahead of the tournament (§ 403B7).
MONTHS_AHEAD = 2
#: Days the advertisement must run before the entry deadline (§ 403B5b, § 403B6b).
ADVERTISED_DAYS = 14
#: How a sanctioned tournament may be advertised: SP in Dansk Bridge and on DBf's website, in the district's
#: magazine or by e-mail to every club of the district (§ 403B5b; a quarter page in Dansk Bridge does more than
#: that); GP only with at least a quarter page in Dansk Bridge (§ 403B6b).
ADVERTISEMENTS = {
    "SP": tuple(App.Advertisement.values),
    "GP": (App.Advertisement.QUARTER_PAGE,),
}
#: The letters of § 403B5 the secretariat may dispense from (§ 403B5e); GP has none (§ 403B6e).
DISPENSABLE = ("b", "c", "d")
#: Jubilee GP tournaments a club may hold in one year, whatever its playing times (§ 403B4).
JUBILEE_PER_YEAR = 2
#: The DBf season runs 16 May – 15 May (§ 451C), as the standings count it.
SEASON_START = (5, 16)

LIVE = (App.Status.FILED, App.Status.RECOMMENDED, App.Status.APPROVED)

#: Every refusal reason: code → message. The message names the rule; the form shows it at ``FIELDS[code]``.
REFUSALS = {
    "NOT_DBF": _("Sanctions are a DBf rule (§ 403); this club's federation has no sanctions."),
    "NO_DISTRICT": _("The club belongs to no district, and applications are filed with the district (§ 403B7)."),
    "FILED_TOO_LATE": _(
        "An application must reach the district at least two months before the tournament, so by %(latest)s "
        "for a tournament starting %(date)s (§ 403B7)."
    ),
    "ENTRY_DEADLINE_AFTER_START": _("The entry deadline must not lie after the tournament's first day."),
    "PLAYING_TIME_REQUIRED": _(
        "Name the club's playing time whose annual tournament this is: the quota is one full and one half "
        "tournament per playing time per year (§ 403B1–2)."
    ),
    "QUOTA_USED": _(
        "%(playing_time)s already has its tournament with %(quota)s MP in %(year)s (%(other)s): one per "
        "playing time per year (%(rule)s)."
    ),
    "EXTRA_SP_ONLY": _("Only SP can be sanctioned beyond the playing times' quota (§ 403B3)."),
    "JUBILEE_GP_ONLY": _("The jubilee sanction is for GP (§ 403B4)."),
    "NOT_JUBILEE_YEAR": _("GP for a jubilee needs a jubilee year: a number of years divisible by 5 (§ 403B4)."),
    "JUBILEE_USED": _("The club already has two jubilee GP tournaments in %(year)s: at most two a year (§ 403B4)."),
    "DISPENSATION_NOT_FOR_GP": _("DBf's secretariat cannot dispense from the conditions for GP (§ 403B6e)."),
    "DISPENSATION_UNKNOWN": _("Dispensation is possible from § 403B5b, c and d only (§ 403B5e)."),
    "DISPENSATION_REASON_MISSING": _(
        "Say why a dispensation is asked for, e.g. the entry fees go to charity (§ 403B5e)."
    ),
    "NOT_OPEN": _("A sanctioned tournament must be open to all (%(rule)s)."),
    "NOT_NATIONAL": _("A GP tournament must be an open tournament of national character (§ 403B6b)."),
    "ADVERTISEMENT_NOT_ENOUGH": _(
        "A GP tournament must be advertised with at least a quarter page in Dansk Bridge (§ 403B6b)."
    ),
    "ADVERTISED_TOO_LATE": _(
        "The advertisement must appear at least 14 days before the entry deadline, so by %(latest)s (%(rule)s)."
    ),
    "BOARDS_TOO_FEW": _(
        "%(boards)s boards do not pay %(category)s (%(board_rule)s); a sanctioned form must (%(rule)s)."
    ),
    "NOT_AWAITING_DISTRICT": _("This application is no longer with the district: it is %(status)s."),
    "DISTRICT_DECIDES": _(
        "SP within the playing time's quota is the district's to grant (§ 403B4): approve or refuse it."
    ),
    "NOTE_REQUIRED": _("Say why the district does not recommend the application."),
    "AWAITS_DISTRICT": _(
        "The secretariat decides after the district's recommendation (§ 403B7): the district has not given it yet."
    ),
    "ALREADY_DECIDED": _("This application was already decided: it is %(status)s."),
    "REASON_REQUIRED": _("Give the reason for refusing the application."),
}

#: The form field each refusal belongs to (``None``: the form as a whole).
FIELDS = {
    "FILED_TOO_LATE": "date",
    "ENTRY_DEADLINE_AFTER_START": "entry_deadline",
    "PLAYING_TIME_REQUIRED": "playing_time",
    "QUOTA_USED": "quota",
    "EXTRA_SP_ONLY": "basis",
    "JUBILEE_GP_ONLY": "basis",
    "NOT_JUBILEE_YEAR": "jubilee_years",
    "JUBILEE_USED": "basis",
    "DISPENSATION_NOT_FOR_GP": "dispensations",
    "DISPENSATION_UNKNOWN": "dispensations",
    "DISPENSATION_REASON_MISSING": "dispensation_reason",
    "NOT_OPEN": "open_to_all",
    "NOT_NATIONAL": "national",
    "ADVERTISEMENT_NOT_ENOUGH": "advertisement",
    "ADVERTISED_TOO_LATE": "advertised_on",
    "BOARDS_TOO_FEW": "boards",
}


refusal = refusals(REFUSALS)


def add_months(day: datetime.date, months: int) -> datetime.date:
    """The same day ``months`` later, or the month's last day when it is shorter (31 Dec + 2 → 28/29 Feb)."""
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    return day.replace(year=year, month=month, day=min(day.day, calendar.monthrange(year, month)[1]))


def season_of(day: datetime.date) -> tuple[datetime.date, datetime.date]:
    """The DBf season containing ``day``: 16 May – 15 May (§ 451C)."""
    start = datetime.date(day.year, *SEASON_START)
    if day < start:
        start = start.replace(year=day.year - 1)
    return start, start.replace(year=start.year + 1) - datetime.timedelta(days=1)


def club_district(club: Club) -> Region | None:
    """The district the club's applications go to (§ 403B7)."""
    return club.regions.filter(kind=Region.Kind.DISTRICT).order_by("pk").first()


# --- filing: the conditions of § 403B ------------------------------------------------------------------


def application_problems(application: SanctionApplication, *, today: datetime.date) -> list[ValidationError]:
    """Every condition of § 403B1–7 the application does not meet, as refusals with their rule.

    Dispensations asked for (§ 403B5e, SP only) waive the conditions b (open, advertised) and d (boards)
    here; c (the entry list) is checked after the tournament unless dispensed.
    """
    app, problems = application, []
    sp = app.category == "SP"
    dispensed = set(app.dispensations) if sp else set()
    rule = "§ 403B5" if sp else "§ 403B6"

    latest = add_months(today, MONTHS_AHEAD)
    if app.date < latest:
        problems.append(refusal("FILED_TOO_LATE", latest=latest.isoformat(), date=app.date.isoformat()))
    if app.entry_deadline > app.date:
        problems.append(refusal("ENTRY_DEADLINE_AFTER_START"))
    problems += _basis_problems(app)
    unknown = set(app.dispensations) - set(DISPENSABLE)
    if app.dispensations and not sp:
        problems.append(refusal("DISPENSATION_NOT_FOR_GP"))
    elif unknown:
        problems.append(refusal("DISPENSATION_UNKNOWN"))
    elif app.dispensations and not app.dispensation_reason.strip():
        problems.append(refusal("DISPENSATION_REASON_MISSING"))
    if "b" not in dispensed:
        if not app.open_to_all:
            problems.append(refusal("NOT_OPEN", rule=f"{rule}b"))
        if app.advertisement not in ADVERTISEMENTS[app.category]:
            problems.append(refusal("ADVERTISEMENT_NOT_ENOUGH"))
        latest_ad = app.entry_deadline - datetime.timedelta(days=ADVERTISED_DAYS)
        if app.advertised_on > latest_ad:
            problems.append(refusal("ADVERTISED_TOO_LATE", latest=latest_ad.isoformat(), rule=f"{rule}b"))
    if not sp and not app.national:
        problems.append(refusal("NOT_NATIONAL"))
    if "d" not in dispensed and app.form != Form.TEAMS:
        # Team events pay by their own tables and match lengths (§ 411–414); the board rule is for the rest.
        try:
            rules = rules_for(app.federation, app.date)
        except LookupError:  # a date before every rule set: refused as too late above
            rules = None
        n1, board_rule = quota_n1(app.category, "club", app.boards, rules) if rules else (1, "")
        if n1 == 0:
            problems.append(
                refusal(
                    "BOARDS_TOO_FEW",
                    boards=app.boards,
                    category=app.category,
                    board_rule=board_rule,
                    rule=f"{rule}d",
                )
            )
    return problems


def _basis_problems(app: SanctionApplication) -> list[ValidationError]:
    """The quotas: one full and one half tournament per playing time per year (§ 403B1–2); extra SP in
    special cases (§ 403B3); GP in a jubilee year, at most two a year (§ 403B4)."""
    live = App.objects.filter(club=app.club, status__in=LIVE, date__year=app.date.year).exclude(pk=app.pk or 0)
    if app.basis == App.Basis.QUOTA:
        if app.playing_time is None or app.playing_time.club_id != app.club.pk:
            return [refusal("PLAYING_TIME_REQUIRED")]
        other = live.filter(basis=App.Basis.QUOTA, playing_time=app.playing_time, quota=app.quota).first()
        if other is not None:
            return [
                refusal(
                    "QUOTA_USED",
                    playing_time=app.playing_time,
                    quota=_("full") if app.quota == App.Quota.FULL else _("half"),
                    year=app.date.year,
                    other=other.name,
                    rule="§ 403B1" if app.quota == App.Quota.FULL else "§ 403B2",
                )
            ]
        return []
    if app.basis == App.Basis.EXTRA:
        return [] if app.category == "SP" else [refusal("EXTRA_SP_ONLY")]
    problems = []
    if app.category != "GP":
        problems.append(refusal("JUBILEE_GP_ONLY"))
    if not app.jubilee_years or app.jubilee_years % 5:
        problems.append(refusal("NOT_JUBILEE_YEAR"))
    if live.filter(basis=App.Basis.JUBILEE).count() >= JUBILEE_PER_YEAR:
        problems.append(refusal("JUBILEE_USED", year=app.date.year))
    return problems


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
    jubilee_years: int | None = None,
    dispensations: Sequence[str] = (),
    dispensation_reason: str = "",
    contact_email: str = "",
    note: str = "",
    today: datetime.date | None = None,
) -> SanctionApplication:
    """File a club's application for an SP or GP sanction (§ 403B) with its district (§ 403B7).

    Refused, with every unmet condition and its rule, when :func:`application_problems` finds any; nothing
    is written then. Only the club's directors (and the secretariat) file for a club.
    """
    if not can_act_for_club(actor, club):
        raise PermissionDenied(_("You may apply for sanctions only for your own club."))
    if club.federation.scheme != "dbf":
        raise refusal("NOT_DBF")
    district = club_district(club)
    if district is None:
        raise refusal("NO_DISTRICT")
    # Serialise filings of one club, so two at once cannot both take the same quota (§ 403B1–2).
    Club.objects.select_for_update().get(pk=club.pk)
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
        jubilee_years=jubilee_years if basis == App.Basis.JUBILEE else None,
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
    audit_record(
        actor=actor,
        action="sanction.apply",
        target=application,
        payload={
            "club": club.number,
            "date": date.isoformat(),
            "category": category,
            "quota": quota,
            "basis": basis,
            "dispensations": application.dispensations,
        },
    )
    context = {"application": application}
    notify(
        template="sanction_filed_district",
        to=_region_officer_emails(district),
        language=club.federation.default_language,
        context=context,
    )
    notify(template="sanction_filed", to=_club_emails(application), language=club_language(club), context=context)
    return application


# --- the district and the secretariat ------------------------------------------------------------------


def _locked(application: SanctionApplication) -> SanctionApplication:
    return (
        App.objects.select_for_update(of=("self",))
        .select_related("club__federation", "district")
        .get(pk=application.pk)
    )


@transaction.atomic
def sanction_recommend(*, actor, application: SanctionApplication, recommend: bool, note: str = "") -> None:
    """The district's recommendation of an application the secretariat decides: GP, SP beyond the quota,
    jubilee GP and dispensations (§ 403B3, § 403B4, § 403B5e, § 403B7)."""
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
    context = {"application": application}
    notify(
        template="sanction_recommended",
        to=_secretariat_emails(application.federation),
        language=application.federation.default_language,
        context=context,
    )
    notify(
        template="sanction_recommended_club",
        to=_club_emails(application),
        language=club_language(application.club),
        context=context,
    )


@transaction.atomic
def sanction_decide(*, actor, application: SanctionApplication, approve: bool, reason: str = "") -> Sanction | None:
    """Approve or refuse an application; approving grants the :class:`Sanction`.

    SP within the quota: the district decides (§ 403 4, § 403B4), or the secretariat for it. Everything else:
    the secretariat, after the district's recommendation (§ 403B3–4, § 403B5e, § 403B7). A refusal needs a
    reason. The decision goes to the club with a copy to the district (§ 403B7).
    """
    application = _locked(application)
    if application.status in (App.Status.APPROVED, App.Status.REFUSED):
        raise refusal("ALREADY_DECIDED", status=application.get_status_display())
    if application.secretariat_decides:
        if not is_secretariat(actor, application.federation):
            raise PermissionDenied(_("DBf's secretariat decides this application (§ 403B7)."))
        if application.status == App.Status.FILED:
            raise refusal("AWAITS_DISTRICT")
    elif not can_act_for_region(actor, application.district):
        raise PermissionDenied(_("Only the club's district or the secretariat decides this application."))
    if not approve and not reason.strip():
        raise refusal("REASON_REQUIRED")
    application.status = App.Status.APPROVED if approve else App.Status.REFUSED
    application.decided_by = actor
    application.decided_at = timezone.now()
    application.decision_reason = reason.strip()
    application.save(update_fields=["status", "decided_by", "decided_at", "decision_reason"])
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
    notify(
        template="sanction_decided",
        to=_club_emails(application),
        cc=_region_officer_emails(application.district),
        language=club_language(application.club),
        context={"application": application, "sanction": sanction},
    )
    return sanction


def _club_emails(application: SanctionApplication) -> list[str]:
    filer = application.filed_by.email if application.filed_by else ""
    return [application.contact_email, application.club.email, filer]


def _region_officer_emails(region: Region) -> list[str]:
    return list(
        Officer.objects.filter(role=Officer.Role.REGION_OFFICER, region=region).values_list("user__email", flat=True)
    )


def _secretariat_emails(federation) -> list[str]:
    offices = Officer.objects.filter(role=Officer.Role.SECRETARIAT, federation=federation)
    return [federation.contact_email, *offices.values_list("user__email", flat=True)]


# --- at upload time -------------------------------------------------------------------------------------


@dataclass
class EventSanction:
    """What lets a club award SP or GP in one uploaded event: ``kind`` is the engine's ``sanction``."""

    kind: str = "none"
    sanction: Sanction | None = None
    issues: list[CheckIssue] = field(default_factory=list)


def event_sanction(*, club: Club, category: str, on_date: datetime.date, special: str, event_key: str) -> EventSanction:
    """The club's right to award ``category`` in an event on ``on_date``.

    SP in a DBf simultaneous event such as Klubsølv is automatic (§ 403A1); so is SP in a top-16, one per
    playing time per season (§ 403A2; a club may hold them per playing time or as one combined top-16,
    § 443B2, so the season's top-16s are counted against the club's active playing times). Otherwise an
    approved sanction covering the date gives full or half MP (§ 403B1–2).
    """
    if category == "SP" and special == "simultaneous":
        return EventSanction(kind="automatic")
    if category == "SP" and special == "top16":
        start, end = season_of(on_date)
        held = (
            Tournament.objects.current()
            .filter(club=club, category="SP", upload__facts__special="top16", date__range=(start, end))
            .exclude(event_key=event_key)
            .count()
        )
        allowed = club.playing_times.filter(active=True).count()
        if held < allowed:
            return EventSanction(kind="automatic")
        return EventSanction(
            issues=[
                CheckIssue(
                    "SANCTION_TOP16_USED", params={"held": held, "allowed": allowed, "season": f"{start:%Y}/{end:%y}"}
                )
            ]
        )
    sanction = (
        Sanction.objects.filter(club=club, category=category, date__lte=on_date, end_date__gte=on_date)
        .order_by("-granted_at")
        .first()
    )
    if sanction is None:
        return EventSanction()
    info = CheckIssue(
        "SANCTION_APPLIED",
        params={
            "quota": sanction.get_quota_display(),
            "date": sanction.granted_at.date().isoformat(),
            "name": sanction.application.name,
        },
    )
    return EventSanction(kind=sanction.quota, sanction=sanction, issues=[info])


def sanction_check_after(
    *, sanction: Sanction, players: Sequence, no_outside_entries_refused: bool
) -> list[CheckIssue]:
    """The entry list of a sanctioned tournament (§ 403B5c, § 403B6c): at least 5 clubs represented and at
    most half the participants from one club, unless the club refused no entries from other clubs. A
    dispensation from c (§ 403B5e, SP only) waives it.

    ``players`` has one item per participant: the member (their home club counts) or ``None`` for a guest
    or a player left to the office, who counts among the participants but represents no known club.
    """
    if no_outside_entries_refused or "c" in sanction.dispensations:
        return []
    total = len(players)
    home = dict(
        ClubMembership.objects.filter(player__in=[p for p in players if p is not None], is_home=True).values_list(
            "player_id", "club_id"
        )
    )
    per_club = Counter(home[p.pk] for p in players if p is not None and p.pk in home)
    issues = []
    rule = "§ 403B5c" if sanction.category == "SP" else "§ 403B6c"
    if len(per_club) < MIN_CLUBS:
        issues.append(CheckIssue("SANCTION_FEW_CLUBS", params={"clubs": len(per_club), "rule": rule}))
    if per_club:
        club_id, count = per_club.most_common(1)[0]
        if count * 2 > total:
            club = Club.objects.get(pk=club_id)
            issues.append(
                CheckIssue(
                    "SANCTION_ONE_CLUB_MAJORITY", params={"club": club, "count": count, "total": total, "rule": rule}
                )
            )
    return issues
