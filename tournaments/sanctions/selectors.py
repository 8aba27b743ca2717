"""DBf sanctions at upload time (§ 403A–B): the club's right to award SP or GP in an uploaded event, and the
check of a sanctioned tournament's entry list. Read by ``masterpoints.uploads.preview``; reads only.
"""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from clubs.models import Club, ClubMembership
from tournaments.checks import CheckIssue
from tournaments.models import Sanction, Tournament
from tournaments.sanctions.rules import MIN_CLUBS, season_of


@dataclass
class EventSanction:
    """What lets a club award SP or GP in one uploaded event: ``kind`` is the engine's ``sanction``
    (``"automatic"`` by § 403A, ``"full"`` or ``"half"`` by a sanction of § 403B1–2, ``"none"``), with the
    sanction found and the issues the preview shows."""

    kind: str = "none"
    sanction: Sanction | None = None
    issues: list[CheckIssue] = field(default_factory=list)


def event_sanction(*, club: Club, category: str, on_date: datetime.date, special: str, event_key: str) -> EventSanction:
    """The club's right to award ``category`` in the event ``event_key`` on ``on_date``.

    SP in a DBf simultaneous event such as Klubsølv is automatic (§ 403A1); so is SP in a top-16, one per
    playing time per season (§ 403A2, see :func:`_top16`). Otherwise an approved sanction of the category
    covering the date gives full or half MP (§ 403B1–2), and it pays one tournament only (D-Q24, see
    :func:`_granted`); with none the kind is ``"none"``.
    """
    if category == "SP" and special == "simultaneous":
        return EventSanction(kind="automatic")
    if category == "SP" and special == "top16":
        return _top16(club=club, on_date=on_date, event_key=event_key)
    return _granted(club=club, category=category, on_date=on_date, event_key=event_key)


def _granted(*, club: Club, category: str, on_date: datetime.date, event_key: str) -> EventSanction:
    """The granted sanction the event ``event_key`` uses, or the issue saying why none is left.

    D-Q24: a sanction is granted on an application that names one tournament ("En årlig turnering … med fuld
    MP-uddeling", § 403B1; "Ansøgning med angivelse af turneringsform", § 403B7), so it pays one tournament:
    one current tournament per sanction (``tournament_one_current_per_sanction``). The sanction the event's
    current version already uses comes first, so a re-upload of the same event (the same key) keeps it;
    then the newest one granted that no other event uses. When every sanction covering the date is used by
    another event, ``SANCTION_USED`` names the newest one and its tournament.
    """
    candidates = list(
        Sanction.objects.filter(club=club, category=category, date__lte=on_date, end_date__gte=on_date)
        .select_related("application")
        .order_by("-granted_at", "-pk")
    )
    if not candidates:
        return EventSanction()
    users = {
        tournament.sanction_id: tournament
        for tournament in Tournament.objects.current().filter(sanction__in=candidates)
    }
    own = [s for s in candidates if s.pk in users and users[s.pk].event_key == event_key]
    free = own + [s for s in candidates if s.pk not in users]
    if not free:
        return EventSanction(issues=[sanction_used_issue(candidates[0], users[candidates[0].pk])])
    sanction = free[0]
    info = CheckIssue(
        "SANCTION_APPLIED",
        params={
            "quota": sanction.get_quota_display(),
            "date": sanction.granted_at.date().isoformat(),
            "name": sanction.application.name,
        },
    )
    return EventSanction(kind=sanction.quota, sanction=sanction, issues=[info])


def sanction_used_issue(sanction: Sanction, tournament: Tournament) -> CheckIssue:
    """``SANCTION_USED``: ``sanction`` already pays ``tournament``, another event (§ 403B1, § 403B7, D-Q24)."""
    return CheckIssue(
        "SANCTION_USED",
        params={
            "sanction": sanction.pk,
            "name": sanction.application.name,
            "date": sanction.date.isoformat(),
            "tournament": tournament.name,
            "tournament_date": tournament.date.isoformat(),
        },
    )


def sanction_used_by(sanction: Sanction) -> Tournament | None:
    """The current tournament ``sanction`` pays, if any (D-Q24: at most one)."""
    return Tournament.objects.current().filter(sanction=sanction).first()


def _top16(*, club: Club, on_date: datetime.date, event_key: str) -> EventSanction:
    """§ 403A2: SP in a top-16 is automatic while the club has held fewer top-16s this season (§ 451C) than
    it has active playing times; a club may hold them per playing time or as one combined top-16 (§ 443B2).
    The event itself (a re-upload) is not counted; beyond the allowance the issue says why."""
    start, end = season_of(on_date)
    held = (
        Tournament.objects.current()
        .filter(club=club, category="SP", upload__facts__special="top16", date__range=(start, end))
        .exclude(event_key=event_key)
        .count()
    )
    allowed = club.playing_times.filter(active=True).count()
    if held < allowed:
        return EventSanction(kind="automatic")
    params = {"held": held, "allowed": allowed, "season": f"{start:%Y}/{end:%y}"}
    return EventSanction(issues=[CheckIssue("SANCTION_TOP16_USED", params=params)])


def sanction_check_after(
    *, sanction: Sanction, players: Sequence, no_outside_entries_refused: bool
) -> list[CheckIssue]:
    """The issues of a sanctioned tournament's entry list (§ 403B5c, § 403B6c): fewer than 5 clubs
    represented, or more than half the participants from one club; none when the club refused no entries
    from other clubs, or when a dispensation from c was granted (§ 403B5e, SP only).

    ``players`` has one item per participant: the member (their home club counts) or ``None`` for a guest
    or a player left to the office, who counts among the participants but represents no known club.
    """
    if no_outside_entries_refused or "c" in sanction.dispensations:
        return []
    total = len(players)
    home = dict(
        ClubMembership.objects.filter(player__in=[p for p in players if p is not None], is_home=True).values_list(
            "player_id", "club_id"
        )
    )
    per_club = Counter(home[p.pk] for p in players if p is not None and p.pk in home)
    issues = []
    rule = "§ 403B5c" if sanction.category == "SP" else "§ 403B6c"
    if len(per_club) < MIN_CLUBS:
        issues.append(CheckIssue("SANCTION_FEW_CLUBS", params={"clubs": len(per_club), "rule": rule}))
    if per_club:
        club_id, count = per_club.most_common(1)[0]
        if count * 2 > total:
            club = Club.objects.get(pk=club_id)
            issues.append(
                CheckIssue(
                    "SANCTION_ONE_CLUB_MAJORITY", params={"club": club, "count": count, "total": total, "rule": rule}
                )
            )
    return issues
