"""What an import of the register would do: the file's records against the federation's rows → the clubs,
players, memberships and offices to add, change and end, each with its line and its fields before and after.

Reads only. Two modes, chosen explicitly: **add and update** (``add``, the default) brings in
what the file holds and ends nothing it does not hold, so a file of 44 new members adds 44 and lapses none; **full
sync** (``sync``) also ends what the file no longer holds. Ended is never deleted — a club becomes inactive, a
member lapsed (HBS rule 3, H-20; DBf § 451B, D-Q37), a membership gets its last day (today), an office held by a
member of the register is ended. A kind of record with no row in the file (no club rows, say) is left as it is:
an export of only the players ends no club. Guests are not on a member register and are left as they are.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from clubs.models import Club, ClubMembership
from federation.models import Federation, JobRun, Player, Region
from office.models import Officer
from office.register.records import ROLES, Register

#: The import's modes: add and update (nothing missing from the file is ended), and full sync.
ADD, SYNC = "add", "sync"
MODES = (ADD, SYNC)
RECORDS = ("club", "player", "membership", "officer")

PLAYER_FIELDS = ("first_name", "last_name", "email", "birth_year", "status", "dues_paid_until")
CLUB_FIELDS = ("name", "email", "active")
MEMBERSHIP_FIELDS = ("since", "until", "is_home")


def as_json(value: Any) -> Any:
    """A field's value as the audit log and the dry run show it (dates as ``YYYY-MM-DD``)."""
    return value.isoformat() if isinstance(value, datetime.date) else value


@dataclass(frozen=True)
class Change:
    """One change: ``record`` (club, player, membership, officer), ``action`` (add, change, end), its key
    (``12345``, ``12345 @ 1001``), the file's line (none for what the file no longer holds), the row's id when
    it exists, and the fields before and after (only those that change; every field for an addition)."""

    record: str
    action: str
    key: str
    line: int | None
    pk: int | None = None
    old: dict[str, Any] = field(default_factory=dict)
    new: dict[str, Any] = field(default_factory=dict)

    @property
    def fields(self) -> list[tuple[str, Any, Any]]:
        """(field, before, after) as shown to the reader."""
        return [(name, as_json(self.old.get(name)), as_json(value)) for name, value in self.new.items()]

    def payload(self) -> dict[str, Any]:
        """The audit row's details: the line and every field's value before and after."""
        return {"line": self.line, "key": self.key, "fields": {n: [old, new] for n, old, new in self.fields}}


@dataclass
class Plan:
    """Every change, in the order they are applied; the rows the file holds as they already are; the
    offices waiting for their player's login (line, number); the kinds the file has no rows of; and, once
    imported, the job record of the import (none for a dry run)."""

    changes: list[Change] = field(default_factory=list)
    unchanged: int = 0
    waiting: list[tuple[int, str]] = field(default_factory=list)
    left_alone: list[str] = field(default_factory=list)
    job: JobRun | None = None
    mode: str = ADD
    #: Per record kind: the rows an end could reach before the import (active clubs, members, current
    #: memberships, offices held by members of the register), and the file's rows already as the site has them.
    existing: dict[str, int] = field(default_factory=lambda: dict.fromkeys(RECORDS, 0))
    unchanged_of: dict[str, int] = field(default_factory=lambda: dict.fromkeys(RECORDS, 0))

    def same(self, record: str) -> None:
        """Count one row of the file that is as the site has it."""
        self.unchanged += 1
        self.unchanged_of[record] += 1

    @property
    def ends(self) -> int:
        return sum(1 for change in self.changes if change.action == "end")

    def effects(self) -> list[tuple[str, str, int, int]]:
        """The largest effects first, as ``(record, action, count, of)``: ``("player", "end", 711, 755)`` reads
        "ends 711 of 755 members"; ``of`` is the rows an end could reach (0 for additions and changes)."""
        counts = self.counts()
        rows = [
            (record, action, count, self.existing[record] if action == "end" else 0)
            for record, actions in counts.items()
            for action, count in actions.items()
            if count
        ]
        return sorted(rows, key=lambda row: (row[1] != "end", -row[2]))

    def of(self, record: str, action: str) -> list[Change]:
        return [change for change in self.changes if change.record == record and change.action == action]

    def counts(self) -> dict[str, dict[str, int]]:
        """``{record: {action: count}}`` for every kind and action (zeros included)."""
        counts = {record: {"add": 0, "change": 0, "end": 0} for record in RECORDS}
        for change in self.changes:
            counts[change.record][change.action] += 1
        return counts


