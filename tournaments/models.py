"""Tournaments as confirmed from an uploaded results file, and the uploads themselves.

A :class:`ResultUpload` keeps the original bytes with their SHA-256 from the moment of upload; confirming
it (``masterpoints.uploads.services.results_upload_confirm``) creates the :class:`Tournament` with its ranking
groups, entries and participations, and the awards in the ledger, in one transaction.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from federation.decisions import Decided
from federation.models import Federation, Player, Region
from federation.schemes import kind_choices
from tournaments.choices import Form, OrganiserKind


def upload_path(instance: ResultUpload, filename: str) -> str:
    return f"uploads/{instance.sha256[:2]}/{instance.sha256}"


class ResultUpload(models.Model):
    """One uploaded results file, stored byte for byte before parsing, and the director's choices for it."""

    class Status(models.TextChoices):
        PENDING = "pending", _("awaiting confirmation")
        CONFIRMED = "confirmed", _("confirmed")
        DISCARDED = "discarded", _("discarded")

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="uploads")
    club = models.ForeignKey(Club, on_delete=models.PROTECT, null=True, blank=True, related_name="uploads")
    region = models.ForeignKey(Region, on_delete=models.PROTECT, null=True, blank=True, related_name="uploads")
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="uploads",
        help_text=_("Empty for files imported on the server with import_results."),
    )
    file = models.FileField(_("file"), upload_to=upload_path)
    original_name = models.CharField(_("file name"), max_length=255)
    sha256 = models.CharField(_("SHA-256"), max_length=64, db_index=True)
    size = models.PositiveIntegerField(_("size in bytes"))
    #: What the content is, as sniffed at upload (``usebio``, ``pbn``, ``text`` …); the reader's own
    #: name for it (``usebio``, ``pbn``, ``csv``) once the upload is confirmed.
    format = models.CharField(_("format"), max_length=20, blank=True)
    facts = models.JSONField(_("tournament facts"), default=dict, blank=True)
    resolutions = models.JSONField(_("player resolutions"), default=dict, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(_("uploaded"), auto_now_add=True)
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)
    #: What the preview page shows, stored once (``masterpoints.uploads.summary``): built again only when the
    #: fingerprint of what it depends on (file, facts, resolutions …) changes or it grows old. Derived data:
    #: confirming recomputes the preview and never reads it.
    preview_summary = models.JSONField(_("preview summary"), default=dict, blank=True, editable=False)
    preview_fingerprint = models.CharField(_("preview fingerprint"), max_length=64, blank=True, editable=False)
    preview_built_at = models.DateTimeField(_("preview built"), null=True, blank=True, editable=False)
    #: The granted sanction (DBf § 403B1–2) the confirmed upload's SP or GP came from; set when confirming.
    sanction = models.ForeignKey(
        "tournaments.Sanction",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="uploads",
        verbose_name=_("sanction"),
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("results upload")
        verbose_name_plural = _("results uploads")

    def __str__(self) -> str:
        return f"{self.original_name} ({self.created_at:%Y-%m-%d})" if self.created_at else self.original_name


class TournamentQuerySet(models.QuerySet):
    def current(self):
        """Tournaments not superseded by a re-upload."""
        return self.filter(is_current=True)


class Tournament(models.Model):
    """A tournament whose results were confirmed; re-uploading the same event supersedes it."""

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="tournaments")
    organiser_kind = models.CharField(_("organiser"), max_length=12, choices=OrganiserKind.choices)
    club = models.ForeignKey(Club, on_delete=models.PROTECT, null=True, blank=True, related_name="tournaments")
    region = models.ForeignKey(Region, on_delete=models.PROTECT, null=True, blank=True, related_name="tournaments")
    name = models.CharField(_("name"), max_length=200)
    event_key = models.CharField(
        _("event key"), max_length=300, help_text=_("Club, date and event id or description: the re-upload key.")
    )
    date = models.DateField(_("date"))
    form = models.CharField(_("form"), max_length=12, choices=Form.choices)
    category = models.CharField(
        _("category"), max_length=8, choices=kind_choices, help_text=_("DBf: BP, SP or GP; HBS: the main kind.")
    )
    boards = models.PositiveIntegerField(_("boards"), help_text=_("Boards of the whole tournament (per day for BP)."))
    rows = models.PositiveSmallIntegerField(_("rows"), default=1)
    split_by_strength = models.BooleanField(_("rows split by strength"), default=False)
    met = models.PositiveIntegerField(
        _("opponents met"), null=True, blank=True, help_text=_("Empty when everyone met everyone (§ 405B6d, B7d).")
    )
    robots = models.BooleanField(_("played against robots"), default=False)
    strengths = models.JSONField(
        _("HBS strengths"), default=dict, blank=True, help_text=_('HBS: S per point kind, e.g. {"black": "1.0"}.')
    )
    #: The club's weekly playing time the tournament was played in (§ 452A "hver ugentlig spilleperiode for
    #: sig", § 403A2): chosen at upload, defaulted from the weekday and the start time; empty for a
    #: tournament outside the club's regular sessions.
    playing_time = models.ForeignKey(
        "clubs.PlayingTime",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournaments",
        verbose_name=_("playing time"),
    )
    #: The DBf simultaneous event the club's tournament was played in (§ 403A1): its automatic SP, and for
    #: Klubsølv and the alternative Klubsølv the one choice that excludes the other (§ 453).
    simultaneous_event = models.ForeignKey(
        "tournaments.SimultaneousEvent",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournaments",
        verbose_name=_("simultaneous event"),
    )
    #: What the results file was: format, dialect, scoring program, scoring method, encoding read ("facts"
    #: are only ever the director's statements on the upload, ``ResultUpload.facts``).
    file_info = models.JSONField(_("results file"), default=dict, blank=True)
    upload = models.OneToOneField(
        ResultUpload, on_delete=models.PROTECT, null=True, blank=True, related_name="tournament"
    )
    supersedes = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="superseded_by"
    )
    #: The granted sanction (DBf § 403B1–2) its SP or GP came from. A sanction pays the one tournament its
    #: application names (§ 403B1, § 403B7, D-Q24): at most one current tournament per sanction (a constraint),
    #: while the versions a re-upload superseded keep theirs.
    sanction = models.ForeignKey(
        "tournaments.Sanction",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournaments",
        verbose_name=_("sanction"),
    )
    #: False once a re-upload superseded it. At most one current tournament per event (a constraint), so two
    #: confirms of one event at once cannot both stand.
    is_current = models.BooleanField(_("current"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = TournamentQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        indexes = [models.Index(fields=["federation", "event_key"]), models.Index(fields=["date"])]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(organiser_kind="club", club__isnull=False, region__isnull=True)
                    | Q(organiser_kind__in=["district", "circle"], region__isnull=False, club__isnull=True)
                    | Q(organiser_kind="federation", club__isnull=True, region__isnull=True)
                ),
                name="tournament_organiser_matches_kind",
            ),
            models.CheckConstraint(condition=Q(boards__gte=1), name="tournament_has_boards"),
            models.UniqueConstraint(
                fields=["federation", "event_key"],
                condition=Q(is_current=True),
                name="tournament_one_current_per_event",
                violation_error_message=_("Another upload of this event is already the current version."),
            ),
            models.UniqueConstraint(
                fields=["sanction"],
                condition=Q(is_current=True, sanction__isnull=False),
                name="tournament_one_current_per_sanction",
                violation_error_message=_("The sanction already pays another tournament (§ 403B1, § 403B7)."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date:%Y-%m-%d})"

    def get_absolute_url(self) -> str:
        return reverse("public:tournament", args=[self.pk])

    @property
    def organiser(self):
        return self.club or self.region or self.federation

    @property
    def top16(self) -> str:
        """The top-16 the club claimed in its upload (§ 403A2, § 443B2): ``"playing_time"`` (one of the
        tournament's playing time), ``"combined"`` (the club's combined one) or ``""`` (not a top-16)."""
        facts = self.upload.facts if self.upload_id else {}
        if facts.get("special") != "top16":
            return ""
        return "combined" if facts.get("top16") == "combined" else "playing_time"


