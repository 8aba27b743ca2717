"""A player's notice preference and the monthly statements sent."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from federation.models import Federation, Player


class NoticePreference(models.Model):
    """What a player with a login wants by e-mail; no row means nothing (opt-in)."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="notice_preference")
    monthly_statement = models.BooleanField(
        _("monthly statement by e-mail"),
        default=False,
        help_text=_("The month's registered points and what the next title or category still needs."),
    )
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("notice preference")
        verbose_name_plural = _("notice preferences")

    def __str__(self) -> str:
        return f"{self.player}: {'on' if self.monthly_statement else 'off'}"


class MonthlyStatement(models.Model):
    """One player's statement of one month, claimed (this row, unique per player and month) in the same
    transaction that writes the mail to the outbox: a month's statement is written at most once, and one
    written is sent by the outbox (``masterpoints.notices.services``)."""

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="monthly_statements")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="monthly_statements")
    month = models.DateField(_("month"), help_text=_("The first day of the statement's month."))
    recipient = models.EmailField(_("sent to"))
    points = models.JSONField(_("points registered"), default=dict, help_text=_("Units per point kind."))
    created_at = models.DateTimeField(_("written"), auto_now_add=True)

    class Meta:
        ordering = ["-month", "player"]
        verbose_name = _("monthly statement")
        verbose_name_plural = _("monthly statements")
        constraints = [
            models.UniqueConstraint(fields=["player", "month"], name="monthly_statement_once_per_player_month"),
            models.CheckConstraint(condition=Q(month__day=1), name="monthly_statement_month_first_day"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.month:%Y-%m}"
