"""The federation's own records: the federation, its regions, its players, rule sets and the audit log."""

from __future__ import annotations

from django.conf import settings
from django.db import models, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.appendonly import AppendOnlyModel, AppendOnlyQuerySet
from federation.names import search_name
from federation.schemes import SCHEME_CODE_LENGTH, scheme_choices, scheme_of


class Federation(models.Model):
    """A national federation; everything that differs between federations hangs off this row."""

    name = models.CharField(_("name"), max_length=200)
    code = models.SlugField(_("code"), max_length=20, unique=True, help_text=_("Short code, e.g. dbf or hbs."))
    #: Which rule book the federation's points follow: one registered with :mod:`federation.schemes`.
    scheme = models.CharField(_("points scheme"), max_length=SCHEME_CODE_LENGTH, choices=scheme_choices)
    default_language = models.CharField(_("default language"), max_length=8, choices=settings.LANGUAGES)
    time_zone = models.CharField(_("time zone"), max_length=64, default="Europe/Copenhagen")
    contact_email = models.EmailField(_("contact e-mail"), blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("federation")
        verbose_name_plural = _("federations")

    def __str__(self) -> str:
        return self.name

    @property
    def scheme_info(self):
        """What is structural about this federation's scheme (:mod:`federation.schemes`)."""
        return scheme_of(self.scheme)


class Region(models.Model):
    """A district (DBf distrikt) or a circle (DBf kreds, nested in a district), or an HBS region."""

    class Kind(models.TextChoices):
        DISTRICT = "district", _("district")
        CIRCLE = "circle", _("circle (kreds)")

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="regions")
    parent = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="children", verbose_name=_("part of")
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    code = models.SlugField(_("code"), max_length=30)
    name = models.CharField(_("name"), max_length=200)

    class Meta:
        ordering = ["federation", "name"]
        verbose_name = _("region")
        verbose_name_plural = _("regions")
        constraints = [
            models.UniqueConstraint(fields=["federation", "code"], name="region_code_unique_in_federation"),
            models.CheckConstraint(
                condition=Q(kind="district", parent__isnull=True) | Q(kind="circle", parent__isnull=False),
                name="region_circle_has_district",
                violation_error_message=_("A circle lies inside a district; a district stands alone."),
            ),
        ]

    def __str__(self) -> str:
        return self.name


class PlayerQuerySet(models.QuerySet):
    def on_official_list(self, on_date):
        """Members whose dues are paid on ``on_date`` (HBS rule 3; DBf counts members the same way), and
        guests who asked to be listed (HBS rule 4)."""
        return self.filter(official_list_q(on_date))

    def bulk_create(self, objs, *args, **kwargs):
        """Players written in bulk carry their search key too (``save()`` is not called for them)."""
        objs = list(objs)
        for player in objs:
            player.search_name = search_name(player.first_name, player.last_name)
        return super().bulk_create(objs, *args, **kwargs)

    def bulk_update(self, objs, fields, *args, **kwargs):
        """A bulk change of names rewrites the search key with them."""
        fields = list(fields)
        if {"first_name", "last_name"} & set(fields):
            objs = list(objs)
            for player in objs:
                player.search_name = search_name(player.first_name, player.last_name)
            fields = [*fields, "search_name"] if "search_name" not in fields else fields
        return super().bulk_update(objs, fields, *args, **kwargs)

    def update(self, **kwargs):
        """An ``update()`` of a name rewrites the search key of the rows it changed (the folding is Python's,
        so it is computed here, in the same transaction)."""
        if not {"first_name", "last_name"} & set(kwargs):
            return super().update(**kwargs)
        with transaction.atomic(using=self.db):
            ids = list(self.values_list("pk", flat=True))
            count = super().update(**kwargs)
            for start in range(0, len(ids), 1000):
                batch = self.model.objects.filter(pk__in=ids[start : start + 1000])
                changed = list(batch.only("first_name", "last_name"))
                for player in changed:
                    player.search_name = search_name(player.first_name, player.last_name)
                self.model.objects.bulk_update(changed, ["search_name"])
        return count


def official_list_q(on_date, prefix: str = "") -> Q:
    """Who stands on the official ranking list on ``on_date``: members with dues paid (HBS rule 3) and
    guests listed at their own request (HBS rule 4). ``prefix`` reaches the player through a relation."""
    return Q(**{f"{prefix}status": "member", f"{prefix}dues_paid_until__gte": on_date}) | Q(
        **{f"{prefix}status": "guest", f"{prefix}listed_on_request": True}
    )


