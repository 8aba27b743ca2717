"""A whole pairs, individual or mini-team tournament to per-player awards: what the upload pipeline calls
(``dbf.md`` §§ 2.8, 2.9, 2.13, 2.14, 2.16); team tournaments are in :mod:`.team_events`.

:class:`PairEvent` → :func:`pair_event_awards`: BP per playing day on that day's score (§ 405B6a), SP/GP
once on the total (§ 405B7a), SP/GP only to players with at least half the boards planned for them, else
to their substitute (§ 405B7b, D-Q4). :class:`Player` and :class:`Entry` are shared with the team events.

Player and entry keys are the caller's opaque strings. Every function returns ``list[PlayerAward]`` with one
award per player per scoring part (zero awards included, so the explanation also says why nothing was
won); each explanation lists the rule ids and inputs as strings.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from masterpoints.engine.common import Explanation, PlayerAward, RequestError, parse_ranks
from masterpoints.engine.dbf.minihold import TeamRound, bye_ranking
from masterpoints.engine.dbf.rules import CATEGORIES, DBF_2023, FORMS, ORGANIZERS, SPLITS, DbfRuleSet
from masterpoints.engine.dbf.scale import (
    Scale,
    ScaleRequest,
    klubsolv_scale,
    pair_bonus_scale,
    pair_table_scale,
    quota_n1,
    scale,
    surcharge_n2,
)

SANCTIONS: tuple[str, ...] = ("none", "full", "half", "automatic")

#: Special pair events and the § they follow. Fixed GP tables map to the rule set's ``pair_tables``.
SPECIAL_EVENTS: dict[str, str] = {
    "standard": "§ 406B1",
    "simultaneous": "§ 433E",  # Klubsølv / Landsdækkende Handicap at the club: SP at half quota
    "simultaneous_national": "§ 434A5",  # the national comparison's GP table (NS and EW apart)
    "beginners_qualifier": "§ 433D",
    "beginners_final": "§ 433D",
    "junior_pairs_final": "§ 433B",
    "top16": "§ 443B",
    "dm_open_superliga": "§ 434A1a",
    "dm_open_1st_division": "§ 434A1b",
    "dm_open_2nd_division": "§ 434A1c",
    "dm_mixed_a": "§ 434A2a",
    "dm_mixed_b": "§ 434A2b",
    "dm_women": "§ 434A3",
    "dm_senior": "§ 434A4",
}
_TABLE_EVENTS = ("dm_open_superliga", "dm_open_1st_division", "dm_mixed_a", "dm_mixed_b", "dm_women", "dm_senior")
_SP_PAIR_EVENTS = ("simultaneous", "beginners_qualifier", "beginners_final")
_GP_PAIR_EVENTS = (*_TABLE_EVENTS, "dm_open_2nd_division", "simultaneous_national")


# --- input records ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Player:
    """One player's participation in a part (a playing day, the whole tournament, a match, a team's row).

    ``boards``: boards this player played there. ``substitute_for``: the player key this one replaced, if a
    substitute (§ 405B6b, B7b). ``registered``: on the team's registered list (GP bonus, § 414A).
    """

    player: str
    boards: int
    substitute_for: str | None = None
    registered: bool = True


@dataclass(frozen=True)
class Entry:
    """A pair, player, mini-team or team with its place range ``first…last`` (``last`` for a tie).

    ``planned_boards``: the boards the tournament was planned with for these players (§ 405B7b) or, in a
    team standing, the team's boards (§ 411D); defaults to the section's boards.
    """

    entry: str
    first: int
    players: tuple[Player, ...] = ()
    last: int | None = None
    planned_boards: int | None = None

    @property
    def places(self) -> tuple[int, int]:
        return (self.first, self.last if self.last is not None else self.first)


@dataclass(frozen=True)
class Section:
    """A row or section of one part: its N present (§ 405B1), boards (per day for BP, total for SP/GP),
    strength row index (1 = top), movement facts (``met`` with a common top, D-Q5; ``robots``) and the
    ranked entries. ``field`` is a D entered by the director where the rules leave it open (§ 451A).
    ``rounds``: a mini-team row's scores per round, byes included; with a bye the row is ranked on them
    (§ 421B, D-Q23: :func:`.minihold.bye_ranking`), each bye counting ``bye_vp`` (the organiser's substitute
    score) or else the rule set's ``minihold_bye_vp``."""

    key: str
    participants: int
    boards: int
    entries: tuple[Entry, ...]
    row: int = 1
    met: int | None = None
    robots: bool = False
    field: Fraction | None = None
    rounds: tuple[TeamRound, ...] = ()
    bye_vp: Fraction | None = None


