"""Clubs, their playing times (spilletidspunkter) and memberships."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.models import Federation, Player, Region

#: The earliest founding year a club can have: 1886, when the first printed rules of bridge appeared (John
#: Collinson, "Biritch, or Russian Whist", London 1886); no bridge club is older than the game. It bounds a
#: year typed in the admin (a "1097" for 1997 is refused) and is the reference of the club's jubilee years
#: (DBf § 403B4, D-Q25).
FIRST_FOUNDING_YEAR = 1886


def validate_founding_year_not_in_future(year: int | None) -> None:
    """A club cannot have been founded after the current year (in the site's time zone)."""
    this_year = timezone.localdate().year
    if year is not None and year > this_year:
        raise ValidationError(
            _("The founding year %(year)s lies in the future; it can be %(this_year)s at the latest."),
            code="founding_year_in_future",
            params={"year": year, "this_year": this_year},
        )


class Club(models.Model):
    """A member club, identified by its federation number (unique within the federation).

    ``founding_year`` is the year the club was founded, recorded by the secretariat: DBf grants GP in the
    years the club celebrates a jubilee, "et med 5 deleligt antal år" (§ 403B4, D-Q25).
    """

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="clubs")
    number = models.CharField(_("club number"), max_length=20)
    name = models.CharField(_("name"), max_length=200)
    regions = models.ManyToManyField(Region, blank=True, related_name="clubs", verbose_name=_("regions"))
    email = models.EmailField(_("e-mail"), blank=True)
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, blank=True, help_text=_("For e-mails to the club.")
    )
    active = models.BooleanField(_("active"), default=True)
    founding_year = models.PositiveSmallIntegerField(
        _("founding year"),
        null=True,
        blank=True,
        validators=[MinValueValidator(FIRST_FOUNDING_YEAR), validate_founding_year_not_in_future],
        help_text=_("The year the club was founded: its jubilee years count from it (DBf § 403B4)."),
    )

    class Meta:
        ordering = ["federation", "name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        constraints = [
            models.UniqueConstraint(fields=["federation", "number"], name="club_number_unique_in_federation"),
            models.CheckConstraint(
                condition=Q(founding_year__isnull=True) | Q(founding_year__gte=FIRST_FOUNDING_YEAR),
                name="club_founding_year_not_before_bridge",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.number})"

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("clubs:detail", args=[self.pk])


class PlayingTime(models.Model):
    """A club's regular weekly session, e.g. Monday evening: DBf counts top-16 lists (§ 452) and
    sanctions (§ 403A, § 403B6) per playing time."""

    class Weekday(models.IntegerChoices):
        MONDAY = 0, _("Monday")
        TUESDAY = 1, _("Tuesday")
        WEDNESDAY = 2, _("Wednesday")
        THURSDAY = 3, _("Thursday")
        FRIDAY = 4, _("Friday")
        SATURDAY = 5, _("Saturday")
        SUNDAY = 6, _("Sunday")

    class PartOfDay(models.TextChoices):
        MORNING = "morning", _("morning")
        AFTERNOON = "afternoon", _("afternoon")
        EVENING = "evening", _("evening")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="playing_times")
    weekday = models.PositiveSmallIntegerField(_("weekday"), choices=Weekday.choices)
    part_of_day = models.CharField(_("part of day"), max_length=10, choices=PartOfDay.choices)
    active = models.BooleanField(_("active"), default=True)

    class Meta:
        ordering = ["club", "weekday", "part_of_day"]
        verbose_name = _("playing time")
        verbose_name_plural = _("playing times")
        constraints = [
            models.UniqueConstraint(fields=["club", "weekday", "part_of_day"], name="playing_time_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.get_weekday_display()} {self.get_part_of_day_display()}"


class ClubMembership(models.Model):
    """A player's membership of a club; exactly one current membership may be the player's home club."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="memberships")
    is_home = models.BooleanField(_("home club"), default=False)
    since = models.DateField(_("since"), null=True, blank=True)
    until = models.DateField(_("until"), null=True, blank=True)

    class Meta:
        ordering = ["club", "player"]
        verbose_name = _("club membership")
        verbose_name_plural = _("club memberships")
        constraints = [
            models.UniqueConstraint(fields=["player", "club"], name="membership_once_per_club"),
            models.UniqueConstraint(fields=["player"], condition=Q(is_home=True), name="membership_one_home_club"),
            models.CheckConstraint(
                condition=Q(until__isnull=True) | Q(since__isnull=True) | Q(until__gte=models.F("since")),
                name="membership_until_after_since",
            ),
        ]
        # The rankings' region filter and the rank index read the home members of a region's clubs from
        # the index alone, never from the table.
        indexes = [models.Index(fields=["club", "player"], condition=Q(is_home=True), name="membership_home_members")]

    def __str__(self) -> str:
        return f"{self.player} @ {self.club}"