class Player(models.Model):
    """A registered player, identified by the federation's registration number (never created by uploads)."""

    class Status(models.TextChoices):
        MEMBER = "member", _("member")
        GUEST = "guest", _("guest")
        LAPSED = "lapsed", _("lapsed")

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="players")
    number = models.CharField(
        _("registration number"),
        max_length=20,
        help_text=_("The federation's number (DBf medlemsnummer, matični broj)."),
    )
    first_name = models.CharField(_("first name"), max_length=100)
    last_name = models.CharField(_("last name"), max_length=100)
    email = models.EmailField(_("e-mail"), blank=True)
    birth_year = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.MEMBER)
    dues_paid_until = models.DateField(_("dues paid until"), null=True, blank=True)
    hide_name = models.BooleanField(
        _("hide my name on public lists"), default=False, help_text=_("Public lists then show the number only.")
    )
    listed_on_request = models.BooleanField(
        _("on the official list at own request"),
        default=False,
        help_text=_("A guest who asked to be put on the official ranking list (HBS rule 4)."),
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
        verbose_name=_("login"),
    )
    #: First and last name folded (:func:`federation.names.search_name`): what the name searches and the
    #: upload's name check compare with. Derived from the names on every save and bulk write, never edited.
    search_name = models.CharField(
        _("name for searching"), max_length=201, blank=True, editable=False, default="", db_default=""
    )

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["last_name", "first_name", "number"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(fields=["federation", "number"], name="player_number_unique_in_federation"),
            models.CheckConstraint(
                condition=Q(birth_year__isnull=True) | Q(birth_year__gte=1900, birth_year__lte=2100),
                name="player_birth_year_plausible",
            ),
        ]
        indexes = [
            models.Index(fields=["last_name", "first_name"]),
            models.Index(fields=["federation", "search_name"], name="player_search_name"),
        ]

    def __str__(self) -> str:
        return f"{self.full_name} ({self.number})"

    def save(self, *args, **kwargs):
        """Keep the search key with the names (also when ``update_fields`` names only a name)."""
        self.search_name = search_name(self.first_name, self.last_name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and {"first_name", "last_name"} & set(update_fields):
            kwargs["update_fields"] = {*update_fields, "search_name"}
        super().save(*args, **kwargs)

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    def on_official_list(self, on_date) -> bool:
        """Whether the player stands on the official list on ``on_date``: :func:`official_list_q` for one
        player already read (HBS rules 3 and 4)."""
        if self.status == self.Status.MEMBER:
            return self.dues_paid_until is not None and self.dues_paid_until >= on_date
        return self.status == self.Status.GUEST and self.listed_on_request


class RuleSet(models.Model):
    """A dated rule set of a federation's points engine, valid from ``valid_from`` until the next one.

    ``payload`` holds the engine's rule-set values as JSON (the engine's ``to_dict``); an empty payload
    means the engine's built-in set for that scheme. A tournament is computed with the set valid on its date.
    """

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="rule_sets")
    valid_from = models.DateField(_("valid from"))
    name = models.CharField(_("name"), max_length=200)
    payload = models.JSONField(_("rule values"), default=dict, blank=True)
    note = models.TextField(_("note"), blank=True)

    class Meta:
        ordering = ["federation", "-valid_from"]
        verbose_name = _("rule set")
        verbose_name_plural = _("rule sets")
        constraints = [
            models.UniqueConstraint(fields=["federation", "valid_from"], name="ruleset_one_per_date"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.valid_from:%Y-%m-%d})"


class AuditEventQuerySet(AppendOnlyQuerySet):
    refusal = "The audit log is append-only."


class AuditEvent(AppendOnlyModel):
    """One audited decision or change, written by a service in the same transaction (append-only)."""

    refusal = "The audit log is append-only: an audit event cannot be changed or deleted."

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, verbose_name=_("actor")
    )
    action = models.CharField(_("action"), max_length=100, help_text=_("Dotted code, e.g. results.upload.confirm"))
    target_type = models.CharField(_("target type"), max_length=100, blank=True)
    target_id = models.CharField(_("target id"), max_length=64, blank=True)
    target_repr = models.CharField(_("target"), max_length=300, blank=True)
    payload = models.JSONField(_("details"), default=dict, blank=True)
    created_at = models.DateTimeField(_("time"), auto_now_add=True, db_index=True)

    objects = AuditEventQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("audit event")
        verbose_name_plural = _("audit events")
        indexes = [models.Index(fields=["target_type", "target_id"]), models.Index(fields=["action"])]

    def __str__(self) -> str:
        return f"{self.action} {self.target_repr}"


class OutboxQuerySet(models.QuerySet):
    def pending(self):
        """Not yet sent or dispatched."""
        return self.filter(done_at__isnull=True)

    def due(self, now, max_attempts: int):
        """Pending rows whose next attempt has come and that have attempts left (oldest first)."""
        return self.pending().filter(next_attempt_at__lte=now, attempts__lt=max_attempts).order_by("next_attempt_at")