@dataclass(frozen=True)
class Part:
    """A scoring part: one playing day for BP (§ 405B6a) or the final overall result for SP/GP (§ 405B7a).
    ``rows`` is the number of strength rows (default: the highest section row)."""

    key: str
    sections: tuple[Section, ...]
    split: str = "random"
    rows: int | None = None


@dataclass(frozen=True)
class PairEvent:
    """A pairs, individual or mini-team tournament (§§ 421–444).

    ``sanction``: a club's SP/GP sanction (§ 403): ``"full"``, ``"half"`` (n1 = ½, § 403B2) or
    ``"automatic"`` (SP simultaneous events and top-16, § 403A). ``special`` names the events with their
    own rules (:data:`SPECIAL_EVENTS`). ``handicap``/``ranking_basis`` state how the caller ranked a
    handicap event (§ 405B6f, D-Q17). ``pair_bonus``: the event pays the § 406B2 bonus (DM junior pairs
    final, § 433B2b); ``manual_bonus`` maps entry keys to the per-player units entered by hand (§ 451A).
    """

    form: str
    category: str
    parts: tuple[Part, ...]
    organizer: str = "club"
    sanction: str = "none"
    special: str = "standard"
    handicap: bool = False
    ranking_basis: str = "nominal"
    pair_bonus: bool = False
    manual_bonus: tuple[tuple[str, int], ...] = ()


# --- checks -------------------------------------------------------------------------------------------------------


def check_permission(category: str, organizer: str, sanction: str) -> None:
    """Who may award what (§ 403, ``dbf.md`` § 2.16): clubs BP; districts and kredse SP; DBf GP; a club SP
    or GP only with a sanction (full or half, § 403B1–2; automatic SP for simultaneous events and the
    top-16, § 403A; GP also in jubilee years, § 403B4). Anything else is refused."""
    if organizer not in ORGANIZERS:
        raise RequestError("organizer", f"unknown organizer {organizer!r}: one of {', '.join(ORGANIZERS)}")
    if sanction not in SANCTIONS:
        raise RequestError("sanction", f"unknown sanction {sanction!r}: one of {', '.join(SANCTIONS)}")
    if category == "BP":
        return
    if category == "SP" and organizer in ("district", "circle", "federation"):
        return
    if category == "GP" and organizer == "federation":
        return
    if category == "GP" and organizer in ("district", "circle"):
        raise RequestError("organizer", f"a {organizer} may not award GP: only DBf may (§ 403)")
    if organizer == "club":
        if sanction == "none":
            raise RequestError("sanction", f"a club awards {category} only with a sanction (§ 403, § 403B)")
        if category == "GP" and sanction == "automatic":
            raise RequestError("sanction", "automatic sanctions cover SP only (§ 403A); GP needs DBf's sanction")


def _quota_for(event: PairEvent, boards: int, rules: DbfRuleSet) -> str | None:
    """n1 overrides: § 433E2 simultaneous and § 433D2a beginners' qualifiers ½, § 433D2b beginners' final 1
    (all exempt from the board rule); § 403B2 half MP: half of what the board rule gives, and only when it pays
    at all, since a sanctioned form must meet the board criteria (§ 403B5d, B6d).

    D-Q64 (§ 403B1–2 "En årlig turnering … med fuld MP-uddeling" / "med halv MP-uddeling"; § 405B7c "Hvis der
    spilles mellem 27 og 41 spil, beregnes halv kvote SP"): a full sanction pays what the rules give, which is
    the half quota for 27–41 boards; a half sanction pays half of that, so n1 = ½ from 42 boards and ¼ for 27–41
    (before, a half sanction of 27–41 boards paid as a full one)."""
    if event.special in ("simultaneous", "beginners_qualifier"):
        return "half"
    if event.special == "beginners_final":
        return "full"
    if event.sanction == "half" and quota_n1(event.category, event.organizer, boards, rules)[0] > 0:
        return "half_of_rule"
    return None


