"""Offices: who acts for which club, region or federation (club directors, region officers, secretariat,
commission). Whether an office lets its holder act is decided in :mod:`office.access`."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from federation.models import Federation, Region


class Officer(models.Model):
    """A person's office: club director of a club, officer of a region, secretariat or commission member.

    Club directors and region officers work on the site's own pages; secretariat and commission members
    also use the admin, through the Django groups of the same names (see ``office.access``).
    """

    class Role(models.TextChoices):
        CLUB_DIRECTOR = "club_director", _("club director")
        REGION_OFFICER = "region_officer", _("district or circle officer")
        SECRETARIAT = "secretariat", _("secretariat")
        COMMISSION = "commission", _("commission member")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="offices")
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)
    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="officers")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, null=True, blank=True, related_name="officers")
    region = models.ForeignKey(Region, on_delete=models.CASCADE, null=True, blank=True, related_name="officers")

    class Meta:
        ordering = ["federation", "role"]
        verbose_name = _("officer")
        verbose_name_plural = _("officers")
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(role="club_director", club__isnull=False, region__isnull=True)
                    | Q(role="region_officer", club__isnull=True, region__isnull=False)
                    | Q(role__in=["secretariat", "commission"], club__isnull=True, region__isnull=True)
                ),
                name="officer_scope_matches_role",
                violation_error_message=_(
                    "A club director needs a club, a region officer a region; the secretariat and the "
                    "commission act for the whole federation."
                ),
            ),
            models.UniqueConstraint(
                fields=["user", "club"], condition=Q(role="club_director"), name="officer_director_once_per_club"
            ),
            models.UniqueConstraint(
                fields=["user", "region"], condition=Q(role="region_officer"), name="officer_once_per_region"
            ),
            models.UniqueConstraint(
                fields=["user", "role", "federation"],
                condition=Q(role__in=["secretariat", "commission"]),
                name="officer_staff_role_once",
            ),
        ]

    def __str__(self) -> str:
        scope = self.club or self.region or self.federation
        return f"{self.user} – {self.get_role_display()} – {scope}"


class ApiTokenQuerySet(models.QuerySet):
    def active(self):
        return self.filter(revoked_at__isnull=True)


class ApiToken(models.Model):
    """A scoring program's key to the upload API, for one club or one region.

    Only the SHA-256 digest of the secret is stored: the secret is shown once, when the token is made, and
    cannot be read back. A token calls in the name of the officer who made it and only for its own club or
    region, as long as that officer may still upload for it (``office.access``); a revoked token is refused.
    """

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="api_tokens")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, null=True, blank=True, related_name="api_tokens")
    region = models.ForeignKey(Region, on_delete=models.CASCADE, null=True, blank=True, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=100, help_text=_("Which program or computer uses it."))
    #: The secret's first characters, shown to tell tokens apart (not enough to guess the rest).
    prefix = models.CharField(_("starts with"), max_length=16)
    digest = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="api_tokens_created", verbose_name=_("made by")
    )
    created_at = models.DateTimeField(_("made"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="api_tokens_revoked",
        verbose_name=_("revoked by"),
    )

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        constraints = [
            models.CheckConstraint(
                condition=Q(club__isnull=False, region__isnull=True) | Q(club__isnull=True, region__isnull=False),
                name="api_token_one_organiser",
                violation_error_message=_("An API token acts for one club or one region."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…) – {self.organiser}"

    @property
    def organiser(self):
        return self.club or self.region

    @staticmethod
    def digest_of(secret: str) -> str:
        """The stored form of a secret: its SHA-256 (the secret has 256 random bits: no slow hash is needed)."""
        return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
