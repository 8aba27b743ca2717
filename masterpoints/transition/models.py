"""The record of the once-per-player credits of the HBS transition (rules 1 and 3)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from federation.models import Federation, Player


class TransitionCredit(models.Model):
    """A player was credited under one transition rule: rule 1 (the opening black points of the old list) or
    rule 3 (the 1991 category). Each is given once per player; the unique constraint keeps a second import,
    or two at once, from crediting again. The amounts are the linked ledger rows."""

    class Rule(models.TextChoices):
        OPENING = "opening", _("rule 1: opening black points")
        HELD_1991 = "held_1991", _("rule 3: category held in 1991")

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="transition_credits")
    rule = models.CharField(_("rule"), max_length=12, choices=Rule.choices)
    awards = models.ManyToManyField("masterpoints.Award", related_name="+", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("transition credit")
        verbose_name_plural = _("transition credits")
        constraints = [models.UniqueConstraint(fields=["player", "rule"], name="transition_credit_once")]

    def __str__(self) -> str:
        return f"{self.player} – {self.get_rule_display()}"
