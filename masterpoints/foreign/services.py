"""Foreign MP (DBf § 401B; ``dbf.md`` § 2.16): Swedish, Norwegian, Faroese and Icelandic points are
registered by the secretariat. Faroese and Icelandic MP are posted without any conversion; Swedish and
Norwegian MP are converted by the table the secretariat keeps (:class:`~masterpoints.models.ForeignConversion`;
the rules print none) and posted once the secretariat approves. The arithmetic is the engine's
:func:`~masterpoints.engine.dbf.foreign.foreign_award`; every posting is a new ``source=foreign`` award.
"""

from __future__ import annotations

import dataclasses
import datetime
import uuid
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.models import Federation, Player
from federation.outbox import enqueue_task
from federation.refusals import refusals
from federation.rulesets import rules_for
from federation.schemes import decimals_of
from federation.services import audit_record
from masterpoints.engine.common import RequestError, format_units
from masterpoints.engine.dbf.foreign import foreign_award
from masterpoints.ledger import explanation_ref
from masterpoints.models import Award, ForeignConversion, ForeignPoints
from masterpoints.standings.tasks import standings_update_players
from office.access import is_secretariat

#: Countries whose MP are registered without conversion (§ 401B) and those converted by the table.
UNCONVERTED = ("FO", "IS")
CONVERTED = ("SE", "NO")
#: No one registration of foreign MP comes near 10,000 points of one kind (a title ladder tops out in the
#: hundreds of MP): a larger amount is a typing error, and the converted award must fit the ledger's units.
MAX_AMOUNT = 10_000
#: The Nordic systems "ligner hinanden meget" (§ 401B): a factor above 100 DBf points per foreign point is
#: a typing error. With :data:`MAX_AMOUNT` an award stays below 10**8 units.
MAX_FACTOR = 100

REFUSALS = {
    "NOT_DBF": _("Foreign MP are registered under DBf's rules (§ 401B); this federation has no such rule."),
    "COUNTRY_UNKNOWN": _("Only Swedish, Norwegian, Faroese and Icelandic MP are registered (§ 401B)."),
    "KIND_UNKNOWN": _("Faroese and Icelandic MP are BP, SP or GP, registered without conversion (§ 401B)."),
    "NO_CONVERSION": _(
        "The conversion table has no row for %(kind)s from %(country)s: the secretariat adds it first (§ 401B)."
    ),
    "AMOUNT_NOT_POSITIVE": _("The amount must be a number above 0."),
    "AMOUNT_PRECISION": _("%(kind)s has %(decimals)s decimals; %(amount)s has more."),
    "AMOUNT_TOO_LARGE": _("%(amount)s %(kind)s is more than one registration holds: at most %(maximum)s."),
    "FACTOR_OUT_OF_RANGE": _(
        "The factor is DBf points per foreign point (§ 401B): above 0 and at most %(maximum)s, not %(factor)s."
    ),
    "EARNED_IN_FUTURE": _("The points cannot have been won after today."),
    "ALREADY_DECIDED": _("This registration was already decided: %(status)s."),
    "REASON_REQUIRED": _("Give the reason for refusing the registration."),
}


refusal = refusals(REFUSALS)


def _check_secretariat(actor, federation: Federation) -> None:
    if not is_secretariat(actor, federation):
        raise PermissionDenied(_("Foreign MP are registered in the secretariat (§ 401B)."))
    if not federation.scheme_info.foreign_points:
        raise refusal("NOT_DBF")


def conversion_factor_check(factor: Decimal) -> None:
    """Refuse a factor that is no conversion of points (D-Q32): at most :data:`MAX_FACTOR`, above 0."""
    if not 0 < factor <= MAX_FACTOR:
        raise refusal("FACTOR_OUT_OF_RANGE", maximum=MAX_FACTOR, factor=factor)


def units_factor(row: ForeignConversion) -> Fraction:
    """D-Q32: the secretariat's factor converts amounts ("omregning", § 401B): ``factor`` DBf points of
    ``dbf_kind`` per point of the foreign kind, so 12 Swedish points at 0.5 are 6 SP. The engine multiplies
    ledger units (§ 402: 1 BP, 0.1 SP, 0.01 GP; "10 sølvpoint = 1 mesterpoint", "SP beregnes ... med én
    decimal"), so the factor is rescaled by both kinds' decimals: how many decimals a foreign amount may
    have must never change what it is worth."""
    return Fraction(row.factor) * 10 ** decimals_of(row.dbf_kind) / 10**row.foreign_decimals


