"""The cups (DBf § 451C–E)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from federation.models import Federation, Player


class CupSeries(models.Model):
    """A challenge cup (vandrepokal) put up for ``seasons`` seasons from ``first_season`` (§ 451C–E).

    Bronze cup (§ 451D): most BP in the season; a player wins it once in the series; after the series the
    best winning result keeps it. Gold cup (§ 451E): most MP; after the series the most wins keeps it.
    """

    class Cup(models.TextChoices):
        BRONZE = "bronze", _("Bronze cup")
        GOLD = "gold", _("Gold cup")

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="cup_series")
    cup = models.CharField(_("cup"), max_length=8, choices=Cup.choices)
    first_season = models.PositiveSmallIntegerField(_("first season"), help_text=_("The year the season starts in."))
    seasons = models.PositiveSmallIntegerField(_("seasons"), default=10, help_text=_("§ 451D–E: ten years."))
    name = models.CharField(_("name"), max_length=200, blank=True)

    class Meta:
        ordering = ["federation", "cup", "-first_season"]
        verbose_name = _("cup series")
        verbose_name_plural = _("cup series")
        constraints = [
            models.UniqueConstraint(fields=["federation", "cup", "first_season"], name="cup_series_once"),
            models.CheckConstraint(condition=Q(seasons__gte=1), name="cup_series_has_seasons"),
        ]

    def __str__(self) -> str:
        return f"{self.get_cup_display()} {self.first_season}–{self.last_season}"

    @property
    def last_season(self) -> int:
        return self.first_season + self.seasons - 1


class CupWin(models.Model):
    """The cup's winner of one season, recorded by the secretariat once the season is over (§ 451D–E).

    ``top_player``/``top_units`` is the season's best result, which for the bronze cup may belong to an
    earlier winner who cannot win it again in the series: it still counts as their winning result when the
    cup is won to keep (§ 451D, "kan eventuelt være opnået i en senere sæson").
    """

    series = models.ForeignKey(CupSeries, on_delete=models.PROTECT, related_name="wins")
    season = models.PositiveSmallIntegerField(_("season"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="cup_wins", verbose_name=_("winner"))
    units = models.PositiveIntegerField(_("result"), help_text=_("BP (bronze) or hundredths of MP (gold)."))
    top_player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("best result"))
    top_units = models.PositiveIntegerField(_("best result of the season"))
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+")
    recorded_at = models.DateTimeField(_("recorded"), auto_now_add=True)
    note = models.CharField(_("note"), max_length=300, blank=True)

    class Meta:
        ordering = ["series", "season"]
        verbose_name = _("cup win")
        verbose_name_plural = _("cup wins")
        constraints = [
            models.UniqueConstraint(fields=["series", "season"], name="cup_win_once_per_season"),
            models.CheckConstraint(condition=Q(top_units__gte=models.F("units")), name="cup_win_top_is_best"),
        ]

    def __str__(self) -> str:
        return f"{self.series.get_cup_display()} {self.season}: {self.player}"
