"""Foreign MP (DBf § 401B): conversion tables and registrations."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from federation.decisions import Decided
from federation.models import Federation, Player


class ForeignConversion(models.Model):
    """One row of the Swedish or Norwegian conversion table (§ 401B: the rules print none; the secretariat
    keeps it). D-Q32: an amount of the foreign kind (written with up to ``foreign_decimals`` decimals) times
    ``factor`` gives the amount of ``dbf_kind``, rounded up to that kind's decimals (§ 402): at 0.5, 12
    Swedish points are 6.0 SP."""

    COUNTRIES = [("SE", _("Sweden")), ("NO", _("Norway"))]

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="foreign_conversions")
    country = models.CharField(_("country"), max_length=2, choices=COUNTRIES)
    foreign_kind = models.CharField(_("foreign kind"), max_length=20, help_text=_("As the other federation names it."))
    foreign_decimals = models.PositiveSmallIntegerField(_("decimals of the foreign kind"), default=0)
    dbf_kind = models.CharField(
        _("DBf kind"),
        max_length=2,
        choices=[("BP", _("bronze (BP)")), ("SP", _("silver (SP)")), ("GP", _("gold (GP)"))],
    )
    factor = models.DecimalField(
        _("factor"),
        max_digits=12,
        decimal_places=6,
        help_text=_("DBf points per foreign point (§ 401B): at 0.5, 12 foreign points are 6 DBf points."),
    )

    class Meta:
        ordering = ["federation", "country", "foreign_kind"]
        verbose_name = _("foreign conversion")
        verbose_name_plural = _("foreign conversion table")
        constraints = [
            models.UniqueConstraint(fields=["federation", "country", "foreign_kind"], name="conversion_kind_once"),
            models.CheckConstraint(condition=Q(factor__gt=0), name="conversion_factor_positive"),
            models.CheckConstraint(condition=Q(foreign_decimals__lte=4), name="conversion_decimals_small"),
        ]

    def __str__(self) -> str:
        return f"{self.country} {self.foreign_kind} → {self.dbf_kind} × {self.factor}"


class ForeignPoints(Decided):
    """Swedish, Norwegian, Faroese or Icelandic MP registered for a player by the secretariat (§ 401B).

    Faroese and Icelandic MP are posted 1:1 at once; Swedish and Norwegian MP wait for the secretariat's
    approval, which converts them by the table and posts the award."""

    COUNTRIES = [("SE", _("Sweden")), ("NO", _("Norway")), ("FO", _("Faroe Islands")), ("IS", _("Iceland"))]

    class Status(models.TextChoices):
        PENDING = "pending", _("awaiting approval")
        APPROVED = "approved", _("approved")
        REFUSED = "refused", _("refused")

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="foreign_points")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="foreign_points")
    country = models.CharField(_("country"), max_length=2, choices=COUNTRIES)
    foreign_kind = models.CharField(_("foreign kind"), max_length=20)
    foreign_amount = models.CharField(_("amount"), max_length=20, help_text=_("As registered abroad."))
    foreign_units = models.PositiveIntegerField(_("foreign units"))
    earned_on = models.DateField(_("won on"))
    event = models.CharField(_("event"), max_length=200, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    award = models.OneToOneField(
        "masterpoints.Award", on_delete=models.PROTECT, null=True, blank=True, related_name="foreign_registration"
    )
    registered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+")
    registered_at = models.DateTimeField(_("registered"), auto_now_add=True)
    #: The registering form's one-time token: the same form sent twice (a double click, a reload) registers
    #: once. Empty for registrations made before tokens, and by code that passes none.
    token = models.UUIDField(_("form token"), null=True, blank=True, unique=True, editable=False)

    class Meta:
        ordering = ["-registered_at"]
        verbose_name = _("foreign points")
        verbose_name_plural = _("foreign points")
        constraints = [
            models.CheckConstraint(condition=Q(foreign_units__gt=0), name="foreign_units_positive"),
            models.CheckConstraint(
                condition=Q(status="approved", award__isnull=False) | (~Q(status="approved") & Q(award__isnull=True)),
                name="foreign_approved_has_award",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.foreign_amount} {self.foreign_kind} ({self.country})"
