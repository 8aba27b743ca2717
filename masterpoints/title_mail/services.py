"""The monthly title e-mail to the clubs (DBf § 451B; HBS categories, H-2).

"Hver måned fra september til april sender sekretariatet en mail til klubberne, hvorpå medlemmer, der har
fået registreret tilstrækkeligt mange MP til at opnå en højere titel, fremgår" (§ 451B). Each club gets,
in its own language, the members (home club) who reached a higher title (DBf) or category (HBS) since the
last mailing, plus the members close to their next one.

Exactly once. Every achievement is announced in one sent mail, even when a run is repeated or dies:

1. A club's mail is a :class:`~masterpoints.models.TitleMailing` row per (club, month), claimed with
   ``SELECT … FOR UPDATE SKIP LOCKED``: a second process running at the same time skips the club.
2. Inside that one transaction the club's unannounced achievements are locked, the mail is sent (retried
   with back-off on :class:`smtplib.SMTPException`), and only when the SMTP server accepted it are the
   achievements marked announced and the row marked sent, with an audit row. Then it commits.
3. A process that dies before the commit (between clubs or in the middle of one) leaves no trace: the
   transaction rolls back, the locks go, and the next run sends that club's mail. A club already sent is
   skipped. A send that keeps failing is recorded (status ``failed``, the error) and retried next run;
   the command's exit status and the admin report it.

The one window no database can close is between the SMTP server's "250 OK" and the commit: a death
exactly there sends that club's mail again next run. The mail then carries the same ``Message-ID``
(stable per club and month), so the duplicate is recognisable.
"""

from __future__ import annotations

import datetime
import logging
import smtplib
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, ClubMembership
from federation.mail import club_language
from federation.models import Federation
from federation.refusals import refusals
from federation.rulesets import rules_or_built_in
from federation.schemes import scheme_of
from federation.services import audit_record
from masterpoints.models import Standing, TitleAchievement, TitleMailing
from masterpoints.public.titles import rung_etui, title_label, title_status
from masterpoints.standings.ladders import LadderBook

logger = logging.getLogger(__name__)


REFUSALS = {
    "MONTH_FORMAT": _("Give the month as YYYY-MM, not %(value)s."),
    "MONTH_NOT_MAILED": _("§ 451B: the title e-mail goes out each month from September to April, not in %(month)s."),
    "MONTH_IN_FUTURE": _("%(month)s has not begun yet: a month's title e-mail goes out on or after its first day."),
    "NO_CLUB_ADDRESS": _("%(club)s has no e-mail address; add one and run again (its members stay pending)."),
    "SMTP_FAILED": _("The mail server refused the mail %(attempts)s times: %(error)s"),
}


refusal = refusals(REFUSALS)


# --- months ---------------------------------------------------------------------------------------------


def month_parse(text: str) -> datetime.date:
    """``"2025-10"`` → 1 October 2025; a refusal naming the value otherwise."""
    try:
        year, month = text.split("-")
        return datetime.date(int(year), int(month), 1)
    except (ValueError, AttributeError):
        raise refusal("MONTH_FORMAT", value=text) from None


def month_check(*, scheme, month: datetime.date, today: datetime.date, rules=None) -> None:
    """§ 451B: a mailing month is one of the rule set's ``title_mail_months`` (September–April) and has begun.

    ``scheme`` is a federation or a scheme code; ``rules`` the rule set to read (default: the built-in one)."""
    label = month.strftime("%Y-%m")
    if month.month not in (rules or scheme_of(scheme).current_rules).title_mail_months:
        raise refusal("MONTH_NOT_MAILED", month=label)
    if month > today:
        raise refusal("MONTH_IN_FUTURE", month=label)


# --- what a club's mail says ------------------------------------------------------------------------------


@dataclass
class Announcement:
    """A member's new title: the highest unannounced rung, standing for every rung reached since (``ids``),
    the day it was reached (§ 404A "efter registrering", D-Q21) and what the club hands over for it (§ 404A
    "Modtager", § 451B "Systemkortetui overrækkes i klubben", D-Q22: the etui of that highest rung)."""

    player: object
    title: str
    reached_on: datetime.date
    ids: list[int]
    etui: str = ""


@dataclass
class CloseMember:
    player: object
    title: str
    next_title: str
    missing: list[tuple[str, str]]


@dataclass
class ClubLetter:
    club: Club
    announcements: list[Announcement]
    close: list[CloseMember]

    @property
    def achievement_ids(self) -> list[int]:
        return sorted(pk for item in self.announcements for pk in item.ids)


def _home_members(club: Club):
    return ClubMembership.objects.filter(club=club, is_home=True).values("player_id")


def _pending(club: Club, *, lock: bool):
    """The club's home members' unannounced achievements (locked, when sending)."""
    queryset = TitleAchievement.objects.filter(
        federation_id=club.federation_id, announced_at__isnull=True, player_id__in=_home_members(club)
    ).order_by("player_id", "rung")
    if lock:
        queryset = queryset.select_for_update(of=("self",))
    return list(queryset.select_related("player"))


