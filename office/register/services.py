"""The import of the member register (``manage.py import_register`` and the admin page): a dry run that
says what would be added, changed and ended, row by row, or the import itself in one transaction with one
audit row per change, recorded as a job (:class:`~federation.models.JobRun`: who, when, how long,
the rows added, changed and ended, or why it failed).

The import is idempotent: it writes only what differs from the file, so the same file twice changes nothing
the second time. It never deletes: a member the register no longer holds is marked lapsed and keeps every
point registered under their number (DBf § 451B "Ved et medlems indmeldelse i en klub, medregnes eventuelle
tidligere registrerede MP automatisk", D-Q37; HBS rule 3 "Službena rang lista sadrži samo punopravne članove
saveza", H-20). A file with any bad row writes nothing (:mod:`office.register.records`).
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club, ClubMembership
from federation.bulk import insert_many
from federation.jobs import job_fail, job_finish, job_heartbeat, job_progress, job_start
from federation.models import Federation, JobRun, Player, Region
from federation.names import search_name
from federation.services import audit_record, audit_record_many
from office.access import is_secretariat
from office.models import Officer
from office.register.plan import ADD, MODES, SYNC, Change, Plan, known_scopes, register_plan
from office.register.reader import read_register
from office.register.records import LENGTHS, NUMBER, check_links, parse_register
from office.services import officer_assign, officer_revoke

BATCH = 2000


def _check(actor, federation: Federation) -> None:
    """Only the federation's own secretariat (or a superuser) imports its register; ``actor=None`` is the
    office's own shell, through the command."""
    if actor is not None and not is_secretariat(actor, federation):
        raise PermissionDenied(
            _("Only the secretariat of %(federation)s imports its member register.") % {"federation": federation}
        )


def register_import(
    *,
    actor,
    federation: Federation,
    data: bytes,
    dry_run: bool,
    today: datetime.date | None = None,
    mode: str = ADD,
    confirm_ends: int | None = None,
) -> Plan:
    """Read, check and compare the register file ``data``; with ``dry_run`` write nothing, else write every
    change in one transaction (audited) and record it as a job. Returns the plan: what is (or would be) added,
    changed and ended, and the import's job record (``plan.job``, none for a dry run).

    ``mode``: ``add`` (add and update: nothing missing from the file is ended) or ``sync`` (full sync). A full
    sync that ends anything writes only when ``confirm_ends`` is the number of rows it ends, as its dry run's
    summary showed them: refused (``CONFIRM_ENDS``, nothing written) otherwise, so that what the office saw
    is what it ends. Refused (``ValidationError``, line and column named, nothing written) when any row is bad."""
    _check(actor, federation)
    if mode not in MODES:
        raise ValidationError(_("Choose how to import: add and update, or full sync."), code="MODE")
    today = today or timezone.localdate()
    if dry_run:
        return register_plan(federation=federation, register=_read(federation, data, today), today=today, mode=mode)
    job = job_start(kind=JobRun.Kind.REGISTER_IMPORT, federation=federation, actor=actor, stage=_("checking the file"))
    try:
        with job_heartbeat(job):  # a large register's one transaction outlasts the lease without a beat
            register = _read(federation, data, today)
            job_progress(job, stage=_("writing the changes"))
            plan = _apply(
                actor=actor, federation=federation, register=register, today=today, mode=mode, confirm_ends=confirm_ends
            )
    except ValidationError as error:
        job_fail(job, message=" ".join(error.messages))
        raise
    except Exception as error:
        job_fail(job, message=f"{type(error).__name__}: {error}")
        raise
    job_finish(job, figures=import_figures(plan))
    plan.job = job
    return plan


def _read(federation: Federation, data: bytes, today: datetime.date):
    rows = read_register(data)
    register = parse_register(rows, today=today)
    clubs, regions = known_scopes(federation)
    check_links(register, rows, clubs=clubs, regions=regions)
    return register


