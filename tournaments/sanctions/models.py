"""DBf sanctions (§ 403): a club's application and the sanction granted from it, and the simultaneous events
DBf announced, in which SP needs none (§ 403A1)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from federation.decisions import Decided
from federation.models import Federation, Region
from tournaments.choices import Form


class SanctionApplication(Decided):
    """A club's application for a sanction to award SP or GP in one tournament (§ 403B), filed with the
    district at least two months ahead (§ 403B7). Written only by ``tournaments.sanctions``.

    SP within the playing time's quota (§ 403B1–2) is the district's to grant (§ 403 4, § 403B4); GP, SP
    beyond the quota (§ 403B3) and any dispensation (§ 403B5e) go with the district's recommendation to the
    secretariat, which decides (§ 403B7).
    """

    class Basis(models.TextChoices):
        QUOTA = "quota", _("the playing time's annual tournament (§ 403B1–2)")
        EXTRA = "extra", _("an extra SP tournament in a special case (§ 403B3)")
        JUBILEE = "jubilee", _("a GP tournament in the club's jubilee year (§ 403B4)")

    class Quota(models.TextChoices):
        FULL = "full", _("full MP (§ 403B1)")
        HALF = "half", _("half MP (§ 403B2)")

    class Advertisement(models.TextChoices):
        DANSK_BRIDGE_WEBSITE = "dansk_bridge_website", _("in Dansk Bridge and on DBf's website")
        DISTRICT_MAGAZINE = "district_magazine", _("in the district's magazine")
        DISTRICT_EMAIL = "district_email", _("by e-mail to every club of the district")
        QUARTER_PAGE = "quarter_page", _("an advertisement of at least a quarter page in Dansk Bridge")

    class Status(models.TextChoices):
        FILED = "filed", _("filed: awaiting the district")
        RECOMMENDED = "recommended", _("recommended: awaiting the secretariat")
        APPROVED = "approved", _("approved")
        REFUSED = "refused", _("refused")

    class Recommendation(models.TextChoices):
        FOR = "for", _("recommended")
        AGAINST = "against", _("not recommended")

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="sanction_applications")
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="sanction_applications")
    district = models.ForeignKey(
        Region, on_delete=models.PROTECT, related_name="sanction_applications", verbose_name=_("district")
    )
    playing_time = models.ForeignKey(
        "clubs.PlayingTime",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="sanction_applications",
        verbose_name=_("playing time"),
    )
    name = models.CharField(_("tournament name"), max_length=200)
    date = models.DateField(_("first day"))
    end_date = models.DateField(_("last day"), null=True, blank=True)
    entry_deadline = models.DateField(_("entry deadline"))
    advertised_on = models.DateField(_("advertised on"))
    advertisement = models.CharField(_("advertised"), max_length=24, choices=Advertisement.choices)
    open_to_all = models.BooleanField(_("open tournament"), default=True)
    national = models.BooleanField(_("of national character"), default=False)
    form = models.CharField(_("form"), max_length=12, choices=Form.choices)
    boards = models.PositiveIntegerField(_("boards planned"))
    category = models.CharField(_("points"), max_length=2, choices=[("SP", _("silver (SP)")), ("GP", _("gold (GP)"))])
    quota = models.CharField(_("quota"), max_length=4, choices=Quota.choices)
    basis = models.CharField(_("basis"), max_length=8, choices=Basis.choices, default=Basis.QUOTA)
    jubilee_years = models.PositiveSmallIntegerField(_("jubilee (years)"), null=True, blank=True)
    dispensations = models.JSONField(
        _("dispensations asked for"), default=list, blank=True, help_text=_("Letters of § 403B5: b, c and/or d.")
    )
    dispensation_reason = models.TextField(_("reason for the dispensation"), blank=True)
    contact_email = models.EmailField(_("contact e-mail"), blank=True)
    note = models.TextField(_("note"), blank=True)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.FILED)
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    filed_at = models.DateTimeField(_("filed"), auto_now_add=True)
    recommendation = models.CharField(_("district"), max_length=8, choices=Recommendation.choices, blank=True)
    recommendation_note = models.TextField(_("district's note"), blank=True)
    recommended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    recommended_at = models.DateTimeField(_("recommended"), null=True, blank=True)

    class Meta:
        ordering = ["-date", "club"]
        verbose_name = _("sanction application")
        verbose_name_plural = _("sanction applications")
        indexes = [models.Index(fields=["club", "date"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__isnull=True) | Q(end_date__gte=models.F("date")),
                name="sanction_application_dates_ordered",
            ),
            models.CheckConstraint(condition=Q(category__in=["SP", "GP"]), name="sanction_application_sp_or_gp"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.club.name}, {self.date:%Y-%m-%d}, {self.category})"

    def get_absolute_url(self) -> str:
        return reverse("sanctions:detail", args=[self.pk])

    @property
    def secretariat_decides(self) -> bool:
        """GP (§ 403 4, § 403B7), SP beyond the quota (§ 403B3) and dispensations (§ 403B5e) are the
        secretariat's, on the district's recommendation; SP within the quota is the district's (§ 403B4)."""
        return self.category == "GP" or self.basis != self.Basis.QUOTA or bool(self.dispensations)