class RankingGroup(models.Model):
    """A group ranked on its own: a row or section, or one direction of a Mitchell (formats.md § 1.5)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="groups")
    key = models.CharField(_("key"), max_length=60)
    name = models.CharField(_("name"), max_length=100)
    row_number = models.PositiveSmallIntegerField(_("row (1 = top)"), default=1)
    field_size = models.PositiveIntegerField(_("field size"))

    class Meta:
        ordering = ["tournament", "row_number", "key"]
        constraints = [models.UniqueConstraint(fields=["tournament", "key"], name="group_key_unique")]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A pair, player or team in a ranking group, with the places it occupies (a tie spans several)."""

    group = models.ForeignKey(RankingGroup, on_delete=models.CASCADE, related_name="entries")
    key = models.CharField(_("key"), max_length=80)
    number = models.CharField(_("number"), max_length=30)
    name = models.CharField(_("name"), max_length=200, blank=True)
    place_first = models.PositiveIntegerField(_("place"))
    place_last = models.PositiveIntegerField(_("tied down to"))
    score = models.DecimalField(_("score"), max_digits=12, decimal_places=4, null=True, blank=True)
    percentage = models.DecimalField(_("percentage"), max_digits=7, decimal_places=3, null=True, blank=True)

    class Meta:
        ordering = ["group", "place_first", "number"]
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["group", "key"], name="entry_key_unique"),
            models.CheckConstraint(condition=Q(place_last__gte=models.F("place_first")), name="entry_places_ordered"),
        ]

    def __str__(self) -> str:
        return f"{self.number} {self.name}".strip()

    @property
    def tied(self) -> bool:
        return self.place_last > self.place_first