def import_figures(plan: Plan) -> dict[str, int]:
    """A register import's job figures: rows unchanged, and per record kind the rows added, changed, ended
    (``players_added`` …), and the offices waiting for their player's login."""
    done = {"add": "added", "change": "changed", "end": "ended"}
    figures = {"unchanged": plan.unchanged, "waiting": len(plan.waiting)}
    for record, actions in plan.counts().items():
        for action, count in actions.items():
            figures[f"{record}s_{done[action]}"] = count
    return figures


@transaction.atomic
def _apply(
    *, actor, federation: Federation, register, today: datetime.date, mode: str, confirm_ends: int | None
) -> Plan:
    # One import of a federation at a time: the plan is made under the lock, so it sees every earlier import.
    list(Federation.objects.select_for_update().filter(pk=federation.pk).values_list("pk"))
    plan = register_plan(federation=federation, register=register, today=today, mode=mode)
    if mode == SYNC and plan.ends and confirm_ends != plan.ends:
        raise ValidationError(
            _(
                "A full sync of this file ends %(ends)s rows (members lapsed, memberships, clubs and offices "
                "ended): check the file and confirm its summary first."
            ),
            params={"ends": plan.ends},
            code="CONFIRM_ENDS",
        )
    clubs = _write_clubs(actor, federation, plan)
    players = _write_players(actor, federation, plan)
    _write_memberships(actor, federation, plan, players, clubs)
    _write_officers(actor, federation, plan, clubs)
    return plan


def _audit(actor, model, record: str, entries: Iterable[tuple[Change, int, str]]) -> None:
    """One audit row per change: ``register.<record>.<action>``, the row, its line and fields before and after."""
    audit_record_many(
        actor=actor,
        model=model,
        entries=((f"register.{record}.{change.action}", pk, text, change.payload()) for change, pk, text in entries),
    )


def _update_by_field(model, pairs: Iterable[tuple[Change, int]]) -> None:
    """Write each changed field of the rows ``(change, pk)``: one bulk statement per field, so that the
    other fields keep their value."""
    by_field = defaultdict(list)
    for change, pk in pairs:
        for name, value in change.new.items():
            by_field[name].append(model(pk=pk, **{name: value}))
    for name, rows in sorted(by_field.items()):
        model.objects.bulk_update(rows, [name], batch_size=BATCH)


def _write_clubs(actor, federation: Federation, plan: Plan) -> dict[str, Club]:
    """Add, change and end (make inactive) clubs; returns every club of the federation by number."""
    added = plan.of("club", "add")
    insert_many(Club, ({"federation_id": federation.pk, "number": change.key, **change.new} for change in added))
    changed = [change for change in plan.changes if change.record == "club" and change.pk]
    _update_by_field(Club, ((change, change.pk) for change in changed))
    clubs = {club.number: club for club in Club.objects.filter(federation=federation)}
    _audit(actor, Club, "club", ((c, clubs[c.key].pk, str(clubs[c.key])) for c in [*added, *changed]))
    return clubs


def _new_player(federation: Federation, change: Change) -> dict:
    """A new player's row, with the folded name the searches read (``COPY`` calls no model code)."""
    row = {"federation_id": federation.pk, "number": change.key, **change.new}
    row["search_name"] = search_name(row.get("first_name", ""), row.get("last_name", ""))
    return row


def _write_players(actor, federation: Federation, plan: Plan) -> dict[str, tuple[int, str]]:
    """Add, change and lapse players; returns the federation's players by number: (id, as the audit names it)."""
    added = plan.of("player", "add")
    insert_many(Player, (_new_player(federation, change) for change in added))
    changed = [change for change in plan.changes if change.record == "player" and change.pk]
    _update_by_field(Player, ((change, change.pk) for change in changed))
    # Read back (COPY returns no keys); named as ``Player.__str__`` names a player, without a model per row.
    rows = Player.objects.filter(federation=federation).values_list("pk", "number", "first_name", "last_name")
    players = {number: (pk, f"{f'{first} {last}'.strip()} ({number})") for pk, number, first, last in rows}
    _audit(actor, Player, "player", ((c, *players[c.key]) for c in [*added, *changed]))
    return players


