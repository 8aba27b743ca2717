"""The monthly title e-mail to the clubs (DBf § 451B; HBS categories, H-2).

"Hver måned fra september til april sender sekretariatet en mail til klubberne, hvorpå medlemmer, der har
fået registreret tilstrækkeligt mange MP til at opnå en højere titel, fremgår" (§ 451B). Each club gets,
in its own language, the members (home club) who reached a higher title (DBf) or category (HBS) since the
last mailing, plus the members close to their next one.

Exactly once. Every achievement is announced in one sent mail, even when a run is repeated or dies:

1. A club's mail is a :class:`~masterpoints.models.TitleMailing` row per (club, month), claimed with
   ``SELECT … FOR UPDATE SKIP LOCKED``: a second process running at the same time skips the club.
2. Inside that one transaction the club's unannounced achievements are locked, the mail is rendered and
   written to the outbox (:func:`federation.outbox.enqueue_mail`), and the mailing records what it
   announces (``pending``, with its ``achievement_ids``: queued). Then it commits. No mail is sent inside
   the run, so an SMTP outage costs the run nothing (retries inside it would hold it up at every club).
3. The outbox's drain sends it after commit and retries a failure with back-off (a minute, doubled up to an
   hour, for about three days). After each attempt it tells :func:`title_mail_settled`, in the transaction
   that records the attempt: once sent, the achievements are marked announced and the mailing sent (audited);
   after the last failed attempt the mailing is failed, with the error, and the next run writes it again.
4. Achievements in a queued mailing are not put in another club's or month's mail; a run repeated while a
   mail waits in the outbox finds the club ``already_queued``. A process that dies before a club's commit
   leaves no trace: the transaction rolls back, and the next run writes that club's mail.

The one window no database can close is between the SMTP server's "250 OK" and the drain's record of it: a
death exactly there sends that club's mail again (the outbox's lease). The mail then carries the same
``Message-ID`` (stable per club and month), so the duplicate is recognisable.
"""

from __future__ import annotations

import datetime
import logging
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from django.conf import settings
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.dates import MONTHS
from django.utils.formats import date_format
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, ClubMembership
from federation.jobs import job_count
from federation.mail import club_language
from federation.models import Federation, JobRun
from federation.outbox import enqueue_mail
from federation.refusals import refusals
from federation.rulesets import rules_or_built_in
from federation.schemes import scheme_of
from federation.services import audit_record
from masterpoints.models import Standing, TitleAchievement, TitleMailing
from masterpoints.standings.ladders import LadderBook
from masterpoints.standings.titles import rung_etui, title_label, title_status

logger = logging.getLogger(__name__)


