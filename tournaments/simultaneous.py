"""The simultaneous events DBf announced (§ 403A1 "Simultanturneringer udskrevet af DBf"): the secretariat
records them in the admin (:func:`simultaneous_event_save`, audited), and an upload offers the club those
it may claim (:func:`claimable`) and finds those that cover a day (:func:`covering`).
"""

from __future__ import annotations

import datetime

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from federation.models import Federation
from federation.refusals import refusals
from federation.services import audit_record
from office.access import is_secretariat
from tournaments.models import SimultaneousEvent

#: How many announced events the upload form offers, the newest first: DBf announces a handful a season
#: (the Klubsølv rounds, Landsdækkende Handicap, the alternative Klubsølv's window), so this covers several
#: seasons. The preview checks the tournament's own date against the event chosen (``SIMULTANEOUS_NOT_ON_DATE``).
MAX_OFFERED = 60
#: At most this many days in one announced event: the longest a DBf simultaneous window runs is the ordinary
#: season of an alternative Klubsølv (§ 453), well under a year.
MAX_DAYS = 366

REFUSALS = {
    "NOT_DBF": _("Simultaneous events with automatic SP are a DBf rule (§ 403A1); choose a DBf federation."),
    "DATES": _("The last day (%(ends_on)s) must not lie before the first day (%(starts_on)s)."),
    "TOO_LONG": _("An announced event runs at most %(limit)s days; this one runs %(days)s days (§ 403A1, § 453)."),
}

refusal = refusals(REFUSALS)


@transaction.atomic
def simultaneous_event_save(*, actor, event: SimultaneousEvent) -> SimultaneousEvent:
    """Add or change an announced event (§ 403A1): the federation's secretariat only, DBf only, the dates in
    order and at most :data:`MAX_DAYS` long."""
    if not is_secretariat(actor, event.federation):
        raise PermissionDenied(_("Only the federation's secretariat records DBf's simultaneous events."))
    if not event.federation.scheme_info.sanctions:
        raise refusal("NOT_DBF")
    if event.ends_on < event.starts_on:
        raise refusal("DATES", starts_on=event.starts_on, ends_on=event.ends_on)
    days = (event.ends_on - event.starts_on).days + 1
    if days > MAX_DAYS:
        raise refusal("TOO_LONG", limit=MAX_DAYS, days=days)
    created = event.pk is None
    event.save()
    audit_record(
        actor=actor,
        action="simultaneous.create" if created else "simultaneous.change",
        target=event,
        payload={"name": event.name, "kind": event.kind, "dates": event.dates},
    )
    return event


def claimable(federation: Federation, today: datetime.date) -> QuerySet[SimultaneousEvent]:
    """The announced events an upload may claim: the federation's :data:`MAX_OFFERED` newest begun by
    ``today`` (results are uploaded after the event)."""
    begun = SimultaneousEvent.objects.filter(federation=federation, starts_on__lte=today)
    newest = list(begun.order_by("-starts_on", "name").values_list("pk", flat=True)[:MAX_OFFERED])
    return SimultaneousEvent.objects.filter(pk__in=newest)


def covering(federation: Federation, day: datetime.date) -> list[SimultaneousEvent]:
    """The federation's announced events whose dates include ``day``."""
    return list(SimultaneousEvent.objects.filter(federation=federation, starts_on__lte=day, ends_on__gte=day))
