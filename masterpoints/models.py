"""The award ledger: append-only; every change of points is a new row (design.md § Invariants)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from federation.appendonly import AppendOnlyModel, AppendOnlyQuerySet
from federation.models import Federation, Player
from federation.schemes import decimals_of, kind_choices
from masterpoints.engine.common import format_units
from masterpoints.explanation_store import join
from tournaments.models import Tournament


class ExplanationQuerySet(AppendOnlyQuerySet):
    refusal = "Award explanations are written once: store a new one instead."


class AwardScale(AppendOnlyModel):
    """What every award of one tournament part shares in its explanation (rules, field, boards, factors),
    stored once under the SHA-256 of its JSON and never changed (``masterpoints.explanation_store``)."""

    digest = models.CharField(max_length=64, unique=True)
    data = models.JSONField()

    refusal = "An award scale is written once: store a new one instead."

    objects = ExplanationQuerySet.as_manager()

    class Meta:
        verbose_name = _("award scale")
        verbose_name_plural = _("award scales")

    def __str__(self) -> str:
        return self.digest[:12]


class AwardExplanation(AppendOnlyModel):
    """An award's explanation: its group's scale and what this award adds (place, boards played, share…),
    stored once under the SHA-256 of both and never changed; the awards of one place share it."""

    digest = models.CharField(max_length=64, unique=True)
    scale = models.ForeignKey(AwardScale, on_delete=models.PROTECT, related_name="explanations")
    own = models.JSONField(default=dict, blank=True)

    refusal = "An award explanation is written once: store a new one instead."

    objects = ExplanationQuerySet.as_manager()

    class Meta:
        verbose_name = _("award explanation")
        verbose_name_plural = _("award explanations")

    def __str__(self) -> str:
        return self.digest[:12]

    @property
    def data(self) -> dict:
        """The explanation as the engine gave it (``{"rules", "inputs", …}``), rebuilt once per object."""
        if not hasattr(self, "_data"):
            self._data = join(self.scale.data, self.own)
        return self._data


class AwardQuerySet(AppendOnlyQuerySet):
    refusal = "The award ledger is append-only: post a reversing or adjusting award instead."

    def with_explanations(self):
        """The awards with their explanations in the same query (pages that list awards, no query per row)."""
        return self.select_related("explanation_ref__scale")


class Award(AppendOnlyModel):
    """One entry in a player's points ledger, in integer units of its kind (1 BP, 0.1 SP, 0.01 GP, 1 point).

    A result award comes from a confirmed tournament with the engine's explanation; a reversal cancels
    exactly one earlier award (re-upload, correction); other sources add or adjust with a reason.
    Rows are never edited or deleted.
    """

    class Source(models.TextChoices):
        RESULT = "result", _("tournament result")
        REVERSAL = "reversal", _("reversal")
        CORRECTION = "correction", _("correction")
        FOREIGN = "foreign", _("foreign points")
        TRANSITION = "transition", _("opening balance")
        MANUAL = "manual", _("entered by hand")
        #: History brought in from the federation's old system: opening balances and historic
        #: awards, in the ledger's season 0 (never points won in a season, ``masterpoints.history``).
        OPENING = "opening", _("opening entry (history brought in)")

    # No single-column indexes: (federation, awarded_on) and (player, kind) below serve those lookups, and
    # every award written would pay for two more indexes.
    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="awards", db_index=False)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="awards", db_index=False)
    kind = models.CharField(_("kind"), max_length=8, choices=kind_choices)
    units = models.IntegerField(_("units"))
    source = models.CharField(_("source"), max_length=12, choices=Source.choices)
    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, null=True, blank=True, related_name="awards")
    part = models.CharField(_("part"), max_length=100, blank=True, help_text=_("Day, row, match or bonus."))
    place_first = models.PositiveIntegerField(_("place"), null=True, blank=True)
    place_last = models.PositiveIntegerField(_("tied down to"), null=True, blank=True)
    #: The engine's explanation, stored apart (the row stays narrow); read ``explanation_data``.
    explanation_ref = models.ForeignKey(
        AwardExplanation, on_delete=models.PROTECT, null=True, blank=True, related_name="awards", db_index=False
    )
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    reverses = models.OneToOneField("self", on_delete=models.PROTECT, null=True, blank=True, related_name="reversed_by")
    #: The correction request whose decision posted this row (HBS transition rule 6; DBf by the office).
    correction = models.ForeignKey(
        "masterpoints.CorrectionRequest", on_delete=models.PROTECT, null=True, blank=True, related_name="entries"
    )
    awarded_on = models.DateField(_("date"), help_text=_("The tournament's date, or the decision's date."))
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True)

    refusal = "The award ledger is append-only: post a reversing or adjusting award instead."

    objects = AwardQuerySet.as_manager()

    class Meta:
        ordering = ["-awarded_on", "-pk"]
        verbose_name = _("award")
        verbose_name_plural = _("awards")
        indexes = [
            # A player's ledger by date with what their sums read: the chart's daily sums and the
            # standings' per-kind sums from the index alone, the page's newest awards without a sort.
            models.Index(fields=["player", "awarded_on", "kind", "units"], name="award_player_day_kind_units"),
            models.Index(fields=["federation", "awarded_on"]),
        ]
        constraints = [
            models.CheckConstraint(condition=~Q(units=0), name="award_not_zero"),
            models.CheckConstraint(
                condition=Q(source="reversal", reverses__isnull=False)
                | (~Q(source="reversal") & Q(reverses__isnull=True)),
                name="award_reversal_names_its_award",
            ),
            models.CheckConstraint(
                condition=~Q(source="result") | Q(tournament__isnull=False, units__gt=0),
                name="award_result_from_tournament",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.amount} {self.kind}"

    @property
    def amount(self) -> str:
        """The award in the kind's own decimals: ``"24"`` BP, ``"30.7"`` SP, ``"2.67"`` GP."""
        return format_units(self.units, decimals_of(self.kind))

    @property
    def explanation_data(self) -> dict:
        """The award's explanation as the engine gave it (``{"rules", "inputs", …}``; ``{}`` when none): the
        one reader of the stored explanation. Lists of awards load it with ``with_explanations()``."""
        return self.explanation_ref.data if self.explanation_ref_id else {}