class Participation(models.Model):
    """A player of an entry as read from the file, and how the director resolved them."""

    class Resolution(models.TextChoices):
        MEMBER = "member", _("member")
        GUEST = "guest", _("guest without points")
        OFFICE = "office", _("left to the office")

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="participations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, null=True, blank=True, related_name="participations")
    name_in_file = models.CharField(_("name in file"), max_length=200, blank=True)
    id_in_file = models.CharField(_("number in file"), max_length=40, blank=True)
    boards_played = models.PositiveIntegerField(_("boards played"), null=True, blank=True)
    resolution = models.CharField(_("resolution"), max_length=8, choices=Resolution.choices)

    class Meta:
        ordering = ["entry", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(resolution="member", player__isnull=False) | ~Q(resolution="member"),
                name="participation_member_has_player",
            ),
        ]

    def __str__(self) -> str:
        return str(self.player or self.name_in_file)


# --- HBS recognised tournaments (H-1, H-4, rules 2 and 10) --------------------------------------------


class RecognisedTournament(models.Model):
    """An entry of HBS's annual named list of recognised tournaments: the kinds it awards, each with its
    strength S (H-1, H-4). A tourist tournament on the list scores only once HBS approved it (rule 2)."""

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="recognised_tournaments")
    year = models.PositiveSmallIntegerField(_("year"))
    name = models.CharField(_("name"), max_length=200)
    club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="recognised_tournaments",
        help_text=_("The organising club; empty for events of the federation or of several organisers."),
    )
    tourist = models.BooleanField(_("tourist tournament"), default=False, help_text=_("Needs HBS's approval (rule 2)."))
    note = models.TextField(_("note"), blank=True)

    class Meta:
        ordering = ["-year", "name"]
        verbose_name = _("recognised tournament")
        verbose_name_plural = _("recognised tournaments")
        constraints = [
            models.UniqueConstraint(fields=["federation", "year", "name"], name="recognised_name_unique_per_year"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.year})"

    @property
    def kinds(self) -> list[tuple[str, str]]:
        """``[(kind, S), …]`` in the order black, red, master (H-1)."""
        order = {kind: index for index, kind in enumerate(("black", "red", "master"))}
        return sorted(((a.kind, str(a.strength)) for a in self.awards.all()), key=lambda pair: order[pair[0]])


#: H-17: the largest B the list may fix in advance: five times the master points velemajstor needs (200), more
#: than one event should ever give; the formula reaches a few hundred only for a season-long league (rule 8).
FIXED_B_MAX = 1000
#: H-17: at most this many bands by field size ("nekoliko kategorija ovisno o veličini turnira": a few).
FIXED_B_BANDS_MAX = 10


