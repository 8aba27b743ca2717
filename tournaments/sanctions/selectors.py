"""DBf sanctions at upload time (§ 403A–B): the club's right to award SP or GP in an uploaded event (the
automatic rights of § 403A: DBf's simultaneous events, the top-16s; or a granted sanction), and the check of a
sanctioned tournament's entry list. Read by ``masterpoints.uploads.preview``; reads only.
"""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, ClubMembership, PlayingTime
from federation.refusals import Days
from tournaments.issues import Issue
from tournaments.models import Sanction, SimultaneousEvent, Tournament
from tournaments.sanctions.rules import MIN_CLUBS, season_of
from tournaments.simultaneous import covering


@dataclass
class EventSanction:
    """What lets a club award SP or GP in one uploaded event: ``kind`` is the engine's ``sanction``
    (``"automatic"`` by § 403A, ``"full"`` or ``"half"`` by a sanction of § 403B1–2, ``"none"``), with the
    sanction found and the issues the preview shows."""

    kind: str = "none"
    sanction: Sanction | None = None
    issues: list[Issue] = field(default_factory=list)


#: The refusals of a claim of automatic SP (§ 403A): errors that stop the computation, as the points would
#: rest on a right the club does not have.
CLAIM_REFUSALS = (
    "TOP16_NO_PLAYING_TIME",
    "TOP16_PLAYING_TIME_HELD",
    "TOP16_COMBINED_HELD",
    "TOP16_PER_TIME_HELD",
    "SIMULTANEOUS_UNKNOWN",
    "SIMULTANEOUS_NOT_ON_DATE",
    "ALTERNATIVE_KLUBSOLV_HELD",
    "KLUBSOLV_HELD",
    "ALTERNATIVE_KLUBSOLV_USED",
)


@dataclass(frozen=True)
class Claim:
    """What a club's upload claims automatic SP by (§ 403A): ``special`` is the engine's special event
    (``"simultaneous"``, ``"top16"`` or ``""``); a simultaneous claim names the event DBf announced
    (``simultaneous_event``; none is no claim), a top-16 is the club's combined one (``combined``, § 443B2b)
    or that of the tournament's ``playing_time`` (§ 443B2a). ``unknown_event``: the upload named an event
    that is not one of the federation's announced events."""

    special: str = ""
    simultaneous_event: SimultaneousEvent | None = None
    combined: bool = False
    playing_time: PlayingTime | None = None
    unknown_event: bool = False


def event_sanction(*, club: Club, category: str, on_date: datetime.date, event_key: str, claim: Claim) -> EventSanction:
    """The club's right to award ``category`` in the event ``event_key`` on ``on_date``.

    SP in a simultaneous event DBf announced is automatic (§ 403A1, :func:`_simultaneous`); so is SP in a
    top-16, one per playing time per season or one combined (§ 403A2, § 443B2, :func:`_top16`). Otherwise
    an approved sanction of the category covering the date gives full or half MP (§ 403B1–2), and it pays
    one tournament only (D-Q24, :func:`_granted`); with none the kind is ``"none"``. A simultaneous claim
    that names no event is no claim.
    """
    if category == "SP" and claim.special == "simultaneous" and (claim.simultaneous_event or claim.unknown_event):
        return _simultaneous(club=club, on_date=on_date, event_key=event_key, claim=claim)
    if category == "SP" and claim.special == "top16":
        return _top16(club=club, on_date=on_date, event_key=event_key, claim=claim)
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
    info = Issue(
        "SANCTION_APPLIED",
        params={
            "quota": sanction.get_quota_display(),
            "date": timezone.localdate(sanction.granted_at),
            "name": sanction.application.name,
        },
    )
    return EventSanction(kind=sanction.quota, sanction=sanction, issues=[info])


def partial_result_issues(*, club: Club, on_date: datetime.date, bp_not_partial: bool) -> list[Issue]:
    """A club's BP upload on a day its granted SP or GP sanction covers: refused as a partial result of that
    tournament (``BP_PARTIAL_OF_SP_GP``) unless the director states it is not one (``BP_BESIDE_SP_GP``).

    § 405B7e "Det er ikke tilladt at uddele BP for delresultater i en turnering med SP eller GP, men afholdes
    forinden finalen en kvalifikationsturnering, kan der uddeles BP efter § 405B6 og reglerne i § 421 - § 446."

    D-Q66 (§ 405B7e with § 403B1, a sanction for a named tournament on its days): a club's BP upload dated on a
    day of its SP/GP sanction is taken as a session of that tournament, so its BP are refused, unless the
    director states (the upload's ``bp_not_partial``) that it is another tournament or the qualification held
    before the final, which the text lets pay BP; the preview then names the sanction and that statement. A
    district's, circle's or DBf's SP/GP tournament has no sanction to find, and is not checked."""
    sanction = (
        Sanction.objects.filter(club=club, category__in=("SP", "GP"), date__lte=on_date, end_date__gte=on_date)
        .select_related("application")
        .order_by("-granted_at", "-pk")
        .first()
    )
    if sanction is None:
        return []
    params = {
        "name": sanction.application.name,
        "category": sanction.category,
        "date": sanction.date,
        "end_date": sanction.end_date,
    }
    return [Issue("BP_BESIDE_SP_GP" if bp_not_partial else "BP_PARTIAL_OF_SP_GP", params=params)]


def sanction_used_issue(sanction: Sanction, tournament: Tournament) -> Issue:
    """``SANCTION_USED``: ``sanction`` already pays ``tournament``, another event (§ 403B1, § 403B7, D-Q24)."""
    return Issue(
        "SANCTION_USED",
        params={
            "sanction": sanction.pk,
            "name": sanction.application.name,
            "date": sanction.date,
            "tournament": tournament.name,
            "tournament_date": tournament.date,
        },
    )