# The workflows' models live in their packages; importing them here registers them with the app.
from masterpoints.corrections.models import CorrectionRequest, CorrectionWindow  # noqa: E402
from masterpoints.cups.models import CupSeries, CupWin  # noqa: E402
from masterpoints.foreign.models import ForeignConversion, ForeignPoints  # noqa: E402
from masterpoints.notices.models import MonthlyStatement, NoticePreference  # noqa: E402
from masterpoints.office_queue.models import OfficeCase, ProvisionalPlayer  # noqa: E402
from masterpoints.office_record.models import TournamentWithdrawal  # noqa: E402
from masterpoints.standings.models import (  # noqa: E402
    RankingListEntry,
    SeasonStanding,
    Standing,
    StandingPlace,
    StandingPlaces,
    StandingsProof,
    StandingsVersion,
    TitleAchievement,
)
from masterpoints.title_mail.models import TitleMailing  # noqa: E402
from masterpoints.transition.models import TransitionCredit  # noqa: E402
from masterpoints.uploads.models import RememberedResolution  # noqa: E402

__all__ = [
    "Award",
    "AwardExplanation",
    "AwardScale",
    "CorrectionRequest",
    "CorrectionWindow",
    "CupSeries",
    "CupWin",
    "ForeignConversion",
    "ForeignPoints",
    "MonthlyStatement",
    "NoticePreference",
    "OfficeCase",
    "ProvisionalPlayer",
    "RankingListEntry",
    "RememberedResolution",
    "SeasonStanding",
    "Standing",
    "StandingPlace",
    "StandingPlaces",
    "StandingsProof",
    "StandingsVersion",
    "TitleAchievement",
    "TitleMailing",
    "TournamentWithdrawal",
    "TransitionCredit",
]