def _diff(current: dict[str, Any], wanted: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    changed = [name for name, value in wanted.items() if current[name] != value]
    return {name: current[name] for name in changed}, {name: wanted[name] for name in changed}


def register_plan(*, federation: Federation, register: Register, today: datetime.date, mode: str = ADD) -> Plan:
    """What importing ``register`` into ``federation`` on ``today`` in ``mode`` would change (reads only)."""
    if mode not in MODES:
        raise ValueError(f"mode {mode!r} is not one of {MODES}")
    plan = Plan(mode=mode)
    for kind, records in (("club", register.clubs), ("membership", register.memberships)):
        if not records:
            plan.left_alone.append(kind)
    if not register.officers:
        plan.left_alone.append("officer")
    if register.clubs:
        _plan_clubs(plan, federation, register)
    _plan_players(plan, federation, register)
    if register.memberships:
        _plan_memberships(plan, federation, register, today)
    if register.officers:
        _plan_officers(plan, federation, register)
    return plan


def _plan_clubs(plan: Plan, federation: Federation, register: Register) -> None:
    rows = Club.objects.filter(federation=federation).values("pk", "number", *CLUB_FIELDS)
    existing = {row["number"]: row for row in rows}
    for record in register.clubs:
        wanted = {"name": record.name, "email": record.email, "active": True}
        row = existing.pop(record.number, None)
        if row is None:
            plan.changes.append(Change("club", "add", record.number, record.line, new=wanted))
            continue
        old, new = _diff(row, wanted)
        if new:
            plan.changes.append(Change("club", "change", record.number, record.line, row["pk"], old, new))
        else:
            plan.same("club")
    plan.existing["club"] = Club.objects.filter(federation=federation, active=True).count()
    if plan.mode == ADD:
        return
    for number, row in sorted(existing.items()):
        if row["active"]:
            plan.changes.append(Change("club", "end", number, None, row["pk"], {"active": True}, {"active": False}))


def _plan_players(plan: Plan, federation: Federation, register: Register) -> None:
    rows = Player.objects.filter(federation=federation).values("pk", "number", *PLAYER_FIELDS)
    existing = {row["number"]: row for row in rows.iterator(chunk_size=5000)}
    for record in register.players:
        wanted = {name: getattr(record, name) for name in PLAYER_FIELDS}
        row = existing.pop(record.number, None)
        if row is None:
            plan.changes.append(Change("player", "add", record.number, record.line, new=wanted))
            continue
        old, new = _diff(row, wanted)
        if new:
            plan.changes.append(Change("player", "change", record.number, record.line, row["pk"], old, new))
        else:
            plan.same("player")
    plan.existing["player"] = Player.objects.filter(federation=federation, status=Player.Status.MEMBER).count()
    if plan.mode == ADD:
        return
    for number, row in sorted(existing.items()):
        if row["status"] == Player.Status.MEMBER:
            old, new = {"status": row["status"]}, {"status": Player.Status.LAPSED}
            plan.changes.append(Change("player", "end", number, None, row["pk"], old, new))


def _homes(register: Register, today: datetime.date, kept: set[str] = frozenset()) -> set[tuple[str, str]]:
    """The (player, club) of each player's home club: the membership marked ``home``, else the first current
    one in the file (``static/register-templates/README.md``); none implied for the players of ``kept``, whose
    home club is one the file does not name and an import that adds and updates leaves as it is."""
    marked = {(record.number, record.club) for record in register.memberships if record.home}
    with_home = {number for number, _club in marked} | set(kept)
    homes = set(marked)
    for record in register.memberships:
        current = record.until is None or record.until >= today
        if record.number not in with_home and current:
            homes.add((record.number, record.club))
            with_home.add(record.number)
    return homes


def _plan_memberships(plan: Plan, federation: Federation, register: Register, today: datetime.date) -> None:
    rows = ClubMembership.objects.filter(player__federation=federation).values(
        "pk", "player__number", "club__number", *MEMBERSHIP_FIELDS
    )
    existing = {(row["player__number"], row["club__number"]): row for row in rows.iterator(chunk_size=5000)}
    in_file = {(record.number, record.club) for record in register.memberships}
    plan.existing["membership"] = sum(1 for row in existing.values() if row["until"] is None or row["until"] > today)
    # Adding and updating: a home club the file does not name stays the player's home unless the file marks
    # another one (then it is given up, not ended).
    kept = set()
    if plan.mode == ADD:
        kept = {key[0] for key, row in existing.items() if row["is_home"] and key not in in_file}
    homes = _homes(register, today, kept)
    marked = {record.number for record in register.memberships if record.home}
    for record in register.memberships:
        key = (record.number, record.club)
        wanted = {"since": record.since, "until": record.until, "is_home": key in homes}
        row = existing.pop(key, None)
        label = f"{record.number} @ {record.club}"
        if row is None:
            plan.changes.append(Change("membership", "add", label, record.line, new=wanted))
            continue
        old, new = _diff(row, wanted)
        if new:
            plan.changes.append(Change("membership", "change", label, record.line, row["pk"], old, new))
        else:
            plan.same("membership")
    for (number, club), row in sorted(existing.items()):
        label = f"{number} @ {club}"
        if plan.mode == ADD:
            if row["is_home"] and number in marked:
                change = Change("membership", "change", label, None, row["pk"], {"is_home": True}, {"is_home": False})
                plan.changes.append(change)
            continue
        if row["until"] is None or row["until"] > today:
            last_day = max(today, row["since"]) if row["since"] else today
            old, new = _diff(row, {"until": last_day, "is_home": False})
            plan.changes.append(Change("membership", "end", label, None, row["pk"], old, new))
        elif row["is_home"]:  # an ended membership the file no longer names is no player's home club
            plan.changes.append(
                Change("membership", "change", label, None, row["pk"], {"is_home": True}, {"is_home": False})
            )


def _office_key(role: str, scope: str) -> str:
    return f"{role} {scope}"


def _plan_officers(plan: Plan, federation: Federation, register: Register) -> None:
    """Offices of members of the register: those of the file are held, those it no longer holds are ended.
    An office whose holder has no login (or is new to the site) waits until the player has one."""
    logins = dict(Player.objects.filter(federation=federation, user__isnull=False).values_list("number", "user_id"))
    held = Officer.objects.filter(federation=federation, role__in=ROLES, user__in=list(logins.values()))
    existing = {}
    for officer in held.select_related("club", "region"):
        scope = officer.club.number if officer.club_id else officer.region.code
        existing[(officer.user_id, _office_key(officer.role, scope))] = officer
    numbers = {user: number for number, user in logins.items()}
    for record in register.officers:
        user = logins.get(record.number)
        if user is None:
            plan.waiting.append((record.line, record.number))
            continue
        office = _office_key(record.role, record.club or record.region)
        wanted = {"role": record.role, "club": record.club or None, "region": record.region or None}
        if existing.pop((user, office), None) is None:
            change = Change("officer", "add", f"{record.number} {office}", record.line, new={"user": user, **wanted})
            plan.changes.append(change)
        else:
            plan.same("officer")
    plan.existing["officer"] = held.count()
    if plan.mode == ADD:
        return
    for (user, office), officer in sorted(existing.items(), key=lambda item: (numbers[item[0][0]], item[0][1])):
        old, new = {"role": officer.role}, {"role": None}
        plan.changes.append(Change("officer", "end", f"{numbers[user]} {office}", None, officer.pk, old, new))


def known_scopes(federation: Federation) -> tuple[set[str], set[str]]:
    """The federation's club numbers and region codes (what a membership or an office may name)."""
    clubs = set(Club.objects.filter(federation=federation).values_list("number", flat=True))
    regions = set(Region.objects.filter(federation=federation).values_list("code", flat=True))
    return clubs, regions