class Sanction(models.Model):
    """A club's granted permission to award SP or GP, with full or half MP, in the tournament of one
    approved application (§ 403B1–4). Dispensations granted (§ 403B5e) are recorded on it; the upload of
    the tournament looks the sanction up by club, category and date."""

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="sanctions")
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="sanctions")
    application = models.OneToOneField(SanctionApplication, on_delete=models.PROTECT, related_name="sanction")
    category = models.CharField(_("points"), max_length=2)
    quota = models.CharField(_("quota"), max_length=4, choices=SanctionApplication.Quota.choices)
    date = models.DateField(_("first day"))
    end_date = models.DateField(_("last day"))
    dispensations = models.JSONField(_("dispensations"), default=list, blank=True)
    granted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+")
    granted_at = models.DateTimeField(_("granted"), auto_now_add=True)

    class Meta:
        ordering = ["-date"]
        verbose_name = _("sanction")
        verbose_name_plural = _("sanctions")
        indexes = [models.Index(fields=["club", "category", "date"])]
        constraints = [
            models.CheckConstraint(condition=Q(end_date__gte=models.F("date")), name="sanction_dates_ordered"),
        ]

    def __str__(self) -> str:
        return f"{self.club.name}: {self.category} {self.get_quota_display()} {self.date:%Y-%m-%d}"


class SimultaneousEvent(models.Model):
    """A simultaneous event DBf announced ("Simultanturneringer udskrevet af DBf", § 403A1), as the
    secretariat records it: a club's event in it awards SP without a sanction. A club claims one that covers
    its tournament's date (``tournaments.sanctions.selectors.event_sanction``). The alternative Klubsølv is
    the club's own pairs tournament within the season that replaces Klubsølv for all its playing times
    (§ 403A1 second sentence, § 453); DBf announces the dates it may be held in like any other (D-Q29)."""

    class Kind(models.TextChoices):
        KLUBSOLV = "klubsolv", _("Klubsølv (§ 403A1, § 433E)")
        ALTERNATIVE_KLUBSOLV = "alternative_klubsolv", _("alternative Klubsølv (§ 403A1, § 453)")
        OTHER = "other", _("another simultaneous event, e.g. Landsdækkende Handicap (§ 403A1, § 433E)")

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="simultaneous_events")
    name = models.CharField(_("name"), max_length=200)
    kind = models.CharField(_("kind"), max_length=24, choices=Kind.choices)
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"), help_text=_("The same as the first day for a one-day event."))
    note = models.TextField(_("note"), blank=True)

    class Meta:
        ordering = ["-starts_on", "name"]
        verbose_name = _("DBf simultaneous event")
        verbose_name_plural = _("DBf simultaneous events")
        constraints = [
            models.UniqueConstraint(fields=["federation", "name", "starts_on"], name="simultaneous_event_unique"),
            models.CheckConstraint(
                condition=Q(ends_on__gte=models.F("starts_on")), name="simultaneous_event_dates_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.dates})"

    @property
    def dates(self) -> str:
        """The day, or first and last day, as the messages name them (``2025-10-06–2025-10-10``)."""
        if self.ends_on == self.starts_on:
            return self.starts_on.isoformat()
        return f"{self.starts_on.isoformat()}–{self.ends_on.isoformat()}"

    def covers(self, day) -> bool:
        return self.starts_on <= day <= self.ends_on