class Outbox(models.Model):
    """A side effect of a finished action (an e-mail, a Celery task), written in the action's own transaction
    and sent after commit by ``federation.tasks.outbox_drain`` with retries (design.md § Services), so that a
    broker or SMTP outage never turns the action into an error page and never loses the side effect.

    ``payload`` of a mail: the rendered message (``subject``, ``body``, ``html``, ``from_email``, ``to``, ``cc``);
    of a task: ``task`` (its registered name), ``args`` and ``kwargs``. ``done_at`` is set once sent or handed
    to the broker; until then ``next_attempt_at`` says when the next drain may take it
    (:mod:`federation.outbox`)."""

    class Kind(models.TextChoices):
        MAIL = "mail", _("e-mail")
        TASK = "task", _("task")

    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    payload = models.JSONField(_("content"))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    next_attempt_at = models.DateTimeField(_("next attempt"), default=timezone.now)
    done_at = models.DateTimeField(_("sent"), null=True, blank=True)
    last_error = models.TextField(_("last error"), blank=True)

    objects = OutboxQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("outbox entry")
        verbose_name_plural = _("outbox")
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=["mail", "task"]), name="outbox_kind_known"),
        ]
        indexes = [
            # The drain's question, "what is pending and due?", reads only the pending rows.
            models.Index(fields=["next_attempt_at"], condition=Q(done_at__isnull=True), name="outbox_due"),
            models.Index(fields=["done_at"], name="outbox_done"),
        ]

    def __str__(self) -> str:
        payload = self.payload if isinstance(self.payload, dict) else {}
        what = payload.get("task") or payload.get("subject", "")
        return f"{self.get_kind_display()} {what}".strip()


class JobRunQuerySet(models.QuerySet):
    def running(self):
        return self.filter(status=JobRun.Status.RUNNING)


class JobRun(models.Model):
    """The record of one run of a long job of the office (a standings rebuild, the title e-mails, the monthly
    player notices, a register import): who started it, when it started and finished, how far it is, how it
    ended and what it changed (``figures``). Written by :mod:`federation.jobs` outside the work's own
    transaction, so that a failed run is recorded and a running one shows its progress.

    At most one standings rebuild runs per federation (a constraint: two racing clicks leave one running job;
    :data:`EXCLUSIVE_KINDS`). The other jobs' services are safe to run side by side (the title e-mails claim
    each club with ``SKIP LOCKED``, a register import locks its federation), so a second run is recorded
    beside the first rather than refused, and a run killed half-way never blocks the next one.

    ``heartbeat_at`` is the running job's last sign of life (its start, each progress, a beat of the process
    that runs it): one older than :data:`federation.jobs.LEASE` is a job whose worker was lost, ended as
    failed by the next start of its kind."""

    class Kind(models.TextChoices):
        STANDINGS_REBUILD = "standings_rebuild", _("standings rebuild")
        TITLE_MAIL = "title_mail", _("title e-mails")
        PLAYER_NOTICES = "player_notices", _("player notices")
        REGISTER_IMPORT = "register_import", _("register import")

    class Status(models.TextChoices):
        RUNNING = "running", _("running")
        SUCCEEDED = "succeeded", _("succeeded")
        FAILED = "failed", _("failed")

    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    federation = models.ForeignKey(
        Federation, on_delete=models.PROTECT, related_name="job_runs", verbose_name=_("federation")
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("started by"),
        help_text=_("Empty: started by the schedule or a command."),
    )
    started_at = models.DateTimeField(_("started"), default=timezone.now, db_index=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    status = models.CharField(_("outcome"), max_length=10, choices=Status.choices, default=Status.RUNNING)
    message = models.TextField(_("message"), blank=True)
    stage = models.CharField(_("stage"), max_length=200, blank=True)
    done = models.PositiveIntegerField(_("done"), null=True, blank=True)
    total = models.PositiveIntegerField(_("of"), null=True, blank=True)
    figures = models.JSONField(_("figures"), default=dict, blank=True)
    heartbeat_at = models.DateTimeField(_("last sign of life"), default=timezone.now)

    objects = JobRunQuerySet.as_manager()

    #: The kinds of which at most one job runs per federation (the partial unique constraint below).
    EXCLUSIVE_KINDS = ("standings_rebuild",)

    class Meta:
        ordering = ["-started_at", "-id"]
        verbose_name = _("job record")
        verbose_name_plural = _("job records")
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "kind"],
                condition=Q(status="running", kind__in=["standings_rebuild"]),
                name="jobrun_one_running_rebuild",
            ),
            models.CheckConstraint(
                condition=Q(status="running", finished_at__isnull=True)
                | (~Q(status="running") & Q(finished_at__isnull=False)),
                name="jobrun_finished_when_ended",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk} ({self.federation_id and self.federation.code})"

    @property
    def duration(self):
        """How long it ran (until now while it runs)."""
        return (self.finished_at or timezone.now()) - self.started_at