def _announcements(club: Club, achievements) -> list[Announcement]:
    book = LadderBook(club.federation)
    by_player: dict[int, list[TitleAchievement]] = defaultdict(list)
    for achievement in achievements:
        by_player[achievement.player_id].append(achievement)
    items = []
    for rows in by_player.values():
        top = max(rows, key=lambda row: row.rung)
        label = title_label(top.title, top.stars)
        etui = rung_etui(book, top.rung, top.reached_on)
        items.append(Announcement(top.player, label, top.reached_on, [r.pk for r in rows], etui))
    return sorted(items, key=lambda item: (item.player.last_name, item.player.first_name, item.player.number))


def close_members(club: Club, *, exclude: set[int] = frozenset()) -> list[CloseMember]:
    """Home members with at least ``TITLE_MAIL_CLOSE_PERCENT`` % of every amount the next rung needs (our
    choice: the rules name only those who reached a title).

    DBf: the next § 404A title's total T (in hundredths of MP); HBS: each minimum of the next row (H-2).
    """
    percent = Fraction(settings.TITLE_MAIL_CLOSE_PERCENT, 100)
    federation = club.federation
    book = LadderBook(federation)
    standings = Standing.objects.filter(federation=federation, player_id__in=_home_members(club)).select_related(
        "player__federation"
    )
    close = []
    for standing in standings:
        if standing.player_id in exclude:
            continue
        ladder = book.on(standing.last_award_on)
        following = ladder.rung_of(standing.title_rung + 1)
        if following is None:
            continue
        if federation.scheme_info.has_mp_total:
            need = [(standing.mp, Fraction(ladder.rules.titles[following.rung - 1].total) * 100)]
        else:
            _name, *minimums = ladder.rules.category_minimums()[following.rung - 1]
            need = list(zip((standing.black, standing.red, standing.master), minimums, strict=True))
        if all(have >= percent * minimum for have, minimum in need) and any(m > 0 for _h, m in need):
            status = title_status(standing.player, standing, book=book)
            if status.next is None:
                continue
            missing = [(kind, amount) for kind, amount in status.next.missing if amount not in (None, "0")]
            close.append(CloseMember(standing.player, status.title, status.next.title, missing))
    return sorted(close, key=lambda item: (item.player.last_name, item.player.first_name, item.player.number))


def club_letter(club: Club, *, lock: bool = False) -> ClubLetter:
    announcements = _announcements(club, _pending(club, lock=lock))
    close = close_members(club, exclude={item.player.pk for item in announcements})
    return ClubLetter(club, announcements, close)


def _message(letter: ClubLetter, month: datetime.date) -> EmailMultiAlternatives:
    club = letter.club
    context = {
        "club": club,
        "month": month,
        "announcements": letter.announcements,
        "etuis": any(item.etui for item in letter.announcements),
        "close": letter.close,
        "scheme": club.federation.scheme_info,
    }
    with translation.override(club_language(club)):
        subject = " ".join(render_to_string("emails/title_mail_subject.txt", context).split())
        text = render_to_string("emails/title_mail.txt", context)
        html = render_to_string("emails/title_mail.html", context)
    domain = settings.DEFAULT_FROM_EMAIL.rpartition("@")[2] or "localhost"
    # Stable per club and month (not make_msgid's random one): a resend after a crash is recognisable.
    message_id = f"<titles.{club.federation.code}.{club.number}.{month:%Y%m}@{domain}>"
    message = EmailMultiAlternatives(
        subject, text, settings.DEFAULT_FROM_EMAIL, [club.email], headers={"Message-ID": message_id}
    )
    message.attach_alternative(html, "text/html")
    return message


def _send(message: EmailMultiAlternatives) -> tuple[int, str]:
    """Send with retries and back-off on SMTP errors: (attempts used, last error or "")."""
    delays = tuple(settings.TITLE_MAIL_RETRY_DELAYS)
    error = ""
    for attempt in range(1, len(delays) + 2):
        try:
            message.connection = get_connection(fail_silently=False)
            message.send(fail_silently=False)
            return attempt, ""
        except (smtplib.SMTPException, OSError) as exc:
            error = f"{type(exc).__name__}: {exc}"
            logger.warning("title e-mail to %s failed (attempt %s): %s", message.to, attempt, error)
            if attempt <= len(delays):
                time.sleep(delays[attempt - 1])
    return len(delays) + 1, error


# --- the services -----------------------------------------------------------------------------------------


@dataclass
class ClubOutcome:
    club: Club
    result: str  # sent, already_sent, busy, nothing, failed, dry_run
    announced: int = 0
    close: int = 0
    error: str = ""