def sanction_used_by(sanction: Sanction) -> Tournament | None:
    """The current tournament ``sanction`` pays, if any (D-Q24: at most one)."""
    return Tournament.objects.current().filter(sanction=sanction).first()


def _refused(code: str, **params) -> EventSanction:
    return EventSanction(issues=[Issue(code, params=params)])


def _days(held: Tournament | SimultaneousEvent, *, named: bool = True) -> Days:
    """A tournament or an announced event as a refusal names it, its days in the reader's locale."""
    if isinstance(held, Tournament):
        return Days(held.date, name=held.name)
    return Days(held.starts_on, held.ends_on, name=held.name if named else "")


def _season_held(*, club: Club, on_date: datetime.date, event_key: str):
    """The club's other current tournaments of the season (§ 451C) ``on_date`` lies in, and its label."""
    start, end = season_of(on_date)
    others = (
        Tournament.objects.current()
        .filter(club=club, date__range=(start, end))
        .exclude(event_key=event_key)
        .select_related("upload", "playing_time", "simultaneous_event")
        .order_by("date", "pk")
    )
    return others, f"{start:%Y}/{end:%y}"


def _top16(*, club: Club, on_date: datetime.date, event_key: str, claim: Claim) -> EventSanction:
    """§ 403A2 "En Top-16 enkeltmandsturnering pr. sæson for hvert spilletidspunkt i klubben" and § 443B2
    "Klubber har ret til at afholde en top-16 pr. spilletidspunkt eller en samlet top-16" (D-Q28): SP in a
    top-16 is automatic for the first top-16 of its playing time in the season, or for the club's one
    combined top-16 of the season; a combined one and one per playing time exclude each other that season.
    The event itself (a re-upload) is not counted; a refusal names the other tournament and the season."""
    others, season = _season_held(club=club, on_date=on_date, event_key=event_key)
    held = [t for t in others.filter(category="SP", upload__facts__special="top16") if t.top16]
    combined = next((t for t in held if t.top16 == "combined"), None)
    if combined is not None:
        return _refused("TOP16_COMBINED_HELD", season=season, other=_days(combined))
    if claim.combined:
        if held:
            other = held[0]
            time = other.playing_time or "–"
            return _refused("TOP16_PER_TIME_HELD", season=season, other=_days(other), playing_time=time)
        return EventSanction(kind="automatic")
    if claim.playing_time is None:
        return _refused("TOP16_NO_PLAYING_TIME")
    same = next((t for t in held if t.playing_time_id == claim.playing_time.pk), None)
    if same is not None:
        return _refused("TOP16_PLAYING_TIME_HELD", season=season, other=_days(same), playing_time=claim.playing_time)
    return EventSanction(kind="automatic")


def _simultaneous(*, club: Club, on_date: datetime.date, event_key: str, claim: Claim) -> EventSanction:
    """§ 403A1 "Simultanturneringer udskrevet af DBf. Klubben kan erstatte deltagelse i Klubsølv med en
    Alternativ sølvturnering på tværs af alle klubbens spilletidspunkter" and § 453 "Det ene valg udelukker
    det andet" (D-Q29): SP is automatic in an event DBf announced whose dates cover the tournament's; in a
    season (§ 451C) a club plays either Klubsølv, in any of its playing times, or one alternative Klubsølv.
    A refusal names the dates, or the other tournament and the season."""
    event = claim.simultaneous_event
    if event is None:
        return _refused("SIMULTANEOUS_UNKNOWN")
    if not event.covers(on_date):
        names = tuple(_days(other) for other in covering(event.federation, on_date)) or _("none")
        return _refused(
            "SIMULTANEOUS_NOT_ON_DATE", event=event.name, dates=_days(event, named=False), date=on_date, covering=names
        )
    kinds = SimultaneousEvent.Kind
    if event.kind not in (kinds.KLUBSOLV, kinds.ALTERNATIVE_KLUBSOLV):
        return EventSanction(kind="automatic")
    others, season = _season_held(club=club, on_date=on_date, event_key=event_key)
    held = others.filter(simultaneous_event__kind__in=(kinds.KLUBSOLV, kinds.ALTERNATIVE_KLUBSOLV))
    alternative = next((t for t in held if t.simultaneous_event.kind == kinds.ALTERNATIVE_KLUBSOLV), None)
    if event.kind == kinds.KLUBSOLV and alternative is not None:
        return _refused("ALTERNATIVE_KLUBSOLV_HELD", season=season, other=_days(alternative))
    if event.kind == kinds.ALTERNATIVE_KLUBSOLV:
        if alternative is not None:
            return _refused("ALTERNATIVE_KLUBSOLV_USED", season=season, other=_days(alternative))
        klubsolv = next(iter(held), None)
        if klubsolv is not None:
            return _refused("KLUBSOLV_HELD", season=season, other=_days(klubsolv))
    return EventSanction(kind="automatic")


def sanction_check_after(*, sanction: Sanction, players: Sequence, no_outside_entries_refused: bool) -> list[Issue]:
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
        issues.append(Issue("SANCTION_FEW_CLUBS", params={"clubs": len(per_club), "rule": rule}))
    if per_club:
        club_id, count = per_club.most_common(1)[0]
        if count * 2 > total:
            club = Club.objects.get(pk=club_id)
            issues.append(
                Issue("SANCTION_ONE_CLUB_MAJORITY", params={"club": club, "count": count, "total": total, "rule": rule})
            )
    return issues
