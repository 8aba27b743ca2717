"""A tournament withdrawn by the secretariat."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament


class TournamentWithdrawal(models.Model):
    """A confirmed tournament that should not have counted (a wrong organiser, a cancelled event): its awards
    were reversed in the ledger by new rows (append-only) and it is no longer the event's current version, so
    re-confirming it later is a normal upload. One per tournament (the one-to-one key); never edited."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.PROTECT, related_name="withdrawal", verbose_name=_("tournament")
    )
    reason = models.CharField(_("reason"), max_length=300)
    reversed_awards = models.PositiveIntegerField(_("awards reversed"), default=0)
    withdrawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+")
    withdrawn_at = models.DateTimeField(_("withdrawn"), auto_now_add=True)

    class Meta:
        verbose_name = _("tournament withdrawal")
        verbose_name_plural = _("tournament withdrawals")

    def __str__(self) -> str:
        return f"{self.tournament}: {self.reason}"
