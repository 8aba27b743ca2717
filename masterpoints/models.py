"""The award ledger: append-only; every change of points is a new row (design.md § Invariants)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from federation.appendonly import AppendOnlyModel, AppendOnlyQuerySet
from federation.models import Federation, Player
from masterpoints.engine.common import KIND_DECIMALS, format_units
from tournaments.models import PointKind, Tournament


class AwardQuerySet(AppendOnlyQuerySet):
    refusal = "The award ledger is append-only: post a reversing or adjusting award instead."


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

    # No single-column indexes: (federation, awarded_on) and (player, kind) below serve those lookups, and
    # every award written would pay for two more indexes.
    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="awards", db_index=False)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="awards", db_index=False)
    kind = models.CharField(_("kind"), max_length=8, choices=PointKind.choices)
    units = models.IntegerField(_("units"))
    source = models.CharField(_("source"), max_length=12, choices=Source.choices)
    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, null=True, blank=True, related_name="awards")
    part = models.CharField(_("part"), max_length=100, blank=True, help_text=_("Day, row, match or bonus."))
    place_first = models.PositiveIntegerField(_("place"), null=True, blank=True)
    place_last = models.PositiveIntegerField(_("tied down to"), null=True, blank=True)
    explanation = models.JSONField(_("explanation"), default=dict, blank=True)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    reverses = models.OneToOneField("self", on_delete=models.PROTECT, null=True, blank=True, related_name="reversed_by")
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
            models.Index(fields=["player", "kind"]),
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
        return f"{self.player} {self.units} {self.kind}"

    @property
    def amount(self) -> str:
        """The award in the kind's own decimals: ``"24"`` BP, ``"30.7"`` SP, ``"2.67"`` GP."""
        return format_units(self.units, KIND_DECIMALS[self.kind])


# --- standings: derived from the ledger, rebuilt at will (masterpoints.standings) ---------------------


class BalanceColumns(models.Model):
    """A player's balances per point kind in integer units (1 BP, 0.1 SP, 0.01 GP, 1 HBS point).

    ``mp`` is the DBf total in hundredths of MP: every DBf unit is 0.01 MP, so it is ``bp + sp + gp``
    (§ 402). ``sort_key`` orders a list: DBf by ``mp``; HBS by category rung, then master, red and black
    points (see ``masterpoints.standings.hbs_sort_key``).
    """

    # Indexed by the subclasses' composite indexes, which all start with the federation.
    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="+", db_index=False)
    bp = models.IntegerField(_("BP"), default=0)
    sp = models.IntegerField(_("SP"), default=0)
    gp = models.IntegerField(_("GP"), default=0)
    mp = models.IntegerField(_("MP"), default=0)
    black = models.IntegerField(_("black points"), default=0)
    red = models.IntegerField(_("red points"), default=0)
    master = models.IntegerField(_("master points"), default=0)
    sort_key = models.BigIntegerField(_("ranking key"), default=0)
    last_award_on = models.DateField(_("last award"), null=True, blank=True)
    award_count = models.PositiveIntegerField(_("awards"), default=0)

    class Meta:
        abstract = True

    def amount(self, kind: str) -> str:
        """The balance of ``kind`` (``BP`` … ``master``, or ``MP``) in the kind's own decimals."""
        if kind == "MP":
            return format_units(self.mp, 2)
        return format_units(getattr(self, kind.lower()), KIND_DECIMALS[kind])


