"""What an upload says about the club's week and its automatic rights: the playing time the tournament was
played in (§ 452A, § 403A2) and the claim of automatic SP (§ 403A), read from the director's facts.

The facts hold ``playing_time`` (``""``: as the file's weekday and start time say; ``"none"``: outside the
club's weekly sessions; else a playing time's id), ``special`` (``"simultaneous"``, ``"top16"`` or ``""``),
``simultaneous_event`` (the id of the event DBf announced) and ``top16`` (``"combined"`` for the club's combined
top-16, else that of the playing time). Ids are bounded and scoped here: a playing time of another club or an
event another federation announced is refused with an issue, never used.
"""

from __future__ import annotations

import datetime

from django.utils.translation import gettext_lazy as _

from clubs.models import PlayingTime
from federation.models import Player
from masterpoints.cups.services import top16
from masterpoints.uploads.lines import Preview
from tournaments.issues import Issue
from tournaments.models import SimultaneousEvent
from tournaments.sanctions.selectors import Claim

#: When each part of day begins (D-Q27): a session that starts before noon is the morning's, from noon the
#: afternoon's, from five o'clock the evening's.
PART_OF_DAY_STARTS = (
    (datetime.time(17), PlayingTime.PartOfDay.EVENING),
    (datetime.time(12), PlayingTime.PartOfDay.AFTERNOON),
    (datetime.time(0), PlayingTime.PartOfDay.MORNING),
)
#: The longest id the facts may carry (a positive bigint).
MAX_ID_DIGITS = 18


def part_of_day(start: datetime.time) -> str:
    """The part of day a session starting at ``start`` belongs to (D-Q27)."""
    return next(part for begins, part in PART_OF_DAY_STARTS if start >= begins)


def fact_id(value) -> int | None:
    """An id the facts carry, or ``None`` for anything that is not one (empty, ``"none"``, too long)."""
    text = str(value or "")
    return int(text) if text.isascii() and text.isdecimal() and 0 < len(text) <= MAX_ID_DIGITS else None


def resolve_playing_time(preview: Preview) -> None:
    """The tournament's playing time (§ 452A "hver ugentlig spilleperiode for sig"): the director's choice,
    which must be one of the organising club's; else the default of D-Q27 from the weekday and the start
    time the file gives. With several playing times on the weekday and no start time there is no default
    and the director must choose (``PLAYING_TIME_CHOOSE``)."""
    upload, event = preview.upload, preview.event
    if upload.club_id is None or not preview.scheme.playing_times or event.date is None:
        return
    chosen = upload.facts.get("playing_time") or ""
    if chosen == "none":
        preview.playing_time_source = "chosen"
        return
    if chosen:
        found = PlayingTime.objects.filter(club=upload.club, pk=fact_id(chosen) or 0).first()
        if found is None:
            preview.issues.append(Issue("PLAYING_TIME_OTHER_CLUB", params={"club": upload.club}))
        preview.playing_time, preview.playing_time_source = found, "chosen"
        return
    _default_playing_time(preview)


def _default_playing_time(preview: Preview) -> None:
    """D-Q27: the one active playing time on the tournament's weekday; with a start time in the file, the
    active playing time of that weekday and part of day. Otherwise none, said by an issue."""
    event = preview.event
    weekday = event.date.weekday()
    candidates = list(PlayingTime.objects.filter(club=preview.upload.club, weekday=weekday, active=True))
    day_name = PlayingTime.Weekday(weekday).label
    times = ", ".join(str(pt) for pt in candidates) or "–"
    if event.start_time is not None:
        part = part_of_day(event.start_time)
        preview.playing_time = next((pt for pt in candidates if pt.part_of_day == part), None)
        if preview.playing_time is None:
            params = {"time": event.start_time.strftime("%H:%M"), "weekday": day_name, "times": times}
            preview.issues.append(Issue("PLAYING_TIME_NOT_AT_TIME", params=params))
    elif len(candidates) == 1:
        preview.playing_time = candidates[0]
    elif candidates:
        params = {"count": len(candidates), "weekday": day_name, "times": times}
        preview.issues.append(Issue("PLAYING_TIME_CHOOSE", params=params))
    preview.playing_time_source = "default" if preview.playing_time else ""


def claim_of(preview: Preview) -> Claim:
    """The upload's claim of automatic SP (§ 403A), with the announced event looked up among the
    federation's own (an id of another federation's or of none is ``unknown_event``)."""
    facts = preview.upload.facts
    special = facts.get("special") or ""
    event = None
    unknown = False
    if special == "simultaneous" and facts.get("simultaneous_event"):
        event = SimultaneousEvent.objects.filter(
            federation=preview.upload.federation, pk=fact_id(facts["simultaneous_event"]) or 0
        ).first()
        unknown = event is None
    preview.simultaneous_event = event
    return Claim(
        special=special,
        simultaneous_event=event,
        combined=special == "top16" and facts.get("top16") == "combined",
        playing_time=preview.playing_time,
        unknown_event=unknown,
    )


#: Entrants a TOP16_NOT_ENTITLED warning names; the rest are counted.
NAMED_ENTRANTS = 10


def top16_entrants(preview: Preview, members: list[Player]) -> None:
    """§ 452A "De 16 medlemmer, der i klubbens turneringer har vundet flest BP i sæsonens løb (hver ugentlig
    spilleperiode for sig), er berettigede til at deltage. Hvis nogle af disse ikke kan deltage, overtager de
    næste medlemmer i BP-rækkefølgen pladsen." Reading D-Q68: a top-16 upload's ``members`` (its entrants
    resolved to members) are checked against the club's list for the claimed playing time (or the combined
    list) as of the event's date: the qualified, and as many of the next in BP order as qualified members do
    not play. Anyone else is named (TOP16_NOT_ENTITLED, a warning, not a refusal: the same paragraph admits
    last-minute substitutes, who win SP only with half the boards, which the engine already asks)."""
    upload, event = preview.upload, preview.event
    if upload.facts.get("special") != "top16" or upload.club_id is None or event is None or event.date is None:
        return
    claim = claim_of(preview)
    if not claim.combined and claim.playing_time is None:
        return  # refused as TOP16_NO_PLAYING_TIME
    season = upload.federation.scheme_info.season_of(event.date)
    time = None if claim.combined else claim.playing_time
    listed = top16(club=upload.club, season=season, playing_time=time, on=event.date, reserves=len(members))
    label = str(time) if time is not None else str(_("combined"))
    if not listed:
        preview.issues.append(Issue("TOP16_LIST_EMPTY", params={"list": label}))
        return
    qualified = {line.player.pk for line in listed if line.qualified}
    playing = {member.pk for member in members}
    absent = len(qualified - playing)
    next_in_order = [line.player.pk for line in listed if not line.qualified][:absent]
    outside = [member for member in members if member.pk not in qualified | set(next_in_order)]
    if not outside:
        return
    named = ", ".join(str(member) for member in outside[:NAMED_ENTRANTS])
    more = len(outside) - NAMED_ENTRANTS
    params = {
        "count": len(outside),
        "players": named + (f" (+{more})" if more > 0 else ""),
        "list": label,
    }
    preview.issues.append(Issue("TOP16_NOT_ENTITLED", params=params))


def engine_special(preview: Preview) -> str:
    """The engine's ``special`` for the upload (§ 433E simultaneous, § 443B top-16, else ``"standard"``): a
    simultaneous claim counts only with the announced event it names (§ 403A1), a claim of none is none."""
    special = preview.upload.facts.get("special") or "standard"
    if special == "simultaneous" and preview.simultaneous_event is None:
        return "standard"
    return special