def _write_memberships(actor, federation, plan: Plan, players: dict[str, tuple[int, str]], clubs) -> None:
    """Add, change and end memberships. A home club is given up before another is taken, so that the rule
    "one home club per player" (a constraint) holds after every statement."""
    changed = [change for change in plan.changes if change.record == "membership" and change.pk]
    giving_up = [change for change in changed if change.new.get("is_home") is False]
    taking = [change for change in changed if change.new.get("is_home")]
    other = [change for change in changed if "is_home" not in change.new]
    _update_by_field(ClubMembership, ((change, change.pk) for change in [*giving_up, *other]))
    added = plan.of("membership", "add")

    def pair(change: Change) -> tuple[int, int]:
        number, club = change.key.split(" @ ")
        return players[number][0], clubs[club].pk

    insert_many(
        ClubMembership,
        ({"player_id": player, "club_id": club, **change.new} for change in added for player, club in [pair(change)]),
    )
    _update_by_field(ClubMembership, ((change, change.pk) for change in taking))
    keys = {}
    if added:  # read the new rows' keys back for their audit rows (COPY returns none)
        rows = ClubMembership.objects.filter(player__federation=federation).values_list("pk", "player_id", "club_id")
        keys = {(player, club): pk for pk, player, club in rows.iterator(BATCH)}

    def entry(change: Change) -> tuple[Change, int, str]:
        number, club = change.key.split(" @ ")
        pk = change.pk or keys[pair(change)]
        return change, pk, f"{players[number][1]} @ {clubs[club]}"

    _audit(actor, ClubMembership, "membership", (entry(change) for change in [*added, *changed]))


def _write_officers(actor, federation: Federation, plan: Plan, clubs: dict[str, Club]) -> None:
    """Appoint and end offices through the office's own services (each audits itself: ``officer.assign``,
    ``officer.revoke``)."""
    regions = {region.code: region for region in Region.objects.filter(federation=federation)}
    for change in plan.of("officer", "end"):
        officer_revoke(actor=actor, officer=Officer.objects.select_related("user").get(pk=change.pk))
    logins = Player.objects.filter(federation=federation, user__isnull=False).select_related("user")
    users = {player.user_id: player.user for player in logins}
    for change in plan.of("officer", "add"):
        new = change.new
        officer_assign(
            actor=actor,
            user=users[new["user"]],
            role=new["role"],
            federation=federation,
            club=clubs[new["club"]] if new["club"] else None,
            region=regions[new["region"]] if new["region"] else None,
        )


@transaction.atomic
def register_player_add(*, actor, federation: Federation, number: str, first_name: str, last_name: str) -> Player:
    """Add one member to ``federation``'s register, as a row of the register file would (the same bounds of
    number and names, the same audit action ``register.player.add``): the office's way to take in a player
    an upload left to it (an upload itself never creates a player). Refused, naming the number,
    for a number that is no registration number or that another player already holds."""
    _check(actor, federation)
    number, first_name, last_name = number.strip(), first_name.strip(), last_name.strip()
    if not NUMBER.fullmatch(number) or len(number) > LENGTHS["number"]:
        raise ValidationError(
            _("%(number)s is not a registration number (at most %(length)s letters, digits, . / -)."),
            params={"number": number[:40], "length": LENGTHS["number"]},
            code="NUMBER",
        )
    if not first_name or not last_name or max(len(first_name), len(last_name)) > LENGTHS["last_name"]:
        raise ValidationError(
            _("Give the member's first and last name (at most %(length)s characters each)."),
            params={"length": LENGTHS["last_name"]},
            code="NAME",
        )
    holder = Player.objects.select_for_update().filter(federation=federation, number=number).first()
    if holder is not None:
        raise ValidationError(
            _("The registration number %(number)s is already %(player)s's."),
            params={"number": number, "player": holder.full_name},
            code="NUMBER_TAKEN",
        )
    try:
        with transaction.atomic():
            player = Player.objects.create(
                federation=federation, number=number, first_name=first_name, last_name=last_name
            )
    except IntegrityError:  # the same number added at the same moment: the constraint keeps one
        raise ValidationError(
            _("The registration number %(number)s was just given to another player."),
            params={"number": number},
            code="NUMBER_TAKEN",
        ) from None
    audit_record(actor=actor, action="register.player.add", target=player, payload={"number": number})
    return player
