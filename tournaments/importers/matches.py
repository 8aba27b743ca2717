"""The checks of a team event's matches, shared by all formats (called by :func:`~.ranking.finalise`).

Two ways of saying which match is which are in use. Without board ranges a match is a round of two
teams, and a team that plays two opponents in one round is an error. With board ranges
(``START_BOARD_NUMBER``/``END_BOARD_NUMBER``: TeamsScorer, Swiss writers) the range identifies the match
and the round may count only the listing team's own matches (TeamsScorer: team 1's fifth match is team
2's fourth), and a three-team round plays two opponents on one range, so rounds are not compared then:
only the same two teams listed twice on one range are a duplicate, an error when the scores differ.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from tournaments.issues import IssueList

from .draft import DraftEntry, DraftEvent
from .model import Match


def _sides(match: Match) -> dict[str | None, tuple[Decimal | None, ...]]:
    return {
        match.team: (match.score, match.vp, match.imps),
        match.opponent: (match.opponent_score, match.opponent_vp, match.opponent_imps),
    }


def _score_text(match: Match) -> str:
    values = [(match.score, match.opponent_score), (match.vp, match.opponent_vp), (match.imps, match.opponent_imps)]
    ours, theirs = next(((a, b) for a, b in values if a is not None or b is not None), (None, None))
    return (
        f"{match.team} {ours if ours is not None else '?'} - {theirs if theirs is not None else '?'} {match.opponent}"
    )


def check_matches(draft: DraftEvent, entries: list[DraftEntry], issues: IssueList) -> tuple[Match, ...]:
    """The matches to keep, in file order.

    Guarantees: a match naming a team that is not among ``entries`` is reported (``MATCH_TEAM_UNKNOWN``)
    and kept; a match listed from both sides is kept once; with board ranges, the same two teams on the
    same range with other scores are ``MATCH_DUPLICATE`` / ``boards`` (the second listing dropped);
    without, a team with two opponents in one round is ``MATCH_DUPLICATE`` (dropped).
    """
    numbers = {e.number for e in entries}
    kept: list[Match] = []
    opponents: dict[tuple[str | None, str, str], str | None] = {}
    ranged: dict[tuple, Match] = {}
    for match in draft.matches:
        unknown = [t for t in (match.team, match.opponent) if t is not None and t not in numbers]
        for team in unknown:
            issues.add("MATCH_TEAM_UNKNOWN", match.where, round=match.round, team=team)
        if match.start_board is not None and match.end_board is not None:
            key = (match.session, frozenset((match.team, match.opponent)), match.start_board, match.end_board)
            earlier = ranged.get(key)
            if earlier is None:
                ranged[key] = match
                kept.append(match)
            elif _sides(earlier) != _sides(match):
                issues.add(
                    "MATCH_DUPLICATE",
                    match.where,
                    variant="boards",
                    team=match.team,
                    opponent=match.opponent or "-",
                    boards=f"{match.start_board}-{match.end_board}",
                    score=_score_text(earlier),
                    other_score=_score_text(match),
                )
            continue
        if not _round_clash(match, opponents, issues):
            kept.append(match)
    return tuple(kept)


def _round_clash(match: Match, opponents: dict[tuple[str | None, str, str], str | None], issues: IssueList) -> bool:
    """Whether ``match`` is not to be kept: listed before from the other side, or (``MATCH_DUPLICATE``) a
    team of it already plays someone else in its round."""
    duplicate = False
    for team, opponent in ((match.team, match.opponent), (match.opponent, match.team)):
        if team is None:
            continue
        slot = (match.session, match.round, team)
        if slot in opponents:
            if opponents[slot] != opponent:
                issues.add("MATCH_DUPLICATE", match.where, round=match.round, team=team)
            duplicate = True  # the same match listed from the other side, or a clash
        else:
            opponents[slot] = opponent
    return duplicate


def team_boards_from_matches(matches: tuple[Match, ...]) -> dict[str, int]:
    """Each team's boards, summed over its matches; a team with a match of unknown length is left out."""
    totals: dict[str, int] = defaultdict(int)
    unknown: set[str] = set()
    for match in matches:
        for team in (match.team, match.opponent):
            if team is None:
                continue
            if match.boards is None:
                unknown.add(team)
            else:
                totals[team] += match.boards
    return {team: boards for team, boards in totals.items() if team not in unknown}