REFUSALS = {
    "MONTH_FORMAT": _("Give the month as YYYY-MM, not %(value)s."),
    "MONTH_NOT_MAILED": _(
        "The rule set in force mails new titles in %(months)s only (title_mail_months, § 451B), not in %(month)s."
    ),
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
    """§ 451B: a mailing month is one of the rule set's ``title_mail_months`` (DBf September–April) and has
    begun; a refusal names the rule set's months in the reader's language.

    ``scheme`` is a federation or a scheme code; ``rules`` the rule set to read (default: the built-in one)."""
    label = month.strftime("%Y-%m")
    months = (rules or scheme_of(scheme).current_rules).title_mail_months
    if month.month not in months:
        named = format_lazy(", ".join(["{}"] * len(months)), *(MONTHS[number] for number in months))
        raise refusal("MONTH_NOT_MAILED", month=label, months=named)
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
    #: ``(kind, amount, reaches)``: ``reaches`` names a higher title the amount reaches first.
    missing: list[tuple[str, str, str]]


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


def _queued(federation_id: int) -> set[int]:
    """The achievements of the federation's mailings queued in the outbox: that mail announces them."""
    mailings = TitleMailing.objects.filter(federation_id=federation_id, status=TitleMailing.Status.PENDING)
    return {pk for ids in mailings.values_list("achievement_ids", flat=True) for pk in ids}


def _unannounced(federation_id: int):
    """The federation's achievements no sent or queued mail announces."""
    return TitleAchievement.objects.filter(federation_id=federation_id, announced_at__isnull=True).exclude(
        pk__in=_queued(federation_id)
    )


def _pending(club: Club, *, lock: bool):
    """The club's home members' achievements no mail announces yet (locked, when queueing)."""
    queryset = _unannounced(club.federation_id).filter(player_id__in=_home_members(club)).order_by("player_id", "rung")
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
    info = federation.scheme_info
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
        balances = tuple(standing.points(kind) for kind in info.kinds)
        need = ladder.measures(following.rung, balances)
        if all(have >= percent * minimum for have, minimum in need) and any(m > 0 for _h, m in need):
            status = title_status(standing.player, standing, book=book)
            if status.next is None:
                continue
            missing = [row for row in status.next.rows if row[1] not in (None, "0")]
            close.append(CloseMember(standing.player, status.title, status.next.title, missing))
    return sorted(close, key=lambda item: (item.player.last_name, item.player.first_name, item.player.number))


def club_letter(club: Club, *, lock: bool = False) -> ClubLetter:
    announcements = _announcements(club, _pending(club, lock=lock))
    close = close_members(club, exclude={item.player.pk for item in announcements})
    return ClubLetter(club, announcements, close)


def _message(letter: ClubLetter, month: datetime.date) -> dict:
    """The club's mail in its own language, as :func:`~federation.outbox.enqueue_mail` takes it."""
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
        subject = str(context["scheme"].rung_mail_subject) % {"month": date_format(month, "F Y"), "club": club.name}
        text = render_to_string("emails/title_mail.txt", context)
        html = render_to_string("emails/title_mail.html", context)
    domain = settings.DEFAULT_FROM_EMAIL.rpartition("@")[2] or "localhost"
    # Stable per club and month (not make_msgid's random one): a resend after a crash is recognisable.
    message_id = f"<titles.{club.federation.code}.{club.number}.{month:%Y%m}@{domain}>"
    return {"subject": subject, "body": text, "html": html, "to": [club.email], "headers": {"Message-ID": message_id}}


# --- the services -----------------------------------------------------------------------------------------


@dataclass
class ClubOutcome:
    club: Club
    result: str  # queued, already_queued, already_sent, busy, nothing, failed, dry_run
    announced: int = 0
    close: int = 0
    error: str = ""


#: The function the outbox tells how each attempt at a club's mail ended.
SETTLED = "masterpoints.title_mail.services.title_mail_settled"


def title_mail_club(*, club: Club, month: datetime.date, actor=None, job: JobRun | None = None) -> ClubOutcome:
    """Queue ``club``'s title e-mail of ``month`` once (§ 451B); see the module docstring for exactly-once.

    Returns what happened: ``queued`` (written to the outbox), ``already_queued`` (waiting there),
    ``already_sent``, ``busy`` (another process holds it), ``nothing`` (no new title), or ``failed`` (no
    address: recorded on the mailing, written by the next run). ``job``: its figures count the outcome, in
    the club's transaction, and the outbox's drain counts the mail sent or failed into them later.
    """
    with transaction.atomic():
        mailing, _created = TitleMailing.objects.get_or_create(
            club=club, month=month, defaults={"federation_id": club.federation_id}
        )
    with transaction.atomic():
        outcome = _club_outcome(mailing, club, month, actor, job)
        if job is not None:
            job_count(job.pk, **{outcome.result: 1})
        return outcome


def _club_outcome(mailing: TitleMailing, club: Club, month: datetime.date, actor, job: JobRun | None) -> ClubOutcome:
    locked = TitleMailing.objects.select_for_update(skip_locked=True).filter(pk=mailing.pk).first()
    if locked is None:
        return ClubOutcome(club, "busy")
    if locked.status == TitleMailing.Status.SENT:
        return ClubOutcome(club, "already_sent", announced=len(locked.achievement_ids))
    if locked.is_queued:
        return ClubOutcome(club, "already_queued", announced=len(locked.achievement_ids))
    letter = club_letter(club, lock=True)
    ids = letter.achievement_ids
    if not ids:
        if locked.status == TitleMailing.Status.PENDING and locked.attempts == 0:
            locked.delete()
        return ClubOutcome(club, "nothing")
    if not club.email:
        error = str(refusal("NO_CLUB_ADDRESS", club=str(club)).messages[0])
        locked.status = TitleMailing.Status.FAILED
        locked.last_error = error
        locked.save()
        payload = {"achievements": ids, "error": error}
        audit_record(actor=actor, action="title_mail.failed", target=locked, payload=payload)
        logger.error("title e-mail of %s for %s not queued: %s", club, month, error)
        return ClubOutcome(club, "failed", error=error)
    message = _message(letter, month)
    enqueue_mail(**message, settled=SETTLED, ref={"mailing": locked.pk, "job": job.pk if job is not None else None})
    locked.status = TitleMailing.Status.PENDING
    locked.achievement_ids = ids
    locked.close_count = len(letter.close)
    locked.recipients = club.email
    locked.message_id = message["headers"]["Message-ID"]
    locked.last_error = ""
    locked.save()
    payload = {"achievements": ids, "close": len(letter.close)}
    audit_record(actor=actor, action="title_mail.queued", target=locked, payload=payload)
    return ClubOutcome(club, "queued", announced=len(letter.announcements), close=len(letter.close))


def title_mail_settled(*, ref: dict, error: str | None, attempts: int, final: bool) -> None:
    """The outbox's word on one attempt at a club's queued title e-mail (§ 451B), in the transaction that
    records the attempt: sent, the mailing's achievements are announced and the mailing is sent (audited);
    failed, the attempt and its error are shown on the mailing; failed for the last time, the mailing is
    failed (audited, logged as an error), and its achievements go into the next run's mail. The job that
    queued it (``ref["job"]``) counts the mail sent or failed."""
    mailing = TitleMailing.objects.select_for_update().filter(pk=ref["mailing"]).first()
    if mailing is None or not mailing.is_queued:
        return
    mailing.attempts += 1
    if error is not None and not final:
        mailing.last_error = error
        mailing.save(update_fields=["attempts", "last_error", "updated_at"])
        return
    ids = mailing.achievement_ids
    if error is None:
        now = timezone.now()
        TitleAchievement.objects.filter(pk__in=ids, announced_at__isnull=True).update(announced_at=now)
        mailing.status, mailing.sent_at, mailing.last_error = TitleMailing.Status.SENT, now, ""
        counts = {"queued": -1, "sent": 1, "announced": len(ids)}
    else:
        mailing.status = TitleMailing.Status.FAILED
        mailing.last_error = str(refusal("SMTP_FAILED", attempts=attempts, error=error).messages[0])
        counts = {"queued": -1, "failed": 1}
        logger.error("title e-mail of %s for %s failed: %s", mailing.club, mailing.month, mailing.last_error)
    mailing.save()
    action = "title_mail.sent" if error is None else "title_mail.failed"
    audit_record(actor=None, action=action, target=mailing, payload={"achievements": ids, "attempts": mailing.attempts})
    if ref.get("job") is not None:
        job_count(ref["job"], **counts)


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
    """Active clubs whose home members have an achievement no sent or queued mail announces, by club number."""
    players = _unannounced(federation.pk).values("player_id")
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
    job: JobRun | None = None,
) -> dict[str, RunReport]:
    """Every club's title e-mail of ``month``, per federation (§ 451B); refused outside September–April.

    ``dry_run`` sends and writes nothing: each club's outcome is ``dry_run`` with what it would announce.
    ``progress(done, total)`` is called before each club and after the last one, between the clubs' own
    transactions (the job record's progress, :mod:`masterpoints.title_mail.jobs`); ``job`` counts each
    club's outcome (:func:`title_mail_club`).
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
                report.outcomes.append(title_mail_club(club=club, month=month, actor=actor, job=job))
        if progress is not None:
            progress(len(clubs), len(clubs))
        reports[federation.code] = report
    return reports
