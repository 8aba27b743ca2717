"""The players' monthly statement and the notice preference.

A player with a login and an e-mail address who opted in gets, for each calendar month in which points were
registered for them, one mail: the points registered that month (registered = the ledger row's
``created_at`` local date, the day § 404A counts a title from, D-Q21: ``masterpoints.standings.sums``), the
title or category held and what is still missing for the next one (``masterpoints.standings.titles
.title_status``, as the player page shows it), and a one-click unsubscribe link.

Exactly once per player and month: the statement's :class:`MonthlyStatement` row (unique per player and
month) and its mail in the outbox are written in one transaction. A second run finds the row and skips the
player; a run killed midway has committed each player before it, and the next run writes the rest. The
outbox sends each written mail after commit and retries until the mail server takes it.

The statement of a month is sent once the month is over (the job runs on the first days of the next month:
``config/settings.py``); a month without registered points sends nothing (our choice: no empty mails).
"""

from __future__ import annotations

import datetime
from collections import Counter
from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.db import IntegrityError, transaction
from django.db.models import Q, Sum
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from federation import outbox
from federation.mail import player_language
from federation.models import Player
from federation.refusals import refusals
from federation.schemes import decimals_of
from federation.services import audit_record
from masterpoints.engine.common import format_units
from masterpoints.models import Award, MonthlyStatement, NoticePreference, Standing
from masterpoints.standings.titles import TitleStatus, title_status

_UNSUBSCRIBE_SALT = "masterpoints.notices.unsubscribe"

REFUSALS = {
    "MONTH_NOT_OVER": _("The statement of %(month)s is sent once the month is over, from %(next)s on."),
    "UNSUBSCRIBE_INVALID": _(
        "This unsubscribe link is not valid: it was changed or cut short. Use the link in the mail as it is, "
        "or log in and change it on My page."
    ),
}

refusal = refusals(REFUSALS)


# --- the unsubscribe link --------------------------------------------------------------------------------


def unsubscribe_token(player: Player) -> str:
    """The signed token of the player's unsubscribe link; it never expires (an old mail's link still works)."""
    return signing.dumps({"p": player.pk}, salt=_UNSUBSCRIBE_SALT)


def player_for_unsubscribe(token: str) -> Player:
    """The player an unsubscribe token names; refused when the signature does not hold."""
    try:
        data = signing.loads(token, salt=_UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        raise refusal("UNSUBSCRIBE_INVALID") from None
    player = Player.objects.filter(pk=data.get("p")).first() if isinstance(data, dict) else None
    if player is None:
        raise refusal("UNSUBSCRIBE_INVALID")
    return player


@transaction.atomic
def notice_preference_set(*, actor, player: Player, monthly_statement: bool) -> NoticePreference:
    """Opt into or out of the monthly statement, with an audit row (``actor`` ``None``: by the mail's link)."""
    preference, _created = NoticePreference.objects.update_or_create(
        player=player, defaults={"monthly_statement": monthly_statement}
    )
    audit_record(
        actor=actor, action="notices.preference", target=player, payload={"monthly_statement": monthly_statement}
    )
    return preference


# --- one player's statement ------------------------------------------------------------------------------


def previous_month(today: datetime.date) -> datetime.date:
    return (today.replace(day=1) - datetime.timedelta(days=1)).replace(day=1)


def _next_month(month: datetime.date) -> datetime.date:
    return (month + datetime.timedelta(days=32)).replace(day=1)


def _local_midnight(day: datetime.date) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time.min))


@dataclass
class Statement:
    player: Player
    month: datetime.date
    #: (kind, units registered in the month) for each of the scheme's kinds.
    units: list[tuple[str, int]]
    status: TitleStatus

    @property
    def amounts(self) -> list[tuple[str, str]]:
        """The month's points as amounts with a decimal point (``"30.7"``), the kinds with none left out."""
        return [(kind, format_units(units, decimals_of(kind))) for kind, units in self.units if units]


