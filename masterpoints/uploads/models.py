"""What the upload remembers between a club's files: the players its director resolved, and the club ids its
files name."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from federation.models import Federation, Player


class RememberedResolution(models.Model):
    """A club's file name and file number that its director resolved to a member: the next upload of the
    club with the same name (folded, :func:`federation.names.fold_name`) and number takes that member, with
    the notice ``RESOLUTION_REMEMBERED``. Recorded when an upload with the resolution is confirmed
    (``results_upload_confirm``); a later resolution of the same name and number replaces it."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="remembered_resolutions")
    name_in_file = models.CharField(_("name in the file (folded)"), max_length=200)
    id_in_file = models.CharField(_("number in the file"), max_length=40, blank=True)
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="remembered_resolutions", verbose_name=_("member")
    )
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, verbose_name=_("resolved by")
    )
    updated_at = models.DateTimeField(_("last resolved"), auto_now=True)

    class Meta:
        ordering = ["club", "name_in_file", "id_in_file"]
        verbose_name = _("remembered resolution")
        verbose_name_plural = _("remembered resolutions")
        constraints = [
            models.UniqueConstraint(fields=["club", "name_in_file", "id_in_file"], name="remembered_once_per_club"),
        ]

    def __str__(self) -> str:
        return f"{self.name_in_file} ({self.id_in_file or '–'}) → {self.player}"


def club_id_key(value: str) -> str:
    """A club id as written in results files, compared like the preview compares club numbers: stripped,
    and without leading zeros when it is all digits (``0555002`` = ``555002``)."""
    value = value.strip()
    return (value.lstrip("0") or "0") if value.isdecimal() else value


class ClubAlias(models.Model):
    """A club id that results files name for a club other than its number on the register, recorded by the
    club's director (or the secretariat) from an upload's ``CLUB_MISMATCH``: later uploads of that club with
    that id are the club's own (notice ``CLUB_ALIAS``). One club per id and federation, by constraint, so two
    clubs cannot claim the same id (D-Q40)."""

    federation = models.ForeignKey(
        Federation, on_delete=models.CASCADE, related_name="club_aliases", verbose_name=_("federation")
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="aliases", verbose_name=_("club"))
    file_club_id = models.CharField(_("club id in files"), max_length=40)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, verbose_name=_("recorded by")
    )
    recorded_at = models.DateTimeField(_("recorded"), auto_now_add=True)

    class Meta:
        ordering = ["club", "file_club_id"]
        verbose_name = _("club id in files")
        verbose_name_plural = _("club ids in files")
        constraints = [
            models.UniqueConstraint(fields=["federation", "file_club_id"], name="club_alias_once_per_federation"),
        ]

    def __str__(self) -> str:
        return f"{self.file_club_id} → {self.club}"
