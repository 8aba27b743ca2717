"""Standings: derived from the ledger, rebuilt at will (:mod:`masterpoints.standings.services`)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from federation.models import Federation, Player
from federation.schemes import scheme_for


class BalanceColumns(models.Model):
    """A player's balances per point kind in integer units of the kind (1 BP, 0.1 SP, 0.01 GP, 1 HBS point).

    The rule book's kinds, in the order of its ``SchemeInfo.kinds``, fill ``kind1`` … (DBf BP, SP, GP; HBS
    black, red, master): ``SchemeInfo.column(kind)`` names a kind's column, so a rule book with up to
    ``KIND_SLOTS`` kinds needs no column of its own. ``total`` is the total the kinds add up to where the rule
    book has one: DBf's in hundredths of MP, every DBf unit being 0.01 MP (§ 402). ``sort_key`` orders a list
    by the rule book's ``SchemeInfo.sort_key``: DBf by the total; HBS by category rung, then master, red and
    black points (H-2).
    """

    # Indexed by the subclasses' composite indexes, which all start with the federation.
    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="+", db_index=False)
    kind1 = models.IntegerField(_("first kind's points"), default=0)
    kind2 = models.IntegerField(_("second kind's points"), default=0)
    kind3 = models.IntegerField(_("third kind's points"), default=0)
    total = models.IntegerField(_("total"), default=0)
    sort_key = models.BigIntegerField(_("ranking key"), default=0)
    last_award_on = models.DateField(_("last award"), null=True, blank=True)
    award_count = models.PositiveIntegerField(_("awards"), default=0)

    class Meta:
        abstract = True

    def points(self, kind: str) -> int:
        """The balance of ``kind``, a point kind of the federation's rule book, in its integer units."""
        return getattr(self, scheme_for(kind).column(kind))