def _check_special(event: PairEvent) -> None:
    special = event.special
    if special not in SPECIAL_EVENTS:
        raise RequestError("special", f"unknown special event {special!r}: one of {', '.join(SPECIAL_EVENTS)}")
    if special in _SP_PAIR_EVENTS and (event.form, event.category) != ("pairs", "SP"):
        raise RequestError("special", f"{special} is an SP pairs event ({SPECIAL_EVENTS[special]})")
    if special in _GP_PAIR_EVENTS and (event.form, event.category) != ("pairs", "GP"):
        raise RequestError("special", f"{special} is a GP pairs event ({SPECIAL_EVENTS[special]})")
    if special == "junior_pairs_final" and (event.form, event.category) not in (("pairs", "SP"), ("pairs", "GP")):
        raise RequestError("special", "the DM junior pairs final awards SP, or GP after regional rounds (§ 433B2)")
    if special == "top16" and (event.form, event.category) != ("individual", "SP"):
        raise RequestError("special", "the top-16 is an SP individual tournament (§ 443B)")
    if event.pair_bonus and not (special == "junior_pairs_final" and event.category == "SP"):
        raise RequestError(
            "pair_bonus",
            "the § 406B2 pair bonus is paid in the DM junior pairs final with SP only "
            "(§ 433B2b; GP without bonus, § 433B2c)",
        )
    if special == "beginners_qualifier":
        for i, part in enumerate(event.parts):
            if part.split == "strength":
                raise RequestError(
                    f"parts[{i}].split", "the DM beginners' qualifiers must not be split by strength (§ 433D1)"
                )


def event_warnings(event: PairEvent, rules: DbfRuleSet = DBF_2023) -> list[str]:
    """Things the director should look at that do not stop the computation."""
    warnings = []
    if event.special in ("simultaneous", "simultaneous_national") and any(p.split == "strength" for p in event.parts):
        warnings.append("simultaneous events should not be split by strength (§ 433E1)")
    if event.pair_bonus and not rules.pair_bonus_enabled and not event.manual_bonus:
        warnings.append("the pair bonus formula is off (D-Q15) and no bonus was entered by hand (§ 451A)")
    return warnings


# --- pairs, individual, mini-teams --------------------------------------------------------------------------------


def pair_event_awards(event: PairEvent, rules: DbfRuleSet = DBF_2023) -> list[PlayerAward]:
    """Every player's award for every scoring part of a pairs, individual or mini-team tournament.

    BP: one part per playing day, each its own MP event on that day's score (§ 405B6a, § 431B); every
    player who played that day, substitutes included, gets the entry's BP (§ 405B6b). SP/GP: one part, the
    final overall result (§ 405B7a; no BP for partial results, § 405B7e); S ∈ {0, 1} (D-Q4): a player with
    at least half the planned boards gets the entry's award, otherwise the substitute who played at least
    half (§ 405B7b). Ties share unrounded sums (§ 405B3, D-Q12).
    """
    if event.form not in FORMS:
        raise RequestError("form", f"unknown form {event.form!r}: one of {', '.join(FORMS)}")
    if event.category not in CATEGORIES:
        raise RequestError("category", f"unknown category {event.category!r}: one of {', '.join(CATEGORIES)}")
    sanction = (
        "automatic" if event.special in ("simultaneous", "top16") and event.sanction == "none" else event.sanction
    )
    check_permission(event.category, event.organizer, sanction)
    _check_special(event)
    if not event.parts:
        raise RequestError("parts", "an event needs at least one part")
    if event.category != "BP" and len(event.parts) != 1:
        raise RequestError(
            "parts",
            f"{event.category} are awarded once, on the final overall result (§ 405B7a); partial results earn no BP "
            "(§ 405B7e): give one part",
        )
    if event.handicap:
        if event.category == "BP" and event.ranking_basis != "nominal":
            raise RequestError("ranking_basis", "BP in a handicap event go by the nominal result (§ 405B6f)")
        if event.category != "BP" and event.ranking_basis != rules.handicap_sp_gp_ranking:
            raise RequestError(
                "ranking_basis",
                f"this rule set ranks SP/GP handicap events by the {rules.handicap_sp_gp_ranking} result (D-Q17)",
            )
    manual = dict(event.manual_bonus)
    awards: list[PlayerAward] = []
    for i, part in enumerate(event.parts):
        where = f"parts[{i}]"
        if part.split not in SPLITS:
            raise RequestError(f"{where}.split", f"unknown split {part.split!r}: one of {', '.join(SPLITS)}")
        if not part.sections:
            raise RequestError(f"{where}.sections", "a part needs at least one section")
        rows = part.rows if part.rows is not None else max(s.row for s in part.sections)
        common_n = None
        if part.split == "random" and rules.random_rows_common_scale and len(part.sections) > 1:
            # D-Q8 (alternative reading): one common scale from the average row size, rounded up.
            common_n = math.ceil(Fraction(sum(s.participants for s in part.sections), len(part.sections)))
        for j, section in enumerate(part.sections):
            at = f"{where}.sections[{j}]"
            section_scale = _section_scale(event, part, section, rows, common_n, rules, at)
            label = f"{part.key}/{section.key}" if len(part.sections) > 1 else part.key
            awards += _section_awards(event, section, section_scale, label, rules, at)
            if event.pair_bonus:
                awards += _pair_bonus_awards(event, part, section, rows, label, manual, rules, at)
    return awards


