"""Correction requests and the windows in which they may be filed (HBS transition rule 6)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from federation.decisions import Decided
from federation.models import Federation, Player
from tournaments.models import Tournament


def correction_document_path(instance: CorrectionRequest, filename: str) -> str:
    """Stored under a random name: the file is kept and offered as a download, never rendered or trusted."""
    import uuid

    return f"corrections/{uuid.uuid4().hex}"


class CorrectionRequest(Decided):
    """A player's or a director's request to correct a player's points, against a tournament or one award,
    with text and a document (required where the rules ask for documents: HBS transition rule 6, H-14;
    optional for DBf). The commission decides (HBS transition rule 6); granting posts compensating ledger
    entries (``masterpoints.corrections``), never edits."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        ASSIGNED = "assigned", _("assigned")
        GRANTED = "granted", _("granted")
        REFUSED = "refused", _("refused")

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="correction_requests")
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="correction_requests", verbose_name=_("player")
    )
    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, null=True, blank=True, related_name="correction_requests"
    )
    award = models.ForeignKey(
        "masterpoints.Award", on_delete=models.PROTECT, null=True, blank=True, related_name="correction_requests"
    )
    text = models.TextField(_("what is wrong"))
    document = models.FileField(_("document"), upload_to=correction_document_path, blank=True)
    document_name = models.CharField(_("document name"), max_length=255, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="correction_requests"
    )
    created_at = models.DateTimeField(_("filed"), auto_now_add=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.OPEN)
    assigned_to = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="assigned_corrections",
        verbose_name=_("assigned to"),
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("correction request")
        verbose_name_plural = _("correction requests")
        constraints = [
            models.CheckConstraint(
                condition=Q(tournament__isnull=False) | Q(award__isnull=False), name="correction_has_target"
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.player} – {self.get_status_display()}"

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("corrections:detail", args=[self.pk])

    @property
    def is_open(self) -> bool:
        return self.status in (self.Status.OPEN, self.Status.ASSIGNED)


class CorrectionWindow(models.Model):
    """A period in which a federation whose rules limit correction requests takes them: HBS's one-year
    transition period (transition rule 6); all of a federation's windows lie within that one year (H-12,
    checked by ``masterpoints.corrections.services.correction_window_check``). Data the secretariat sets;
    a federation whose rules set no limit (DBf) takes none."""

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="correction_windows")
    opens_on = models.DateField(_("opens on"))
    closes_on = models.DateField(_("closes on"))
    note = models.CharField(_("note"), max_length=200, blank=True)

    class Meta:
        ordering = ["federation", "-opens_on"]
        verbose_name = _("correction window")
        verbose_name_plural = _("correction windows")
        constraints = [
            models.CheckConstraint(condition=Q(closes_on__gte=models.F("opens_on")), name="window_dates_ordered"),
        ]

    def __str__(self) -> str:
        return f"{self.federation}: {self.opens_on:%Y-%m-%d} – {self.closes_on:%Y-%m-%d}"