class Standing(BalanceColumns):
    """A player's standing: balances, the title or category shown and when it was reached.

    Derived from the award ledger and kept for fast reading; ``standings_rebuild`` recreates every row
    from the ledger and must give exactly what the incremental updates gave. Ranks are not stored: a rank
    is one plus the number of better rows in the same scope (see ``masterpoints.public.selectors``).
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
            # A list's page in its order (key descending, then the player) and the number of rows above it
            # are read from these indexes alone, at any depth (masterpoints.public.placed.RankedRows).
            models.Index(fields=["federation", "-sort_key", "player"], name="standing_fed_key_player"),
            models.Index(fields=["federation", "title_rung", "-sort_key"], name="standing_fed_rung_key"),
            models.Index(fields=["federation", "-kind1", "player"], name="standing_fed_kind1_player"),
            models.Index(fields=["federation", "-kind2", "player"], name="standing_fed_kind2_player"),
            models.Index(fields=["federation", "-kind3", "player"], name="standing_fed_kind3_player"),
            # A filter that joins another table (a region's home members, a name) reads the federation's
            # players from the index alone, not from the table.
            models.Index(fields=["federation", "player"], name="standing_fed_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.title or '-'}"


class StandingPlace(models.Model):
    """A listed player's places on the federation's default list (everyone for DBf; HBS the official list,
    rule 3), derived from the standings by PostgreSQL's (or SQLite's) window functions in
    :mod:`masterpoints.standings.places`, the same on every web worker, at most ``PLACES_BOUND_SECONDS``
    behind the points.

    ``place`` is the rank in the federation (equal keys share it: 1, 2, 2, 4), ``position`` the row's
    number in the list's order (key descending, then player id): a page of the list is a range of
    positions, read from an index whatever its depth. ``district`` is the district of the player's home
    club (its district region, else the district of its circle), with the place and position there;
    ``club_place`` the rank among the current members of the home club; ``ranking_place`` the place on
    DBf's ranking list (D-Q60). Rows are written only where a value changed.
    """

    standing = models.OneToOneField(
        Standing,
        on_delete=models.DO_NOTHING,
        primary_key=True,
        db_constraint=False,
        related_name="placing",
        verbose_name=_("standing"),
    )
    federation = models.ForeignKey(
        Federation, on_delete=models.DO_NOTHING, related_name="+", db_index=False, db_constraint=False
    )
    position = models.PositiveIntegerField(_("position"))
    place = models.PositiveIntegerField(_("place"))
    district = models.ForeignKey(
        "federation.Region",
        on_delete=models.DO_NOTHING,
        null=True,
        related_name="+",
        db_index=False,
        db_constraint=False,
    )
    district_position = models.PositiveIntegerField(_("position in the district"), null=True)
    district_place = models.PositiveIntegerField(_("place in the district"), null=True)
    club = models.ForeignKey(
        "clubs.Club", on_delete=models.DO_NOTHING, null=True, related_name="+", db_index=False, db_constraint=False
    )
    club_place = models.PositiveIntegerField(_("place in the club"), null=True)
    ranking_place = models.PositiveIntegerField(_("place on the ranking list"), null=True)

    class Meta:
        verbose_name = _("standing place")
        verbose_name_plural = _("standing places")
        indexes = [
            models.Index(fields=["federation", "position"], name="place_fed_position"),
            models.Index(fields=["district", "district_position"], name="place_district_position"),
        ]

    def __str__(self) -> str:
        return f"{self.standing_id}: {self.place}"


class StandingPlaces(models.Model):
    """When a federation's places (:class:`StandingPlace`) were last derived: from which standings version
    and for which day (the official list follows dues paid), and how many players the list then held."""

    federation = models.OneToOneField(
        Federation, on_delete=models.CASCADE, primary_key=True, related_name="standing_places"
    )
    version = models.CharField(_("standings version"), max_length=60, blank=True)
    day = models.DateField(_("day"), null=True)
    listed = models.PositiveIntegerField(_("players listed"), default=0)
    district_sizes = models.JSONField(_("players listed per district"), default=dict)
    refreshed_at = models.DateTimeField(_("refreshed"), null=True)

    class Meta:
        verbose_name = _("standing places")
        verbose_name_plural = _("standing places")

    def __str__(self) -> str:
        return f"{self.federation_id}: {self.version}"


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
        indexes = [models.Index(fields=["federation", "season", "-sort_key", "player"], name="season_fed_key_player")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.season}"


class RankingListEntry(models.Model):
    """A player's figure on DBf's ranking list ("ranglisten"), derived from the ledger like :class:`Standing`
    (:mod:`masterpoints.standings.ranking_list`; the weights in ``federation.schemes``).

    ``score`` is exact: the figure in hundredths of MP times the scheme's denominator (DBf 11, D-Q60), so the
    figure in MP is ``score / 1100``. The weights move with the calendar, so a row also keeps the first day
    its figure would change with no new award (``changes_on``); on that day it is recomputed (D-Q59).
    Only players with a figure other than 0 have a row.
    """

    player = models.OneToOneField(
        Player, on_delete=models.CASCADE, primary_key=True, related_name="ranking_entry", verbose_name=_("player")
    )
    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="+", db_index=False)
    score = models.BigIntegerField(_("exact ranking figure"))
    changes_on = models.DateField(_("changes on"), null=True, blank=True)

    class Meta:
        verbose_name = _("ranking list entry")
        verbose_name_plural = _("ranking list entries")
        indexes = [
            models.Index(fields=["federation", "-score"], name="ranking_entry_fed_score"),
            models.Index(fields=["changes_on"], name="ranking_entry_changes"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.score}"


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
    ``reached_on`` is the day the registration made the balances reach the rung: the first day (the
    local date of ``Award.created_at``, when the entry was written to the ledger) whose balances reach it (§ 404A "efter
    registrering", D-Q21; HBS categories alike). Rows written before D-Q21 keep the date of the player's
    latest award then. ``announced_at`` is set once, by the monthly title e-mail.
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


class StandingsProof(models.Model):
    """What the last full rebuild proved right (:mod:`masterpoints.standings.proof`): for one
    scope of a federation (a season's rows, the standings, the ranking list), a fingerprint of what the rows
    are derived from and one of the rows as stored, after the rebuild had made them right. While both are
    unchanged, the rows are still right and the next rebuild need not regroup the ledger for them."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="+", db_index=False)
    scope = models.CharField(_("scope"), max_length=40, help_text=_("“season 2024”, “standings” or “ranking list”."))
    sources = models.CharField(_("fingerprint of the sources"), max_length=64)
    rows = models.CharField(_("fingerprint of the stored rows"), max_length=64)
    proven_on = models.DateField(_("proven on"))
    due_on = models.DateField(
        _("due on"),
        null=True,
        blank=True,
        help_text=_("The ranking list: the first day a figure of 0, so not on the list, changes (D-Q59)."),
    )

    class Meta:
        verbose_name = _("standings proof")
        verbose_name_plural = _("standings proofs")
        constraints = [models.UniqueConstraint(fields=["federation", "scope"], name="standings_proof_once")]

    def __str__(self) -> str:
        return f"{self.federation_id}: {self.scope} ({self.proven_on:%Y-%m-%d})"