def _section_scale(
    event: PairEvent, part: Part, section: Section, rows: int, common_n: int | None, rules: DbfRuleSet, at: str
) -> Scale:
    n = common_n if common_n is not None else section.participants
    try:
        if event.special in _TABLE_EVENTS:
            return pair_table_scale(event.special, n, rules)
        if event.special == "simultaneous_national":
            count = (
                sum(s.participants for s in part.sections) if rules.klubsolv_count == "total" else section.participants
            )
            return klubsolv_scale(count, rules)
        return scale(_scale_request(event, part, section, rows, n, rules), rules)
    except RequestError as exc:
        raise RequestError(f"{at}.{exc.field}", exc.message) from None


def _scale_request(event: PairEvent, part: Part, section: Section, rows: int, n: int, rules: DbfRuleSet):
    surcharge = None
    if event.special == "junior_pairs_final" and event.category == "SP":
        # § 433B2a: the condition of § 405B7f "er opfyldt": n2 always counts, at least 0.2.
        computed = surcharge_n2("SP", "federation", section.boards, rules)
        surcharge = max(computed, rules.junior_final_min_n2)
    multiplier = rules.dm_open_2nd_division_multiplier if event.special == "dm_open_2nd_division" else Fraction(1)
    return ScaleRequest(
        form=event.form,
        category=event.category,
        participants=n,
        boards=section.boards,
        organizer=event.organizer,
        met=section.met,
        robots=section.robots,
        top16=event.special == "top16",
        rows=rows,
        row=section.row,
        split=part.split,
        multiplier=multiplier,
        quota=_quota_for(event, section.boards, rules),
        surcharge=surcharge,
        field=section.field,
    )


def _checked_entries(section: Section, at: str) -> list[tuple[int, int]]:
    if section.participants < 1:
        raise RequestError(f"{at}.participants", f"need at least 1 participant, not {section.participants}")
    if section.boards < 0:
        raise RequestError(f"{at}.boards", f"the number of boards cannot be negative ({section.boards})")
    keys = [e.entry for e in section.entries]
    if len(set(keys)) != len(keys):
        raise RequestError(f"{at}.entries", "each entry may appear only once in a section")
    players = [p.player for e in section.entries for p in e.players]
    if len(set(players)) != len(players):
        twice = sorted({p for p in players if players.count(p) > 1})
        raise RequestError(f"{at}.entries", f"a player may play for one entry only: {', '.join(twice)}")
    return parse_ranks([list(e.places) for e in section.entries], field_size=section.participants, name=f"{at}.entries")


def place_inputs(first: int, last: int) -> tuple[tuple[str, str], ...]:
    return (("place", str(first)),) if first == last else (("tie", f"{first}-{last}"),)


def _eligible_players(
    event: PairEvent, entry: Entry, planned: int, rules: DbfRuleSet, at: str
) -> list[tuple[Player, bool, str]]:
    """(player, eligible, why) for each player of an entry.

    BP: whoever played that session (§ 405B6b). SP/GP: at least half the planned boards; a substitute only
    when the player replaced is not eligible and the substitute played at least half (§ 405B7b, D-Q4).
    """
    out: list[tuple[Player, bool, str]] = []
    regular = {p.player for p in entry.players if p.substitute_for is None}
    for p in entry.players:
        if p.boards < 0:
            raise RequestError(f"{at}.players", f"player {p.player} cannot have played a negative number of boards")
        if p.substitute_for is not None and p.substitute_for not in regular:
            raise RequestError(
                f"{at}.players", f"{p.player} substitutes for {p.substitute_for}, who is not a player of this entry"
            )
    if event.category == "BP":
        for p in entry.players:
            played = p.boards > 0
            out.append((p, played, "played this session (§ 405B6b)" if played else "did not play this session"))
        return out

    def enough(p: Player) -> bool:
        return p.boards >= planned * rules.sp_gp_min_share

    for p in entry.players:
        if p.substitute_for is None:
            ok = enough(p)
            out.append((p, ok, "played at least half (§ 405B7b)" if ok else "played less than half (§ 405B7b)"))
        else:
            replaced = next(q for q in entry.players if q.player == p.substitute_for and q.substitute_for is None)
            if enough(replaced):
                out.append((p, False, "the player replaced qualified himself (§ 405B7b)"))
            else:
                ok = enough(p)
                why = "substitute with at least half (§ 405B7b)" if ok else "substitute with less than half (§ 405B7b)"
                out.append((p, ok, why))
    return out


