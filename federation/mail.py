"""E-mails to the people a decision concerns: text and HTML parts, in the recipient's language, rendered in
the deciding transaction and sent after it commits, with retries, from the outbox (design.md § Services:
side effects after commit; :mod:`federation.outbox`)."""

from __future__ import annotations

from collections.abc import Iterable

from django.template.loader import render_to_string
from django.utils import translation

from federation import outbox


def club_language(club) -> str:
    """A club's own language for e-mails, else its federation's default language."""
    return club.language or club.federation.default_language


def player_language(player) -> str:
    """A player's home club's language, else the federation's default language."""
    home = player.memberships.filter(is_home=True).select_related("club__federation").first()
    return club_language(home.club) if home else player.federation.default_language


def notify(*, template: str, to: Iterable[str], language: str, context: dict, cc: Iterable[str] = ()) -> None:
    """Send ``emails/<template>_subject.txt``, ``.txt`` and ``.html`` once the current transaction commits.

    The message is rendered now, as the deciding transaction sees its objects, and written to the outbox in
    that transaction; the outbox sends it after commit and retries until the mail server takes it, so a
    mail server outage neither fails the decision nor loses the mail. Addresses that are empty or repeated
    are dropped; with no recipient left nothing is sent.
    """
    recipients = sorted({address for address in to if address})
    copies = sorted({address for address in cc if address} - set(recipients))
    if not recipients and not copies:
        return
    with translation.override(language):
        subject = " ".join(render_to_string(f"emails/{template}_subject.txt", context).split())
        text = render_to_string(f"emails/{template}.txt", context)
        html = render_to_string(f"emails/{template}.html", context)
    outbox.enqueue_mail(subject=subject, body=text, html=html, to=recipients or copies, cc=copies if recipients else ())
