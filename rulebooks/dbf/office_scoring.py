"""Score an office entry by its section's table: the engine's own computations, fed from the entry (§ 451A).

Pairs (§ 433B–D, § 434A) go to :func:`~masterpoints.engine.dbf.events.pair_event_awards` with the form's
special event and the field the office entered (the ranking lists only the places that were entered, so the
field is a fact, not the number of lines). Team events (§ 414B–G) and the cup (§ 414H) go to
:func:`~masterpoints.engine.dbf.team_events.team_event_awards`, one match per won or drawn match entered
(D-Q34, D-Q36). Every award cites the section it was entered under.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

from federation.rulesets import rules_for
from masterpoints.engine.common import Explanation, PlayerAward, RequestError
from masterpoints.engine.dbf import events as dbf_events
from masterpoints.engine.dbf import team_events as dbf_teams
from masterpoints.engine.dbf.tables import OfficeForm, office_form
from masterpoints.uploads.lines import Preview
from masterpoints.uploads.scoring import ScoringResult, note_groups_awarding_nothing
from rulebooks.dbf.scoring_teams import standing_entry


def score_dbf_office(preview: Preview) -> ScoringResult:
    """The awards of an office entry under the rule set valid on its date, each citing the form's section."""
    facts = preview.upload.facts
    try:
        form = office_form(facts["office_form"])
    except KeyError:
        raise RequestError("office_form", f"unknown office form {facts.get('office_form')!r}") from None
    rules = rules_for(preview.upload.federation, preview.event.date)
    awards = _pairs(preview, form, rules) if form.entry == "pairs" else _teams(preview, form, rules)
    result = ScoringResult(awards=[_citing(award, form.section) for award in awards])
    note_groups_awarding_nothing(preview, result)
    return result


def _citing(award: PlayerAward, section: str) -> PlayerAward:
    explanation = award.explanation
    rules = tuple(dict.fromkeys((section, *explanation.rules, "§ 451A", "D-Q33")))
    return replace(award, explanation=Explanation(rules, explanation.inputs, explanation.reason))


def _entry_facts(preview: Preview, line) -> dict:
    return preview.upload.facts["results"].get(line.entry.number, {})


def _pairs(preview: Preview, form: OfficeForm, rules) -> list[PlayerAward]:
    """One part, one section per ranking group, of the entered field (§ 405B1) and boards; the § 406B2 bonus
    as entered by hand (§ 433B2b, § 451A, D-Q15) where the form pays it."""
    facts = preview.upload.facts
    boards = int(facts["boards"])
    unit = rules.unit(form.category)
    sections, manual = [], []
    for group in preview.groups:
        entries = []
        for line in group.entries:
            entries.append(
                dbf_events.Entry(
                    entry=line.entry.key,
                    first=line.entry.place_first,
                    last=line.entry.place_last,
                    players=tuple(dbf_events.Player(player=p.key, boards=boards) for p in line.players),
                )
            )
            bonus = _entry_facts(preview, line).get("bonus")
            if bonus is not None:
                manual.append((line.entry.key, int(Fraction(Decimal(bonus)) / unit)))
        sections.append(
            dbf_events.Section(
                key=group.group.key, participants=int(facts["participants"]), boards=boards, entries=tuple(entries)
            )
        )
    event = dbf_events.PairEvent(
        form="pairs",
        category=form.category,
        parts=(dbf_events.Part(key="", sections=tuple(sections)),),
        organizer="federation",
        special=form.special,
        pair_bonus=form.pair_bonus,
        manual_bonus=tuple(manual),
    )
    return dbf_events.pair_event_awards(event, rules)


def _teams(preview: Preview, form: OfficeForm, rules) -> list[PlayerAward]:
    """Every won and drawn match entered, at the level's value (§ 414B–G a, the cup's round value § 414H),
    and the bonus for final placing by the level's table (§ 414B–G b–e) unless the stage pays none."""
    facts = preview.upload.facts
    cup = form.entry == "cup"
    level = int(facts.get("level") or 1)
    # D-Q35: a level beyond the printed match values plays for the last printed one (§ 414E2a ii: "Sekundære
    # finaler og eventuel semifinale: 0,75 GP" covers the C final and those below it).
    match_row = 1 if cup else min(level, len(rules.team_table(form.table).levels))
    matches, entries = [], []
    for group in preview.groups:
        for line in group.entries:
            matches += _matches(preview, line, form, match_row, cup)
            entries.append(_standing_entry(line))
    standings = ()
    if not cup and _pays_bonus(form, level, facts, rules):
        standings = (
            dbf_teams.Standing(
                key=str(level),
                entries=tuple(entries),
                teams=int(facts["participants"]),
                matches=1,
                boards=int(facts["boards"]),
                row=level,
                parallel_rows=int(facts.get("parallel_rows") or 1),
            ),
        )
    event = dbf_teams.TeamEvent(
        category=form.category, table=form.table, matches=tuple(matches), standings=standings, rows=match_row
    )
    return dbf_teams.team_event_awards(event, rules)


def _pays_bonus(form: OfficeForm, level: int, facts: dict, rules) -> bool:
    """The bonus is paid where the section prints one for the level (§ 414E2e: "I øvrige finaler uddeles ikke
    bonus") and the stage is not one without (a semifinal, promotion matches: § 411D2)."""
    levels = dict(rules.lookup(rules.team_bonus_tables, form.table))
    return str(level) in levels and not facts.get("no_bonus")


def _matches(preview: Preview, line, form: OfficeForm, row: int, cup: bool) -> list:
    """One engine match per won (and drawn) match of the team entered.

    D-Q34 (§ 414: "Hver spiller på det vindende hold får for hver vunden kamp"): the office enters each team's
    own won and drawn matches, so the opponent's side carries no players; a player with fewer boards than the
    team played that share of every match (§ 405A1, spread evenly as the upload does). D-Q36 (§ 414H2–3, "for
    hver vunden kamp" by round): a cup team's won matches are given by their rounds, every listed player
    played them in full, and the place entered is recorded but pays nothing (the cup has no bonus)."""
    facts = preview.upload.facts
    boards = int(facts["boards"])
    team_boards = line.entry.boards_played
    players = tuple(
        dbf_events.Player(
            player=p.key,
            boards=boards * p.boards_played // team_boards
            if p.boards_played is not None and team_boards and p.boards_played < team_boards
            else boards,
        )
        for p in line.players
    )
    entered = _entry_facts(preview, line)
    if cup:
        outcomes = [(r, "win", r) for r in entered.get("rounds", ())]
    else:
        outcomes = [(f"won {n}", "win", None) for n in range(1, int(entered.get("won", 0)) + 1)]
        outcomes += [(f"drawn {n}", "draw", None) for n in range(1, int(entered.get("drawn", 0)) + 1)]
    out, seen = [], {}
    for key, result, cup_round in outcomes:
        seen[key] = seen.get(key, 0) + 1
        out.append(
            dbf_teams.Match(
                key=f"{key} {seen[key]}" if cup else key,
                boards=boards,
                home=dbf_teams.TeamSide(line.entry.key, players, result=result),
                away=dbf_teams.TeamSide(f"{line.entry.key}/opponent", (), result="loss" if result == "win" else result),
                row=row,
                cup_round=cup_round,
            )
        )
    return out


def _standing_entry(line) -> dbf_events.Entry:
    """The team's place with each player's boards of the team's (§ 411D: half of them). D-Q34 (§ 414A: "være
    tilmeldt holdet. En substitut er ikke berettiget til bonus"): the players the office lists for a team are
    its registered players; a substitute is left off the line, or entered with the team in another entry."""
    return standing_entry(line, 1)
