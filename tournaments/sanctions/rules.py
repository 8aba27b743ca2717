"""The conditions of DBf § 403B an application for a sanction must meet when it is filed.

:func:`application_problems` names every unmet condition as a refusal of the catalogue :data:`REFUSALS`,
each citing its rule; :data:`FIELDS` says which form field a refusal belongs to. The catalogue also holds
the refusals of the district's and secretariat's steps (``tournaments.sanctions.services``), so that the
workflow has one. Reads only: nothing here writes.
"""

from __future__ import annotations

import calendar
import datetime

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from federation.models import Region
from federation.refusals import refusals
from federation.rulesets import rules_for
from federation.schemes import scheme_with
from masterpoints.engine.dbf.scale import quota_n1
from tournaments.models import Form, SanctionApplication

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
#: A jubilee is a number of years divisible by 5: "et med 5 deleligt antal år" (§ 403B4, D-Q25).
JUBILEE_EVERY = 5
#: The applications that hold a quota (§ 403B1–2) or a jubilee (§ 403B4): not refused.
LIVE = (App.Status.FILED, App.Status.RECOMMENDED, App.Status.APPROVED)

#: Every refusal reason: code → message. The message names the rule; the form shows it at ``FIELDS[code]``.
REFUSALS = {
    "NOT_DBF": _("Sanctions are a DBf rule (§ 403); this club's federation has no sanctions."),
    "NO_DISTRICT": _("The club belongs to no district, and applications are filed with the district (§ 403B7)."),
    "FILED_TOO_LATE": _(
        "An application must reach the district at least two months before the tournament (§ 403B7): for a "
        "tournament starting %(date)s the deadline was %(deadline)s. Filed today, the earliest first day is "
        "%(earliest)s."
    ),
    "ENTRY_DEADLINE_AFTER_START": _("The entry deadline must not lie after the tournament's first day."),
    "END_BEFORE_START": _(
        "The last day, %(end)s, lies before the first day, %(date)s: a tournament ends on or after the day it "
        "starts (§ 403B7: the application names the tournament's days)."
    ),
    "PLAYING_TIME_REQUIRED": _(
        "Name the club's playing time whose annual tournament this is: the quota is one full and one half "
        "tournament per playing time per year (§ 403B1–2)."
    ),
    "QUOTA_USED": _(
        "%(playing_time)s already has its tournament with %(quota)s MP in %(year)s (%(other)s): one per "
        "playing time per year (%(rule)s). Left for this playing time in %(year)s: %(left)s."
    ),
    "EXTRA_SP_ONLY": _("Only SP can be sanctioned beyond the playing times' quota (§ 403B3)."),
    "JUBILEE_GP_ONLY": _("The jubilee sanction is for GP (§ 403B4)."),
    "FOUNDING_YEAR_UNKNOWN": _(
        "%(club)s has no founding year on record, so its jubilee years are not known (§ 403B4): ask DBf's "
        "secretariat to record the year the club was founded."
    ),
    "NOT_JUBILEE_YEAR": _(
        "%(year)s is not a jubilee year of %(club)s: founded in %(founded)s, it is %(age)s years old in %(year)s, "
        "and a jubilee is a number of years divisible by 5 (§ 403B4). Jubilee years near it: %(qualifying)s."
    ),
    "JUBILEE_USED": _(
        "The club already has %(count)s jubilee GP tournaments in %(year)s (%(others)s): at most %(limit)s a year "
        "(§ 403B4), so none is left in %(year)s."
    ),
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
        "%(boards)s boards do not pay %(category)s: at least %(need)s boards are needed (%(board_rule)s), and a "
        "sanctioned form must pay (%(rule)s)."
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
    "END_BEFORE_START": "end_date",
    "PLAYING_TIME_REQUIRED": "playing_time",
    "QUOTA_USED": "quota",
    "EXTRA_SP_ONLY": "basis",
    "JUBILEE_GP_ONLY": "basis",
    "FOUNDING_YEAR_UNKNOWN": "basis",
    "NOT_JUBILEE_YEAR": "date",
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


# --- dates and places -------------------------------------------------------------------------------------


def add_months(day: datetime.date, months: int) -> datetime.date:
    """The same day ``months`` later, or the month's last day when it is shorter (31 Dec + 2 → 28/29 Feb):
    how "two months before the tournament" is counted (§ 403B7)."""
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    return day.replace(year=year, month=month, day=min(day.day, calendar.monthrange(year, month)[1]))


def season_of(day: datetime.date) -> tuple[datetime.date, datetime.date]:
    """First and last day (both inclusive) of the season containing ``day``, in the seasons of the rule book
    that has sanctions: DBf's 16 May – 15 May (§ 451C), the season a top-16 is counted in (§ 403A2)."""
    info = scheme_with("sanctions")
    return info.season_dates(info.season_of(day))


def club_district(club: Club) -> Region | None:
    """The district the club's applications are filed with (§ 403B7): its first district, or ``None``."""
    return club.regions.filter(kind=Region.Kind.DISTRICT).order_by("pk").first()


# --- the conditions of § 403B -----------------------------------------------------------------------------


def application_problems(application: SanctionApplication, *, today: datetime.date) -> list[ValidationError]:
    """Every condition of § 403B1–7 the (unsaved) application does not meet, as refusals citing their rule;
    an empty list when it meets them all.

    Checked: filed two months ahead (§ 403B7), the entry deadline, the quota or basis (§ 403B1–4), the
    dispensations asked for (§ 403B5e, § 403B6e), open and advertised (b), national for GP (§ 403B6b) and
    the boards (d). Dispensations asked for (SP only) waive b and d here; c (the entry list) is checked
    after the tournament unless dispensed (``selectors.sanction_check_after``).
    """
    app = application
    sp = app.category == "SP"
    dispensed = set(app.dispensations) if sp else set()
    rule = "§ 403B5" if sp else "§ 403B6"
    problems = _date_problems(app, today)
    problems += _basis_problems(app)
    problems += _dispensation_problems(app)
    if "b" not in dispensed:
        problems += _advertising_problems(app, rule)
    if not sp and not app.national:
        problems.append(refusal("NOT_NATIONAL"))
    if "d" not in dispensed and app.form != Form.TEAMS:
        # Team events pay by their own tables and match lengths (§ 411–414); the board rule is for the rest.
        problems += _board_problems(app, rule)
    return problems


def filing_deadline(first_day: datetime.date) -> datetime.date:
    """The last day an application for a tournament starting ``first_day`` may be filed (§ 403B7): the latest
    day from which two months (:func:`add_months`) still end on or before ``first_day``. Two months before
    it, moved forward over the days a shorter month clamps (30 April: 28 or 29 February). D-Q42: the refusal
    names this day as the deadline, and the earliest first day an application filed today may have."""
    deadline = add_months(first_day, -MONTHS_AHEAD)
    while add_months(deadline + datetime.timedelta(days=1), MONTHS_AHEAD) <= first_day:
        deadline += datetime.timedelta(days=1)
    return deadline


def _date_problems(app: SanctionApplication, today: datetime.date) -> list[ValidationError]:
    """Filed at least two months before the first day (§ 403B7); the entry deadline not after it; the last day
    not before the first (the constraint ``sanction_application_dates_ordered``, refused here naming both days
    instead of failing at the database). The refusal names the deadline of this tournament and the
    earliest first day an application filed today can have."""
    problems = []
    earliest = add_months(today, MONTHS_AHEAD)
    if app.date < earliest:
        problems.append(
            refusal(
                "FILED_TOO_LATE",
                date=app.date,
                deadline=filing_deadline(app.date),
                earliest=earliest,
            )
        )
    if app.entry_deadline > app.date:
        problems.append(refusal("ENTRY_DEADLINE_AFTER_START"))
    if app.end_date is not None and app.end_date < app.date:
        problems.append(refusal("END_BEFORE_START", end=app.end_date, date=app.date))
    return problems


def _dispensation_problems(app: SanctionApplication) -> list[ValidationError]:
    """Dispensations only for SP (§ 403B6e), only from b, c and d, and only with a reason (§ 403B5e)."""
    if app.dispensations and app.category != "SP":
        return [refusal("DISPENSATION_NOT_FOR_GP")]
    if set(app.dispensations) - set(DISPENSABLE):
        return [refusal("DISPENSATION_UNKNOWN")]
    if app.dispensations and not app.dispensation_reason.strip():
        return [refusal("DISPENSATION_REASON_MISSING")]
    return []


def _advertising_problems(app: SanctionApplication, rule: str) -> list[ValidationError]:
    """Condition b (§ 403B5b, § 403B6b): open to all, advertised as the category requires, at least
    14 days before the entry deadline."""
    problems = []
    if not app.open_to_all:
        problems.append(refusal("NOT_OPEN", rule=f"{rule}b"))
    if app.advertisement not in ADVERTISEMENTS[app.category]:
        problems.append(refusal("ADVERTISEMENT_NOT_ENOUGH"))
    latest_ad = app.entry_deadline - datetime.timedelta(days=ADVERTISED_DAYS)
    if app.advertised_on > latest_ad:
        problems.append(refusal("ADVERTISED_TOO_LATE", latest=latest_ad, rule=f"{rule}b"))
    return problems


def _board_problems(app: SanctionApplication, rule: str) -> list[ValidationError]:
    """Condition d (§ 403B5d, § 403B6d): the boards planned pay the category at a club (the board rule of
    § 405, by the rule set in force on the first day)."""
    try:
        rules = rules_for(app.federation, app.date)
    except LookupError:  # a date before every rule set: refused as filed too late (§ 403B7)
        return []
    n1, board_rule = quota_n1(app.category, "club", app.boards, rules)
    if n1 != 0:
        return []
    need = boards_paying(app.category, rules)
    return [
        refusal(
            "BOARDS_TOO_FEW",
            boards=app.boards,
            category=app.category,
            need=need,
            board_rule=board_rule,
            rule=f"{rule}d",
        )
    ]


def boards_paying(category: str, rules) -> int:
    """The fewest boards a club's tournament of ``category`` needs to pay anything: SP from the half quota's
    boards (§ 405B7c, 27), GP at a club from its full quota's (§ 405B7g, 54), as the rule set in force says."""
    return rules.sp_boards_half if category == "SP" else rules.gp_club_boards_full


def _basis_problems(app: SanctionApplication) -> list[ValidationError]:
    """The basis of the sanction: one full and one half tournament per playing time per year (§ 403B1–2);
    extra SP in special cases (§ 403B3); GP in a jubilee year, at most two a year (§ 403B4). The club's
    other live applications of the same calendar year count against the quotas."""
    live = App.objects.filter(club=app.club, status__in=LIVE, date__year=app.date.year).exclude(pk=app.pk or 0)
    if app.basis == App.Basis.QUOTA:
        return _quota_problems(app, live)
    if app.basis == App.Basis.EXTRA:
        return [] if app.category == "SP" else [refusal("EXTRA_SP_ONLY")]
    problems = []
    if app.category != "GP":
        problems.append(refusal("JUBILEE_GP_ONLY"))
    problems += _jubilee_year_problems(app)
    held = list(live.filter(basis=App.Basis.JUBILEE).order_by("date").values_list("name", flat=True))
    if len(held) >= JUBILEE_PER_YEAR:
        problems.append(
            refusal(
                "JUBILEE_USED",
                year=app.date.year,
                count=len(held),
                others="; ".join(held),
                limit=JUBILEE_PER_YEAR,
            )
        )
    return problems


def jubilee_age(founding_year: int, year: int) -> int | None:
    """The club's age in ``year`` when ``year`` is one of its jubilee years, else ``None``.

    D-Q25: § 403B4 grants GP "i de år, hvor klubben fejrer jubilæum (et med 5 deleligt antal år)": a year is a
    jubilee year when the years since the founding year are a positive multiple of 5 (the founding year
    itself, 0 years, is none); the year is the calendar year of the tournament's first day.
    """
    age = year - founding_year
    return age if age > 0 and age % JUBILEE_EVERY == 0 else None


def nearest_jubilee_years(founding_year: int, year: int) -> list[int]:
    """The club's jubilee years on either side of ``year``, a year that is none (§ 403B4, D-Q25): the last
    one before it, if the club had one, and the next one after it."""
    after = year + JUBILEE_EVERY - (year - founding_year) % JUBILEE_EVERY
    return [y for y in (after - JUBILEE_EVERY, after) if y - founding_year > 0]


def _jubilee_year_problems(app: SanctionApplication) -> list[ValidationError]:
    """§ 403B4 ("DBfs sekretariat kan desuden … give sanktion til uddeling af GP i turneringer i de år, hvor
    klubben fejrer jubilæum"): the year of the tournament is a jubilee year of the club (D-Q25).

    D-Q26: the jubilee is counted from the founding year the secretariat recorded (``Club.founding_year``),
    not from years the club states on the application; with none recorded the application is refused, since
    no year is known to be a jubilee.
    """
    founded, year = app.club.founding_year, app.date.year
    if founded is None:
        return [refusal("FOUNDING_YEAR_UNKNOWN", club=app.club.name)]
    if jubilee_age(founded, year) is not None:
        return []
    qualifying = ", ".join(str(y) for y in nearest_jubilee_years(founded, year))
    return [
        refusal(
            "NOT_JUBILEE_YEAR",
            year=year,
            club=app.club.name,
            founded=founded,
            age=year - founded,
            qualifying=qualifying,
        )
    ]


def _quota_problems(app: SanctionApplication, live) -> list[ValidationError]:
    """§ 403B1–2: the application names one of the club's playing times, whose full (or half) tournament of
    the year no other live application holds."""
    if app.playing_time is None or app.playing_time.club_id != app.club.pk:
        return [refusal("PLAYING_TIME_REQUIRED")]
    other = live.filter(basis=App.Basis.QUOTA, playing_time=app.playing_time, quota=app.quota).first()
    if other is None:
        return []
    full = app.quota == App.Quota.FULL
    held = set(live.filter(basis=App.Basis.QUOTA, playing_time=app.playing_time).values_list("quota", flat=True))
    left = [str(label) for value, label in App.Quota.choices if value not in held]
    return [
        refusal(
            "QUOTA_USED",
            playing_time=app.playing_time,
            quota=_("full") if full else _("half"),
            year=app.date.year,
            other=other.name,
            rule="§ 403B1" if full else "§ 403B2",
            left=", ".join(left) or _("none (only an extra SP sanction, § 403B3)"),
        )
    ]
