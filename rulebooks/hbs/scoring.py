"""The HBS adapter: an uploaded event as the HBS engine's input (``masterpoints.engine.hbs``).

Four shapes of event, by what the director said of it and what the file holds:

- an ordinary tournament of one ranking (H-1, H-3 … H-10);
- one session ranked in several groups (directions, sections): one tournament, one field (H-22);
- a compound pairs event (rule 7, H-11, H-16): a file of several session rankings is one tournament, ranked by
  :func:`~masterpoints.engine.hbs.compound.compound_ranking`;
- a long-running team competition (rule 8, H-5, H-18, H-19): the director said so (the upload's nature), and every
  won match of the file's matches scores besides the final placing, for the players with rule 6's 33 % of their
  team's boards in the competition (H-28).

The kinds and S come from the chosen entry of the list of recognised tournaments with its fixed B (H-1, H-8),
else the director's kind and S (H-4). Player keys are the preview's line keys, as in :mod:`.scoring`.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

from federation.rulesets import rules_for
from masterpoints.engine.common import RequestError
from masterpoints.engine.hbs import events as hbs_events
from masterpoints.engine.hbs.compound import StageEntry, StageRanking, compound_ranking, parallel_places
from masterpoints.uploads.lines import EntryLine, PlayerLine, Preview
from masterpoints.uploads.scoring import (
    ScoringResult,
    event_boards,
    event_form,
    is_compound,
    note_groups_awarding_nothing,
)
from tournaments.issues import Issue

#: The upload's answer for a long-running team competition (rule 8; ``federation.schemes`` lists the answers).
LONG_RUNNING = "long_running"


def score_hbs(preview: Preview) -> ScoringResult:
    """Every player's HBS awards for the preview's event under the rule set valid on its date."""
    rules = rules_for(preview.upload.federation, preview.event.date)
    kinds = upload_kinds(preview.upload.facts)
    if preview.upload.facts.get("nature") == LONG_RUNNING:
        result = _long_running(preview, rules, kinds)
    elif is_compound(preview):
        return _compound(preview, rules, kinds)  # one field: it says itself whether it awards nothing
    elif len(preview.groups) > 1:
        return _parallel(preview, rules, kinds)  # one field, as above
    else:
        result = ScoringResult()
        form, boards = event_form(preview), event_boards(preview)
        for group in preview.groups:
            entries = tuple(_entry(line, form) for line in group.entries)
            event = hbs_events.Event(form=form, entries=entries, kinds=kinds, boards=boards)
            result.awards += hbs_events.event_awards(event, rules)
    # A group whose every award is 0 (field below the minimum, rule 5 / H-10; B ≤ 0, H-6) says why: the reason
    # is on the awards' explanations.
    note_groups_awarding_nothing(preview, result)
    return result


def upload_kinds(facts: dict) -> tuple[hbs_events.KindAward, ...]:
    """The kinds the upload awards with their S (H-1, H-4) and, from the list, B fixed in advance or by bands
    of field size (H-8); empty for an unlisted event without S (the rule set's default then, H-1)."""
    strength = facts.get("strength")
    pairs = [(facts["category"], strength)] if strength not in (None, "") else []
    if facts.get("kinds"):
        pairs = list(facts["kinds"])
    fixed = facts.get("fixed_b") or {}
    kinds = []
    for kind, s in pairs:
        terms = fixed.get(kind, {})
        first_place = terms.get("first_place")
        kinds.append(
            hbs_events.KindAward(
                kind=kind,
                strength=Decimal(s),
                first_place=Decimal(first_place) if first_place is not None else None,
                bands=tuple((int(n_min), Decimal(b)) for n_min, b in terms.get("bands", ())),
            )
        )
    return tuple(kinds)


def _entry(line: EntryLine, form: str, *, key: str | None = None, first: int | None = None, last: int | None = None):
    entry = line.entry
    return hbs_events.EventEntry(
        entry=key or entry.key,
        first=first if first is not None else entry.place_first,
        last=last if last is not None else entry.place_last,
        boards=entry.boards_played,
        players=tuple(hbs_events.Participant(player=p.key, boards=_team_boards(form, p, line)) for p in line.players),
    )


def _team_boards(form: str, player: PlayerLine, line: EntryLine) -> int | None:
    """H-9 needs every team player's boards; a file that does not say counts them as the team's."""
    if player.boards_played is not None:
        return player.boards_played
    return line.entry.boards_played if form == "teams" else None


# --- Način 2, Lista 5: the parallel rankings of one tournament (H-22) ------------------------------------


def _parallel(preview: Preview, rules, kinds) -> ScoringResult:
    """H-22: a file of one session ranked in several groups (the directions of a two-winner movement, sections)
    is one tournament. Način 2: "veličina turnira: iskazuje se kroz broj jedinica N (… parova, timova koji
    sudjeluju u natjecanju)"; Lista 5: "Minimalni broj jedinica za priznanje organiziranog turnira …" (the size is
    the units taking part in the competition; the minimum is for the tournament). So N and the minimum are the
    event's (H-10 read per tournament, no longer per group), and the same place in each group is a tie over the
    places it covers (:func:`~masterpoints.engine.hbs.compound.parallel_places`): the two winners of 6 + 6 pairs
    share places 1–2 of one spread with B from N = 12."""
    form, boards = event_form(preview), event_boards(preview)
    groups = [[(line.entry.key, line.entry.place_first) for line in group.entries] for group in preview.groups]
    places = parallel_places(groups)
    lines = [line for group in preview.groups for line in group.entries]
    entries = tuple(
        _entry(line, form, first=places[line.entry.key][0], last=places[line.entry.key][1]) for line in lines
    )
    event = hbs_events.Event(form=form, entries=entries, kinds=kinds, boards=boards)
    result = ScoringResult(awards=hbs_events.event_awards(event, rules))
    result.awards = [_cite(award, "H-22") for award in result.awards]
    if not any(award.units for award in result.awards):
        reason = next((a.explanation.reason for a in result.awards if a.explanation.reason is not None), None)
        result.nothing_awarded.append((preview.event.name or preview.upload.original_name, reason))
    for line in lines:
        for player in line.players:
            result.places[player.key] = places[line.entry.key]
    params = {"groups": len(groups), "n": len(entries), "form": form}
    result.issues.append(Issue("PARALLEL_RANKINGS", params=params))
    return result


def _cite(award, rule: str):
    """The award with ``rule`` among the rules its explanation cites."""
    explanation = replace(award.explanation, rules=(*award.explanation.rules, rule))
    return replace(award, explanation=explanation)


# --- rule 7: a compound pairs event (H-11, H-16) ---------------------------------------------------------


def _identity(player: PlayerLine) -> str:
    """Who a player is across the stages: the member resolved, else the number in the file, else the name."""
    if player.receives_points:
        return f"member {player.player.number}"
    if player.id_in_file:
        return f"number {player.id_in_file}"
    return f"name {player.name.casefold()}"


def _compound(preview: Preview, rules, kinds) -> ScoringResult:
    """Rule 7: the sessions of the file are the stages of one tournament (H-11): N the units of all stages,
    ranked by the final result (H-16), D the boards of the winner's path; each player scores once, on the
    line of the last stage their pair played, with the place of the final result."""
    form = event_form(preview)
    sessions: dict[str | None, list] = {}
    for group in preview.groups:
        sessions.setdefault(group.group.session, []).extend(group.entries)
    stages, last_line = [], {}
    for session, lines in sessions.items():
        entries = []
        for line in lines:
            members = tuple(sorted(_identity(p) for p in line.players)) or (f"entry {line.entry.key}",)
            unit = " + ".join(members)
            entries.append(StageEntry(unit, line.entry.place_first, line.entry.place_last, members))
            last_line[unit] = line
        played = [line.entry.boards_played for line in lines if line.entry.boards_played is not None]
        stages.append(StageRanking(f"session {session}", max(played) if played else None, tuple(entries)))
    ranking = compound_ranking(stages)
    director_boards = preview.upload.facts.get("boards")
    unknown = [stage.name for stage in stages if stage.boards is None]
    if unknown and not director_boards:
        raise RequestError(
            "boards",
            f"the file does not say how many boards {', '.join(unknown)} had: enter D, the boards of the winner's "
            "path through all sessions (H-11)",
        )
    entries = tuple(
        _entry(last_line[unit], form, key=unit, first=ranking.places[unit][0], last=ranking.places[unit][1])
        for unit in ranking.order
    )
    event = hbs_events.Event(
        form=form,
        entries=entries,
        kinds=kinds,
        boards=int(director_boards) if director_boards else None,
        stages=() if unknown else ranking.stages,
    )
    result = ScoringResult(awards=hbs_events.event_awards(event, rules))
    if not any(award.units for award in result.awards):  # one field: it awards nothing as a whole (H-10)
        reason = next((a.explanation.reason for a in result.awards if a.explanation.reason is not None), None)
        result.nothing_awarded.append((preview.event.name or preview.upload.original_name, reason))
    for unit in ranking.order:
        for player in last_line[unit].players:
            result.places[player.key] = ranking.places[unit]
    winner = ranking.order[0]
    boards = director_boards or sum(s.boards or 0 for i, s in enumerate(stages) if i <= ranking.reached[winner])
    params = {"sessions": len(stages), "n": len(ranking.order), "d": boards, "last": len(stages[-1].entries)}
    result.issues.append(Issue("COMPOUND_EVENT", params=params))
    if not ranking.eliminated:
        result.issues.append(Issue("COMPOUND_NO_ELIMINATION", params={"session": stages[-1].name}))
    return result


# --- rule 8: a long-running team competition (H-5, H-18) -------------------------------------------------


def _long_running(preview: Preview, rules, kinds) -> ScoringResult:
    """Rule 8 (H-5): "U dugotrajnim timskim natjecanjima … boduje se svaka pobjeda i konačan plasman". H-19: no
    file says a competition is long-running, so the director's answer on the upload does (its nature); each
    ranking group of the file is one competition, every won match between two of its teams scores (matches of
    at least 16 boards; byes do not) and so does the final placing, as separate awards."""
    event, form = preview.event, event_form(preview)
    if not event.matches:
        raise RequestError(
            "matches",
            "a long-running team competition scores every win (rule 8): the file has no matches (USEBIO MATCH "
            "elements, or the matches table of the CSV team template)",
        )
    result = ScoringResult()
    for group in preview.groups:
        lines_of = {line.entry.number: line for line in group.entries}
        matches = tuple(
            _match(match, lines_of[match.team], lines_of[match.opponent])
            for match in event.matches
            if match.team in lines_of and match.opponent in lines_of
        )
        competition = hbs_events.Event(
            form=form,
            entries=tuple(_entry(line, form) for line in group.entries),
            kinds=kinds,
            boards=event_boards(preview) or None,
            long_running=True,
            matches=matches,
        )
        result.awards += hbs_events.event_awards(competition, rules)
    return result


def _match(match, home: EntryLine, away: EntryLine) -> hbs_events.Match:
    where = f"round {match.round}, {match.team} – {match.opponent}"
    if match.boards is None:
        raise RequestError("matches", f"{where}: the file gives no boards for the match (rule 8 needs 16)")
    return hbs_events.Match(
        key=match.key,
        boards=match.boards,
        home=hbs_events.MatchSide(home.entry.key, _match_players(match, home)),
        away=hbs_events.MatchSide(away.entry.key, _match_players(match, away)),
        winner={1: home.entry.key, -1: away.entry.key, 0: None}[_result(match, where)],
    )


def _result(match, where: str) -> int:
    """H-18: who won, from the home team's side (1 won, 0 drawn, −1 lost): by the VP when the file gives them,
    else by the IMPs, else by the match score as written (board points of a point-a-board match)."""
    for ours, theirs in ((match.vp, match.opponent_vp), (match.imps, match.opponent_imps)):
        if ours is not None and theirs is not None:
            return (ours > theirs) - (ours < theirs)
    if match.score is not None and match.opponent_score is not None:
        return (match.score > match.opponent_score) - (match.score < match.opponent_score)
    raise RequestError("matches", f"{where}: the file gives no VP, IMPs or score for the match")


def _match_players(match, line: EntryLine) -> tuple[hbs_events.Participant, ...]:
    """Each player's boards in one match (H-18): from the match's line-up where the file has one (the pairs that
    sat, with their boards); without, the player's share of the team's boards, of every match. The engine judges
    rule 6's 33 % by them only where the rule set says "per match"; by default (H-28) it judges the boards each
    player played in the competition (the entries' players, :func:`_entry`), and every entitled player of the
    winning team scores the win."""
    team = line.entry.number
    lineup = [pair for pair in match.lineup if pair.team == team]
    players = []
    for player in line.players:
        if lineup:
            boards = sum(pair.boards for pair in lineup if pair.pair == line.entry.players[_index(player)].pair)
            if boards:
                players.append(hbs_events.Participant(player.key, boards))
            continue
        team_boards = line.entry.boards_played
        if player.boards_played is None or not team_boards or player.boards_played >= team_boards:
            players.append(hbs_events.Participant(player.key, match.boards))
        else:
            players.append(
                hbs_events.Participant(player.key, Fraction(match.boards * player.boards_played, team_boards))
            )
    return tuple(players)


def _index(player: PlayerLine) -> int:
    """The position of a player's line in its entry (line keys are ``entry key#n``, n from 1)."""
    return int(player.key.rsplit("#", 1)[1]) - 1