def conversion_rules(federation: Federation, on_date: datetime.date):
    """The federation's rule set with the Swedish and Norwegian tables taken from the secretariat's rows
    (D-Q32, in units), while Faroese and Icelandic stay 1:1 as the rule set has them (§ 401B)."""
    rules = rules_for(federation, on_date)
    table = dict(rules.foreign_conversion)
    rows: dict[str, list] = {}
    for row in ForeignConversion.objects.filter(federation=federation, country__in=CONVERTED):
        rows.setdefault(row.country, []).append((row.foreign_kind, (row.dbf_kind, units_factor(row))))
    table.update({country: tuple(kinds) for country, kinds in rows.items()})
    return dataclasses.replace(rules, foreign_conversion=tuple(table.items()))


def _decimals(federation: Federation, country: str, kind: str) -> int:
    if country in UNCONVERTED:
        if kind not in ("BP", "SP", "GP"):
            raise refusal("KIND_UNKNOWN")
        return decimals_of(kind)
    row = ForeignConversion.objects.filter(federation=federation, country=country, foreign_kind=kind).first()
    if row is None:
        raise refusal("NO_CONVERSION", kind=kind, country=country)
    return row.foreign_decimals


def _units(amount, decimals: int, kind: str) -> int:
    try:
        value = Decimal(str(amount).strip().replace(",", "."))
    except InvalidOperation:
        raise refusal("AMOUNT_NOT_POSITIVE") from None
    if not value.is_finite() or value <= 0:
        raise refusal("AMOUNT_NOT_POSITIVE")
    if value > MAX_AMOUNT:
        raise refusal("AMOUNT_TOO_LARGE", amount=amount, kind=kind, maximum=MAX_AMOUNT)
    units = value.scaleb(decimals)
    if units != units.to_integral_value():
        raise refusal("AMOUNT_PRECISION", kind=kind, decimals=decimals, amount=amount)
    return int(units)


def _post(actor, registration: ForeignPoints, reason: str = "") -> Award:
    """Convert with the engine (§ 401B, rounded up like every award, § 402), post the award and record the
    registration as approved by ``actor`` (with the ``reason`` the secretariat gave, if any)."""
    rules = conversion_rules(registration.federation, timezone.localdate())
    try:
        kind, units = foreign_award(registration.country, registration.foreign_kind, registration.foreign_units, rules)
    except RequestError:
        raise refusal("NO_CONVERSION", kind=registration.foreign_kind, country=registration.country) from None
    award = Award.objects.create(
        federation=registration.federation,
        player=registration.player,
        kind=kind,
        units=units,
        source=Award.Source.FOREIGN,
        part=registration.event[:100],
        reason=f"§ 401B: {registration.foreign_amount} {registration.foreign_kind} ({registration.country})"[:300],
        explanation_ref_id=explanation_ref(
            {
                "rules": ["§ 401B"],
                "country": registration.country,
                "foreign_kind": registration.foreign_kind,
                "foreign_units": registration.foreign_units,
                "result": format_units(units, decimals_of(kind)),
            }
        ),
        awarded_on=registration.earned_on,
        created_by=actor,
    )
    registration.award = award
    registration.decide(actor=actor, status=ForeignPoints.Status.APPROVED, reason=reason, also=["award"])
    # Queued through the outbox once the award is committed (a broker outage delays it, never loses it).
    enqueue_task(standings_update_players, registration.federation_id, [registration.player_id])
    return award


def registration_units(
    *, federation: Federation, country: str, kind: str, amount, earned_on: datetime.date, today: datetime.date
) -> int:
    """The foreign units of a registration, or the refusal: country, kind, amount and date (§ 401B)."""
    if not federation.scheme_info.foreign_points:
        raise refusal("NOT_DBF")
    if country not in (*UNCONVERTED, *CONVERTED):
        raise refusal("COUNTRY_UNKNOWN")
    if earned_on > today:
        raise refusal("EARNED_IN_FUTURE")
    return _units(amount, _decimals(federation, country, kind), kind)


