"""The players an upload left to the office, one case each, until the secretariat resolves them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from federation.models import Federation, Player
from federation.schemes import decimals_of
from masterpoints.engine.common import format_units
from tournaments.models import Participation, Tournament


class ProvisionalPlayer(models.Model):
    """A player the register does not know (yet), as the result files name them: the points of their cases are
    computed and held, on no public list, until they join or the office merges them into a member (DBf appendix
    B, "Registrering af MP": "Ved et medlems indmeldelse i en klub, medregnes eventuelle tidligere registrerede
    MP automatisk"; HBS rule 4). Uploads that name the same number, or the same folded name in the same club
    without a number, hold their points on the same provisional player."""

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="provisional_players")
    name = models.CharField(_("name in file"), max_length=200)
    #: The number the files gave (not on the register when it was first held); empty: none.
    number = models.CharField(_("number in file"), max_length=40, blank=True)
    #: The folded name (``federation.names.fold_name``): who is the same person when no number is given.
    folded_name = models.CharField(max_length=200, blank=True)
    club = models.ForeignKey(
        "clubs.Club", on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("club")
    )
    created_at = models.DateTimeField(_("first held"), auto_now_add=True)
    member = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="provisional_records",
        verbose_name=_("credited to member"),
    )
    credited_at = models.DateTimeField(_("credited"), null=True, blank=True)
    credited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "pk"]
        verbose_name = _("provisional player")
        verbose_name_plural = _("provisional players")
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "number"], condition=~Q(number=""), name="provisional_one_per_number"
            ),
            models.CheckConstraint(
                condition=Q(member__isnull=True, credited_at__isnull=True)
                | Q(member__isnull=False, credited_at__isnull=False),
                name="provisional_credit_complete",
            ),
        ]

    def __str__(self) -> str:
        number = f" ({self.number})" if self.number else ""
        return f"{self.name}{number}"

    @property
    def is_held(self) -> bool:
        return self.member_id is None


class OfficeCase(models.Model):
    """A player of a confirmed upload whose director left them to the office ("ask the office: no points
    until it decides"), with the awards the engine computed for them when the upload was confirmed.

    One case per participation (a constraint); the secretariat resolves it once, to a member (an existing
    one or one it adds to the register) who then receives those awards, or to a guest (D-Q48)."""

    class Status(models.TextChoices):
        OPEN = "open", _("waiting for the office")
        MEMBER = "member", _("resolved to a member")
        GUEST = "guest", _("resolved as a guest")

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="office_cases")
    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="office_cases", verbose_name=_("tournament")
    )
    participation = models.OneToOneField(Participation, on_delete=models.PROTECT, related_name="office_case")
    name_in_file = models.CharField(_("name in file"), max_length=200, blank=True)
    id_in_file = models.CharField(_("number in file"), max_length=40, blank=True)
    group = models.CharField(_("group"), max_length=100, blank=True)
    place_first = models.PositiveIntegerField(_("place"), null=True, blank=True)
    place_last = models.PositiveIntegerField(_("tied down to"), null=True, blank=True)
    #: ``[{"kind", "units", "part", "explanation"}, …]``: what the engine gave this player at the confirm.
    awards = models.JSONField(_("points they would get"), default=list, blank=True)
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.OPEN)
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="office_cases",
        verbose_name=_("member"),
    )
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    resolved_at = models.DateTimeField(_("resolved"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    #: Whose points these are while the register does not know them.
    provisional = models.ForeignKey(
        ProvisionalPlayer,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="cases",
        verbose_name=_("provisional player"),
    )

    class Meta:
        ordering = ["status", "-tournament__date", "pk"]
        verbose_name = _("player left to the office")
        verbose_name_plural = _("players left to the office")
        constraints = [
            models.CheckConstraint(
                condition=Q(status="open", resolved_at__isnull=True, player__isnull=True)
                | Q(status="member", resolved_at__isnull=False, player__isnull=False)
                | Q(status="guest", resolved_at__isnull=False, player__isnull=True),
                name="office_case_resolution_complete",
            ),
        ]

    def __str__(self) -> str:
        number = f" ({self.id_in_file})" if self.id_in_file else ""
        return f"{self.name_in_file}{number}: {self.tournament}"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    @property
    def points(self) -> str:
        """The awards as amounts of their kinds (``"12 BP, 0.5 SP"``), ``"–"`` for none."""
        shown = [f"{format_units(a['units'], decimals_of(a['kind']))} {a['kind']}" for a in self.awards]
        return ", ".join(shown) or "–"