class RecognisedAward(models.Model):
    """One kind a listed tournament awards, with its strength S (H-1, H-4) and, for a fixed official event,
    B fixed in advance or by bands of field size instead of the formula (Način bodovanja 3, alternative:
    "Bodove za fiksna službena nacionalna i međunarodna natjecanja unaprijed se određuju u fiksnom iznosu.
    Eventualno može postojati nekoliko kategorija ovisno o veličini turnira."; H-8, H-17)."""

    KINDS = [("black", _("black points (crni)")), ("red", _("red points (crveni)")), ("master", _("master points"))]

    tournament = models.ForeignKey(RecognisedTournament, on_delete=models.CASCADE, related_name="awards")
    kind = models.CharField(_("kind"), max_length=8, choices=KINDS)
    strength = models.DecimalField(_("strength S"), max_digits=6, decimal_places=3)
    first_place = models.DecimalField(
        _("fixed B"),
        max_digits=6,
        decimal_places=2,
        null=True,
        blank=True,
        help_text=_("Points for first place fixed in advance (H-8); empty: the formula."),
    )
    #: ``[[N_min, "B"], …]``, ascending N_min: the B of the band with the largest N_min ≤ N (H-8).
    bands = models.JSONField(_("B by field size"), default=list, blank=True)

    class Meta:
        ordering = ["tournament", "kind"]
        verbose_name = _("point kind of a recognised tournament")
        verbose_name_plural = _("point kinds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "kind"], name="recognised_kind_once"),
            models.CheckConstraint(condition=Q(strength__gt=0), name="recognised_strength_positive"),
            models.CheckConstraint(
                condition=Q(first_place__isnull=True) | Q(first_place__gt=0, first_place__lte=FIXED_B_MAX),
                name="recognised_fixed_b_bounded",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} S={self.strength}"

    @property
    def fixed_b(self) -> dict:
        """What an upload scores instead of the formula (H-8): ``{"first_place": "40.00"}``, ``{"bands": […]}``
        or ``{}`` for the formula."""
        if self.first_place is not None:
            return {"first_place": str(self.first_place)}
        return {"bands": [list(band) for band in self.bands]} if self.bands else {}


class TouristApproval(Decided):
    """HBS's decision on a tourist tournament in Croatia: only an approved one is scored (rule 2)."""

    class Status(models.TextChoices):
        REQUESTED = "requested", _("requested")
        APPROVED = "approved", _("approved")
        REFUSED = "refused", _("refused")

    tournament = models.OneToOneField(
        RecognisedTournament, on_delete=models.PROTECT, related_name="tourist_approval", verbose_name=_("tournament")
    )
    organiser = models.CharField(_("organiser"), max_length=200, help_text=_("Who runs it, e.g. a travel agency."))
    place = models.CharField(_("place"), max_length=200)
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"))
    contact_email = models.EmailField(_("contact e-mail"), blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.REQUESTED)

    class Meta:
        ordering = ["-starts_on"]
        verbose_name = _("tourist tournament approval")
        verbose_name_plural = _("tourist tournament approvals")
        constraints = [
            models.CheckConstraint(condition=Q(ends_on__gte=models.F("starts_on")), name="tourist_dates_ordered"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – {self.get_status_display()}"


class DirectorLicence(models.Model):
    """HBS's licence for an internet tournament director: their tournaments count, and they report them
    (rule 10). Valid from ``valid_from`` to ``valid_until`` unless revoked."""

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="director_licences")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="director_licences", verbose_name=_("director")
    )
    number = models.CharField(_("licence number"), max_length=40)
    valid_from = models.DateField(_("valid from"))
    valid_until = models.DateField(_("valid until"))
    granted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+")
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    revoke_reason = models.TextField(_("reason for revoking"), blank=True)

    class Meta:
        ordering = ["-valid_until"]
        verbose_name = _("internet director licence")
        verbose_name_plural = _("internet director licences")
        constraints = [
            models.UniqueConstraint(fields=["federation", "number"], name="licence_number_unique"),
            models.CheckConstraint(condition=Q(valid_until__gte=models.F("valid_from")), name="licence_dates_ordered"),
        ]

    def __str__(self) -> str:
        return f"{self.number} – {self.user}"


# The sanctions' models live in their package; importing them here registers them with the app.
from tournaments.sanctions.models import Sanction, SanctionApplication, SimultaneousEvent  # noqa: E402

__all__ = [
    "DirectorLicence",
    "Entry",
    "Form",
    "OrganiserKind",
    "Participation",
    "RankingGroup",
    "RecognisedAward",
    "RecognisedTournament",
    "ResultUpload",
    "Sanction",
    "SanctionApplication",
    "SimultaneousEvent",
    "TouristApproval",
    "Tournament",
]