def title_mail_club(*, club: Club, month: datetime.date, actor=None) -> ClubOutcome:
    """Send ``club``'s title e-mail of ``month`` once (§ 451B); see the module docstring for exactly-once.

    Returns what happened: ``sent``, ``already_sent``, ``busy`` (another process holds it), ``nothing``
    (no new title), or ``failed`` (recorded on the mailing with the error, retried next run).
    """
    with transaction.atomic():
        mailing, _created = TitleMailing.objects.get_or_create(
            club=club, month=month, defaults={"federation_id": club.federation_id}
        )
    with transaction.atomic():
        locked = TitleMailing.objects.select_for_update(skip_locked=True).filter(pk=mailing.pk).first()
        if locked is None:
            return ClubOutcome(club, "busy")
        if locked.status == TitleMailing.Status.SENT:
            return ClubOutcome(club, "already_sent", announced=len(locked.achievement_ids))
        letter = club_letter(club, lock=True)
        ids = letter.achievement_ids
        if not ids:
            if locked.status == TitleMailing.Status.PENDING and locked.attempts == 0:
                locked.delete()
            return ClubOutcome(club, "nothing")
        if not club.email:
            error = str(refusal("NO_CLUB_ADDRESS", club=str(club)).messages[0])
            return _failed(locked, attempts=0, error=error, ids=ids, actor=actor)
        message = _message(letter, month)
        attempts, error = _send(message)
        if error:
            error = str(refusal("SMTP_FAILED", attempts=attempts, error=error).messages[0])
            return _failed(locked, attempts=attempts, error=error, ids=ids, actor=actor)
        now = timezone.now()
        TitleAchievement.objects.filter(pk__in=ids, announced_at__isnull=True).update(announced_at=now)
        locked.status = TitleMailing.Status.SENT
        locked.attempts += attempts
        locked.sent_at = now
        locked.achievement_ids = ids
        locked.close_count = len(letter.close)
        locked.recipients = club.email
        locked.message_id = message.extra_headers["Message-ID"]
        locked.last_error = ""
        locked.save()
        audit_record(
            actor=actor,
            action="title_mail.sent",
            target=locked,
            payload={"achievements": ids, "close": len(letter.close), "attempts": attempts},
        )
        return ClubOutcome(club, "sent", announced=len(letter.announcements), close=len(letter.close))


def _failed(locked: TitleMailing, *, attempts: int, error: str, ids: list[int], actor) -> ClubOutcome:
    locked.status = TitleMailing.Status.FAILED
    locked.attempts += attempts
    locked.last_error = error
    locked.save()
    audit_record(actor=actor, action="title_mail.failed", target=locked, payload={"achievements": ids, "error": error})
    logger.error("title e-mail of %s for %s failed: %s", locked.club, locked.month, error)
    return ClubOutcome(locked.club, "failed", error=error)


@dataclass
class RunReport:
    month: datetime.date
    outcomes: list[ClubOutcome] = field(default_factory=list)
    #: Achievements of players with no home club: no club to tell (they stay pending).
    homeless: int = 0

    @property
    def failed(self) -> list[ClubOutcome]:
        return [outcome for outcome in self.outcomes if outcome.result == "failed"]


def clubs_to_mail(federation: Federation) -> list[Club]:
    """Active clubs whose home members have an unannounced achievement, by club number."""
    players = TitleAchievement.objects.filter(federation=federation, announced_at__isnull=True).values("player_id")
    clubs = ClubMembership.objects.filter(is_home=True, player_id__in=players, club__active=True).values("club_id")
    return list(Club.objects.filter(federation=federation, pk__in=clubs).order_by("number"))


def title_mail_run(
    *,
    month: datetime.date,
    today: datetime.date | None = None,
    federations=None,
    dry_run: bool = False,
    actor=None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, RunReport]:
    """Every club's title e-mail of ``month``, per federation (§ 451B); refused outside September–April.

    ``dry_run`` sends and writes nothing: each club's outcome is ``dry_run`` with what it would announce.
    ``progress(done, total)`` is called before each club and after the last one, between the clubs' own
    transactions (the job record's progress, :mod:`masterpoints.title_mail.jobs`).
    """
    today = today or timezone.localdate()
    federations = list(federations if federations is not None else Federation.objects.order_by("pk"))
    for federation in federations:
        month_check(scheme=federation, month=month, today=today, rules=rules_or_built_in(federation, month))
    reports = {}
    for federation in federations:
        report = RunReport(month)
        pending_players = TitleAchievement.objects.filter(federation=federation, announced_at__isnull=True)
        report.homeless = pending_players.exclude(
            player_id__in=ClubMembership.objects.filter(is_home=True).values("player_id")
        ).count()
        clubs = clubs_to_mail(federation)
        for done, club in enumerate(clubs):
            if progress is not None:
                progress(done, len(clubs))
            if dry_run:
                letter = club_letter(club)
                report.outcomes.append(ClubOutcome(club, "dry_run", len(letter.announcements), len(letter.close)))
            else:
                report.outcomes.append(title_mail_club(club=club, month=month, actor=actor))
        if progress is not None:
            progress(len(clubs), len(clubs))
        reports[federation.code] = report
    return reports