def _section_awards(
    event: PairEvent, section: Section, section_scale: Scale, label: str, rules: DbfRuleSet, at: str
) -> list[PlayerAward]:
    ranks = _checked_entries(section, at)
    if section.rounds and event.form != "minihold":
        raise RequestError(f"{at}.rounds", "rounds with byes rank a mini-team row (§ 421B), not a pairs section")
    byes = bye_ranking(
        [e.entry for e in section.entries], section.rounds, rules, at=f"{at}.rounds", bye_vp=section.bye_vp
    )
    if byes is not None:
        ranks = [byes.places[e.entry] for e in section.entries]
    out = []
    for k, (entry, (first, last)) in enumerate(zip(section.entries, ranks, strict=True)):
        units = section_scale.share_units(first, last) if section_scale.places_paid else 0
        planned = entry.planned_boards if entry.planned_boards is not None else section.boards
        for player, eligible, why in _eligible_players(event, entry, planned, rules, f"{at}.entries[{k}]"):
            rule_ids = [*section_scale.explanation.rules, SPECIAL_EVENTS[event.special]]
            rule_ids += ["§ 405B6a", "§ 405B6b"] if event.category == "BP" else ["§ 405B7a", "§ 405B7b", "D-Q4"]
            if byes is not None:
                rule_ids += ["§ 421B", "D-Q23"]
            if first != last:
                rule_ids += ["§ 405B3", "D-Q12"]
            if event.handicap:
                rule_ids.append("§ 405B6f" if event.category == "BP" else "D-Q17")
            inputs = (
                *section_scale.explanation.inputs,
                *(byes.inputs(entry.entry) if byes is not None else ()),
                *place_inputs(first, last),
                ("boards_played", f"{player.boards}/{planned}"),
                ("S", "1" if eligible else "0"),
                ("eligibility", why),
            )
            out.append(
                PlayerAward(
                    player.player,
                    entry.entry,
                    event.category,
                    units if eligible else 0,
                    Explanation(tuple(dict.fromkeys(rule_ids)), inputs, section_scale.explanation.reason),
                    label,
                )
            )
    return out


def _pair_bonus_awards(
    event: PairEvent,
    part: Part,
    section: Section,
    rows: int,
    label: str,
    manual: dict[str, int],
    rules: DbfRuleSet,
    at: str,
) -> list[PlayerAward]:
    """§ 406B2 bonus (§ 433B2b; ``dbf.md`` § 2.13): entered by hand (§ 451A) when given, else the provisional
    formula when the rule set enables it (D-Q15), else nothing. Eligibility as § 405B7b; full bonus (§ 431D)."""
    ranks = _checked_entries(section, at)
    bonus_scale = None
    if rules.pair_bonus_enabled:
        bonus_scale = pair_bonus_scale(_scale_request(event, part, section, rows, section.participants, rules), rules)
    out = []
    for k, (entry, (first, last)) in enumerate(zip(section.entries, ranks, strict=True)):
        if entry.entry in manual:
            units = manual[entry.entry]
            if isinstance(units, bool) or not isinstance(units, int) or units < 0:
                raise RequestError("manual_bonus", f"the bonus entered for {entry.entry} must be whole units ≥ 0")
            base = Explanation(("§ 406B2", "§ 451A", "D-Q15"), (("entered_by", "director"),))
        elif bonus_scale is not None:
            units = bonus_scale.share_units(first, last) if bonus_scale.places_paid else 0
            base = bonus_scale.explanation
        else:
            continue
        planned = entry.planned_boards if entry.planned_boards is not None else section.boards
        for player, eligible, why in _eligible_players(event, entry, planned, rules, f"{at}.entries[{k}]"):
            rule_ids = (*base.rules, "§ 431D", "§ 405B7b")
            inputs = (*base.inputs, *place_inputs(first, last), ("S", "1" if eligible else "0"), ("eligibility", why))
            out.append(
                PlayerAward(
                    player.player,
                    entry.entry,
                    event.category,
                    units if eligible else 0,
                    Explanation(tuple(dict.fromkeys(rule_ids)), inputs, base.reason),
                    f"{label}/bonus",
                )
            )
    return out


def awards_total(awards: Sequence[PlayerAward]) -> dict[tuple[str, str], int]:
    """Sum of units per (player, kind): a convenience for previews and tests."""
    totals: dict[tuple[str, str], int] = {}
    for award in awards:
        key = (award.player, award.kind)
        totals[key] = totals.get(key, 0) + award.units
    return totals
