"""The monthly title e-mails (DBf § 451B; HBS categories, H-2)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from federation.models import Federation


class TitleMailing(models.Model):
    """One club's title e-mail of one month (§ 451B): claimed under a row lock, queued in the outbox, then
    recorded as sent or failed by the outbox's drain (``masterpoints.title_mail.services``).

    ``pending`` with ``achievement_ids``: queued, the :class:`TitleAchievement` rows the mail announces; they
    get their ``announced_at`` in the same transaction that marks this row sent, once the SMTP server
    accepted the message. ``attempts`` and ``last_error`` follow the outbox's attempts. A mail that failed
    its last attempt, or could not be queued (no address), is ``failed`` and written again by the next run;
    it is never dropped.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="title_mailings")
    club = models.ForeignKey("clubs.Club", on_delete=models.PROTECT, related_name="title_mailings")
    month = models.DateField(_("month"), help_text=_("The first day of the mailing's month."))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    achievement_ids = models.JSONField(_("achievements announced"), default=list, blank=True)
    close_count = models.PositiveIntegerField(_("members close to their next title"), default=0)
    recipients = models.CharField(_("sent to"), max_length=300, blank=True)
    message_id = models.CharField(_("message id"), max_length=200, blank=True)
    last_error = models.TextField(_("last error"), blank=True)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["-month", "club"]
        verbose_name = _("title e-mail")
        verbose_name_plural = _("title e-mails")
        constraints = [
            models.UniqueConstraint(fields=["club", "month"], name="title_mailing_once_per_club_month"),
            models.CheckConstraint(
                condition=~Q(status="sent") | Q(sent_at__isnull=False), name="title_mailing_sent_has_time"
            ),
            models.CheckConstraint(condition=Q(month__day=1), name="title_mailing_month_first_day"),
        ]

    def __str__(self) -> str:
        return f"{self.club} {self.month:%Y-%m}: {self.get_status_display()}"

    @property
    def is_queued(self) -> bool:
        """Written to the outbox and not yet sent or given up."""
        return self.status == self.Status.PENDING and bool(self.achievement_ids)