def statement_of(player: Player, month: datetime.date) -> Statement:
    """What ``player``'s statement of ``month`` says: the points whose ledger rows were registered in the month
    (``created_at`` in the site's time zone, as the titles count: D-Q21), reversals included, per kind."""
    kinds = player.federation.scheme_info.kinds
    rows = Award.objects.filter(
        player=player,
        created_at__gte=_local_midnight(month),
        created_at__lt=_local_midnight(_next_month(month)),
    )
    sums = rows.aggregate(**{kind: Sum("units", filter=Q(kind=kind)) for kind in kinds})
    standing = Standing.objects.filter(player=player).first()
    return Statement(player, month, [(kind, sums[kind] or 0) for kind in kinds], title_status(player, standing))


def _address(player: Player) -> str:
    return player.email or (player.user.email if player.user_id else "")


def _write_mail(statement: Statement, *, address: str, site: str) -> None:
    player = statement.player
    unsubscribe = site + reverse("notices:unsubscribe", args=[unsubscribe_token(player)])
    context = {
        "player": player,
        "month": statement.month,
        "amounts": statement.amounts,
        "status": statement.status,
        "player_url": site + reverse("public:player", args=[player.federation.code, player.number]),
        "unsubscribe_url": unsubscribe,
    }
    with translation.override(player_language(player)):
        subject = " ".join(render_to_string("emails/monthly_statement_subject.txt", context).split())
        text = render_to_string("emails/monthly_statement.txt", context)
        html = render_to_string("emails/monthly_statement.html", context)
    # RFC 8058: a mail program's one-click unsubscribe POSTs "List-Unsubscribe=One-Click" to this address.
    headers = {"List-Unsubscribe": f"<{unsubscribe}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
    outbox.enqueue_mail(subject=subject, body=text, html=html, to=[address], headers=headers)


def monthly_statement_player(*, player: Player, month: datetime.date, site: str) -> str:
    """Write ``player``'s statement of ``month`` once: ``sent`` (row and outbox mail committed together),
    ``already_sent`` (a row exists, also when another run just wrote it), ``nothing`` (no points registered
    in the month) or ``no_address``."""
    address = _address(player)
    if not address:
        return "no_address"
    with transaction.atomic():
        if MonthlyStatement.objects.filter(player=player, month=month).exists():
            return "already_sent"
        statement = statement_of(player, month)
        if not statement.amounts:
            return "nothing"
        try:
            with transaction.atomic():
                MonthlyStatement.objects.create(
                    federation_id=player.federation_id,
                    player=player,
                    month=month,
                    recipient=address,
                    points=dict(statement.units),
                )
        except IntegrityError:  # a run beside this one wrote it first
            return "already_sent"
        _write_mail(statement, address=address, site=site)
    return "sent"


# --- the monthly run -------------------------------------------------------------------------------------


def statement_recipients(federation=None):
    """Players with an active login who opted in and have an address (theirs or their login's), by id;
    ``federation``: only its players."""
    players = (
        Player.objects.filter(user__isnull=False, user__is_active=True, notice_preference__monthly_statement=True)
        .filter(~Q(email="") | ~Q(user__email=""))
        .select_related("federation", "user")
        .order_by("pk")
    )
    return players if federation is None else players.filter(federation=federation)


def monthly_statement_run(
    *,
    month: datetime.date | None = None,
    today: datetime.date | None = None,
    site: str | None = None,
    federation=None,
    progress=None,
) -> dict[str, int]:
    """Every opted-in player's statement of ``month`` (default: the month before ``today``), each once;
    refused for a month not yet over. ``federation``: only its players; ``progress(done, total)`` is called
    after each player's transaction (the job record's progress). Returns how many players had each outcome."""
    today = today or timezone.localdate()
    month = (month or previous_month(today)).replace(day=1)
    if _next_month(month) > today:
        raise refusal("MONTH_NOT_OVER", month=f"{month:%Y-%m}", next=_next_month(month))
    site = (site or settings.SITE_URL).rstrip("/")
    counts: Counter[str] = Counter()
    recipients = list(statement_recipients(federation))
    for done, player in enumerate(recipients, start=1):
        counts[monthly_statement_player(player=player, month=month, site=site)] += 1
        if progress is not None:
            progress(done, len(recipients))
    return dict(counts)