class Standing(BalanceColumns):
    """A player's standing: balances, the title or category shown and when it was reached.

    Derived from the award ledger and kept for fast reading; ``standings_rebuild`` recreates every row
    from the ledger and must give exactly what the incremental updates gave. Ranks are not stored: a rank
    is one plus the number of better rows in the same scope (see ``masterpoints.selectors``).
    """

    player = models.OneToOneField(
        Player, on_delete=models.CASCADE, primary_key=True, related_name="standing", verbose_name=_("player")
    )
    computed_rung = models.PositiveSmallIntegerField(_("rung computed from the balances"), default=0)
    title_rung = models.PositiveSmallIntegerField(
        _("rung"), default=0, help_text=_("The higher of the computed and the held rung (H-2, § 404); 0 = none.")
    )
    title = models.CharField(_("title or category"), max_length=60, blank=True)
    stars = models.PositiveSmallIntegerField(_("stars"), default=0)
    title_reached_on = models.DateField(_("reached on"), null=True, blank=True)

    class Meta:
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        indexes = [
            models.Index(fields=["federation", "-sort_key"], name="standing_fed_key"),
            models.Index(fields=["federation", "title_rung", "-sort_key"], name="standing_fed_rung_key"),
            models.Index(fields=["federation", "-bp"], name="standing_fed_bp"),
            models.Index(fields=["federation", "-sp"], name="standing_fed_sp"),
            models.Index(fields=["federation", "-gp"], name="standing_fed_gp"),
            models.Index(fields=["federation", "-black"], name="standing_fed_black"),
            models.Index(fields=["federation", "-red"], name="standing_fed_red"),
            models.Index(fields=["federation", "-master"], name="standing_fed_master"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.title or '-'}"


class SeasonStanding(BalanceColumns):
    """What a player earned in one season: DBf 16 May – 15 May (§ 451C), HBS the calendar year.

    ``season`` is the year the season starts in. Derived from the ledger like :class:`Standing`.
    """

    # Derived from the ledger, whose own foreign keys guarantee that the player and the federation exist: no
    # key checks of their own (a first build writes a million of these rows). The unique (player, season)
    # and the (federation, season, key) indexes serve the lookups.
    federation = models.ForeignKey(
        Federation, on_delete=models.PROTECT, related_name="+", db_index=False, db_constraint=False
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="season_standings", db_index=False, db_constraint=False
    )
    season = models.PositiveSmallIntegerField(_("season"), help_text=_("The year the season starts in."))

    class Meta:
        verbose_name = _("season standing")
        verbose_name_plural = _("season standings")
        constraints = [models.UniqueConstraint(fields=["player", "season"], name="season_standing_once")]
        indexes = [models.Index(fields=["federation", "season", "-sort_key"], name="season_fed_key")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.season}"


class TitleAchievementQuerySet(models.QuerySet):
    def update(self, **kwargs):
        if set(kwargs) - {"announced_at"}:
            raise TypeError("Title achievements are append-only; only announced_at may be set.")
        return super().update(**kwargs)

    def delete(self):
        raise TypeError("Title achievements are append-only: a title once registered is never lost (§ 404, H-2).")


class TitleAchievement(models.Model):
    """The register of titles (DBf, § 404) and categories (HBS, H-2) reached: append-only, never lost.

    One row per player and rung, written the first time the balances reach a rung above every rung held.
    ``reached_on`` is the date of the player's latest award when the row was written (so a rebuild and
    the incremental updates agree). ``announced_at`` is set once, by the monthly title e-mail.
    """

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="title_achievements")
    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="+")
    rung = models.PositiveSmallIntegerField(_("rung"), help_text=_("Position on the ladder, 1 = lowest."))
    title = models.CharField(_("title or category"), max_length=60)
    stars = models.PositiveSmallIntegerField(_("stars"), default=0)
    reached_on = models.DateField(_("reached on"))
    recorded_at = models.DateTimeField(_("recorded"), auto_now_add=True)
    announced_at = models.DateTimeField(_("announced"), null=True, blank=True)

    objects = TitleAchievementQuerySet.as_manager()

    class Meta:
        ordering = ["player", "rung"]
        verbose_name = _("title achievement")
        verbose_name_plural = _("title achievements")
        constraints = [
            models.UniqueConstraint(fields=["player", "rung"], name="title_achievement_once"),
            models.CheckConstraint(condition=Q(rung__gte=1), name="title_achievement_rung_positive"),
        ]
        indexes = [models.Index(fields=["federation", "announced_at"], name="title_fed_announced")]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.title} ({self.reached_on:%Y-%m-%d})"

    def delete(self, *args, **kwargs):
        raise TypeError("Title achievements are append-only: a title once registered is never lost.")


class StandingsVersion(models.Model):
    """A counter raised in the same transaction as every change of a federation's standings: pages that
    cache what they read from the standings put it in their cache keys, so a change is seen at once."""

    federation = models.OneToOneField(
        Federation, on_delete=models.CASCADE, primary_key=True, related_name="standings_version"
    )
    version = models.BigIntegerField(_("version"), default=0)
    changed_at = models.DateTimeField(_("changed"), auto_now=True)

    class Meta:
        verbose_name = _("standings version")
        verbose_name_plural = _("standings versions")

    def __str__(self) -> str:
        return f"{self.federation_id}: {self.version}"


# --- correction requests (issue 5; HBS transition rule 6) ----------------------------------------------


def correction_document_path(instance: CorrectionRequest, filename: str) -> str:
    """Stored under a random name: the file is kept and offered as a download, never rendered or trusted."""
    import uuid

    return f"corrections/{uuid.uuid4().hex}"


class CorrectionRequest(models.Model):
    """A player's or a director's request to correct a player's points, against a tournament or one award,
    with text and an optional document. The commission decides (HBS transition rule 6); granting posts
    compensating ledger entries (``masterpoints.corrections``), never edits."""

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
        Award, on_delete=models.PROTECT, null=True, blank=True, related_name="correction_requests"
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
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    decision_reason = models.TextField(_("reason for the decision"), blank=True)

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
    transition period (transition rule 6). Data the secretariat sets; a federation whose rules set no
    limit (DBf) needs none."""

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


# --- foreign MP (DBf § 401B) ------------------------------------------------------------------------------


class ForeignConversion(models.Model):
    """One row of the Swedish or Norwegian conversion table (§ 401B: the rules print none; the secretariat
    keeps it). ``units`` of the foreign kind (with ``foreign_decimals`` decimals) times ``factor`` give
    units of ``dbf_kind``, rounded up (§ 402)."""

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
        _("factor"), max_digits=12, decimal_places=6, help_text=_("DBf units per foreign unit.")
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


class ForeignPoints(models.Model):
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
        Award, on_delete=models.PROTECT, null=True, blank=True, related_name="foreign_registration"
    )
    registered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+")
    registered_at = models.DateTimeField(_("registered"), auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    reason = models.TextField(_("reason"), blank=True)

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


# --- monthly title e-mails (DBf § 451B; HBS categories, H-2) ----------------------------------------------


class TitleMailing(models.Model):
    """One club's title e-mail of one month (§ 451B): claimed under a row lock, sent, then recorded.

    ``achievement_ids`` are the :class:`TitleAchievement` rows the sent mail announced; they get their
    ``announced_at`` in the same transaction that marks this row sent, and only after the SMTP server
    accepted the message (``masterpoints.title_mail``). A failed send is recorded here and retried by the
    next run; it is never dropped.
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


# --- the cups (DBf § 451C–E) -----------------------------------------------------------------------------


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