def _registration_create(
    *, federation, player, country, kind, amount, units, earned_on, event, actor, token
) -> ForeignPoints:
    return ForeignPoints.objects.create(
        federation=federation,
        player=player,
        country=country,
        foreign_kind=kind,
        foreign_amount=str(amount).strip()[:20],
        foreign_units=units,
        earned_on=earned_on,
        event=event.strip()[:200],
        registered_by=actor,
        token=token,
    )


@transaction.atomic
def foreign_points_register(
    *,
    actor,
    player: Player,
    country: str,
    kind: str,
    amount: Decimal | str,
    earned_on: datetime.date,
    event: str = "",
    today: datetime.date | None = None,
    token: uuid.UUID | None = None,
) -> ForeignPoints:
    """Register foreign MP for ``player`` (§ 401B). Faroese and Icelandic MP are posted at once, 1:1;
    Swedish and Norwegian MP wait for :func:`foreign_points_approve`.

    ``token`` is the form's one-time token: a registration with a token already used is not made again;
    the earlier one is returned (a form sent twice posts once)."""
    federation = player.federation
    _check_secretariat(actor, federation)
    earlier = ForeignPoints.objects.filter(token=token).first() if token is not None else None
    if earlier is not None:
        return earlier
    kind = kind.strip()
    units = registration_units(
        federation=federation,
        country=country,
        kind=kind,
        amount=amount,
        earned_on=earned_on,
        today=today or timezone.localdate(),
    )
    try:
        with transaction.atomic():
            registration = _registration_create(
                federation=federation,
                player=player,
                country=country,
                kind=kind,
                amount=amount,
                units=units,
                earned_on=earned_on,
                event=event,
                actor=actor,
                token=token,
            )
    except IntegrityError:  # the same form sent twice at the same moment: the other request registered it
        return ForeignPoints.objects.get(token=token)
    audit_record(
        actor=actor,
        action="foreign.register",
        target=registration,
        payload={"player": player.number, "country": country, "kind": kind, "units": units},
    )
    if country in UNCONVERTED:
        award = _post(actor, registration)
        audit_record(
            actor=actor,
            action="foreign.post",
            target=registration,
            payload={"award": award.pk, "kind": award.kind, "units": award.units},
        )
    return registration


@transaction.atomic
def foreign_points_approve(*, actor, registration: ForeignPoints, approve: bool, reason: str = "") -> Award | None:
    """The secretariat's decision on Swedish or Norwegian MP: approving converts them by today's table and
    posts the award (§ 401B); refusing needs a reason."""
    registration = (
        ForeignPoints.objects.select_for_update(of=("self",))
        .select_related("federation", "player")
        .get(pk=registration.pk)
    )
    _check_secretariat(actor, registration.federation)
    if registration.status != ForeignPoints.Status.PENDING:
        raise refusal("ALREADY_DECIDED", status=registration.get_status_display())
    if not approve:
        if not reason.strip():
            raise refusal("REASON_REQUIRED")
        registration.decide(actor=actor, status=ForeignPoints.Status.REFUSED, reason=reason)
        audit_record(
            actor=actor, action="foreign.refuse", target=registration, payload={"reason": registration.decision_reason}
        )
        return None
    award = _post(actor, registration, reason)
    audit_record(
        actor=actor,
        action="foreign.approve",
        target=registration,
        payload={"award": award.pk, "kind": award.kind, "units": award.units},
    )
    return award


@transaction.atomic
def foreign_conversion_save(*, actor, row: ForeignConversion) -> ForeignConversion:
    """Add or change a row of the Swedish/Norwegian conversion table (§ 401B)."""
    _check_secretariat(actor, row.federation)
    conversion_factor_check(Decimal(row.factor))
    created = row.pk is None
    row.save()
    audit_record(
        actor=actor,
        action="foreign.conversion.create" if created else "foreign.conversion.change",
        target=row,
        payload={
            "country": row.country,
            "kind": row.foreign_kind,
            "decimals": row.foreign_decimals,
            "dbf_kind": row.dbf_kind,
            "factor": str(row.factor),
        },
    )
    return row


@transaction.atomic
def foreign_conversion_delete(*, actor, row: ForeignConversion) -> None:
    _check_secretariat(actor, row.federation)
    audit_record(actor=actor, action="foreign.conversion.delete", target=row, payload={"row": str(row)})
    row.delete()
