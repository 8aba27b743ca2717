"""DBf's upload adapter (``SchemeInfo.scoring_adapter``): an uploaded event's ranking groups scored by the
pairs, individual and mini-team rules (§§ 405–421) under the rule set valid on its date; team events by
:mod:`rulebooks.dbf.scoring_teams`."""

from __future__ import annotations

from fractions import Fraction

from django.utils.translation import gettext_lazy as _

from federation.rulesets import rules_for
from masterpoints.engine.dbf import events as dbf_events
from masterpoints.engine.dbf import minihold as dbf_minihold
from masterpoints.engine.dbf.scale import fmt
from masterpoints.uploads import claims, substitutes
from masterpoints.uploads.lines import GroupLine, Preview, group_label
from masterpoints.uploads.scoring import (
    ScoringResult,
    event_boards,
    event_form,
    note_groups_awarding_nothing,
)
from rulebooks.dbf.scoring_teams import dbf_team_awards
from tournaments.issues import Issue


def score_dbf(preview: Preview) -> ScoringResult:
    """DBf: one upload is one scoring part: a playing day for BP (§ 405B6a), the whole tournament for SP/GP
    (§ 405B7a). Each ranking group is a section; strength rows follow the groups' order (§ 405B5).

    D-Q8 (§ 405B4 "får alle rækker den samme MP-uddeling"): the same rule in every random row (M, r = 0), each
    on its own N, as § 405B1 computes MP "efter antallet af deltagere i rækken" (``random_rows_common_scale``)."""
    rules = rules_for(preview.upload.federation, preview.event.date)
    if event_form(preview) == "teams":
        awards, issues = dbf_team_awards(preview, rules, boards=event_boards(preview))
        return ScoringResult(awards=awards, issues=issues)
    facts = preview.upload.facts
    boards, quota_issue = quota_boards(preview)
    split = "strength" if facts.get("split_by_strength") else "random"
    sections = []
    notes: list = []
    basis = handicap_basis(preview, rules, notes)
    for group in preview.groups:
        rounds, bye_vp = (
            _minihold_byes(preview, group, rules, notes) if event_form(preview) == "minihold" else ((), None)
        )
        entries = tuple(
            dbf_events.Entry(
                entry=line.entry.key,
                first=_places(line, basis)[0],
                last=_places(line, basis)[1],
                players=_seated_players(preview, line, boards, notes),
            )
            for line in group.entries
            if not is_absent(line)  # § 405B1: nothing for it, and not in N (nor its place in the field)
        )
        sections.append(
            dbf_events.Section(
                key=group.group.key,
                participants=group.group.field_size - sum(1 for line in group.entries if is_absent(line)),
                boards=boards,
                entries=entries,
                row=group.row_number if split == "strength" else 1,
                met=facts.get("met"),
                robots=bool(facts.get("robots")),
                rounds=rounds,
                bye_vp=bye_vp,
            )
        )
    event = dbf_events.PairEvent(
        form=event_form(preview),
        category=facts["category"],
        organizer=facts.get("organiser_kind", "club"),
        parts=(dbf_events.Part(key="", sections=tuple(sections), split=split),),
        sanction=preview.sanction,  # § 403A–B, found by tournaments.sanctions.event_sanction
        special=claims.engine_special(preview),
        handicap=basis is not None,
        ranking_basis=basis or "nominal",
    )
    result = ScoringResult(awards=dbf_events.pair_event_awards(event, rules), issues=[*quota_issue, *notes])
    note_groups_awarding_nothing(preview, result)
    return result


def handicap_basis(preview: Preview, rules, notes: list) -> str | None:
    """The result a handicap event's MP go by (``"nominal"`` or ``"handicap"``), ``None`` for another event; the
    preview names it (HANDICAP_NOMINAL, HANDICAP_RESULT). A file marks a handicap event by its handicaps (USEBIO
    ``HANDICAP``, the CSV template's ``handicap``); its scores are the nominal result, its places the handicap one.

    § 405B6f "I en handicapturnering uddeles BP efter det nominelle resultat uden medregning af
    handicapændringen": BP by the places computed from the scores, for every format that marks handicaps.

    D-Q17 (§ 405B6f is written for BP only; § 405B7 says nothing of handicaps): SP and GP go by the result the
    rule set names (``handicap_sp_gp_ranking``, by default ``"handicap"``: the tournament's own result, which
    is the file's places). Before, every handicap file was paid on the scratch ranking whatever the category.

    A handicap event declared on the upload (``facts["handicap"]``) whose file carries no handicap is paid on
    the file's places as they are, and the preview says so with the rule (HANDICAP_NOT_IN_FILE)."""
    category = preview.upload.facts["category"]
    basis = "nominal" if category == "BP" else rules.handicap_sp_gp_ranking
    if not preview.event.handicap:
        if preview.upload.facts.get("handicap"):  # declared on the upload, but the file carries no handicap
            column = HANDICAP_COLUMNS.get(preview.event.format, "handicap")
            rule = "§ 405B6f" if category == "BP" else "D-Q17"
            params = {"format": preview.event.format.upper(), "column": column, "category": category, "rule": rule}
            notes.append(Issue("HANDICAP_NOT_IN_FILE", params={**params, "basis": HANDICAP_BASES[basis]}))
        return None
    if basis == "nominal":
        rule = "§ 405B6f" if category == "BP" else "D-Q17"
        notes.append(Issue("HANDICAP_NOMINAL", params={"category": category, "rule": rule}))
        return basis
    lines = [line for group in preview.groups for line in group.entries]
    changed = sum(1 for line in lines if _places(line, basis) != (line.entry.place_first, line.entry.place_last))
    notes.append(Issue("HANDICAP_RESULT", params={"category": category, "changed": changed}))
    return basis


#: Where each format carries a handicap (USEBIO's element, the PBN user column, the CSV template's column).
HANDICAP_COLUMNS = {"usebio": "HANDICAP", "pbn": "Handicap", "csv": "handicap"}
HANDICAP_BASES = {"nominal": _("nominal"), "handicap": _("handicap")}


def _places(line, basis: str | None) -> tuple[int | None, int | None]:
    """The places an entry is paid on: the file's (handicap) places when the event goes by the handicap result
    and the file gives them, else the ranking the preview shows."""
    entry = line.entry
    if basis == "handicap" and entry.handicap_first is not None:
        return entry.handicap_first, entry.handicap_last
    return entry.place_first, entry.place_last


def _seated_players(preview: Preview, line, boards: int, notes: list) -> tuple[dbf_events.Player, ...]:
    """An entry's players for the engine, each with their boards, and who substituted for whom: the director's
    answer on the preview, else D-Q62's assumption (:mod:`masterpoints.uploads.substitutes`, § 405B7b)."""
    players = [
        dbf_events.Player(player=player.key, boards=_recorded(player.boards_played, line, boards))
        for player in line.players
    ]
    facts = preview.upload.facts
    return substitutes.engine_players(
        players,
        line,
        category=facts.get("category"),
        form=event_form(preview),
        answers=facts.get("substitutes") or {},
        notes=notes,
    )


def quota_boards(preview: Preview) -> tuple[int, list]:
    """The boards that set a DBf pairs, individual or mini-team event's quota n1 (§ 405B6c, § 405B7c, § 405B7g)
    and each player's half (§ 405B7b), and the preview's line naming them when the file's two counts differ.

    D-Q63 (§ 405B7c "Hvis der spilles 42 eller flere spil i den samlede turnering, beregnes fuld kvote SP";
    § 405B6c "min. 18 spil pr. spilledag"; § 405B7b "det antal spil …, som turneringen er tilrettelagt med for
    denne spiller"): the boards counted are those the tournament has each participant play, which the file
    states (a PBN's NrBoards, the declared boards), not the boards its travellers hold: a movement with a
    sit-out or a relay puts more boards in play than any pair plays (27 travellers, 24 boards a pair). The
    director's figure on the form wins; else the count the director chose on the preview (declared or counted,
    ``facts["quota_count"]``, D-Q63); else the declared boards; else the travellers' count. When the
    file's two counts differ, the preview says which set the quota and asks (QUOTA_BOARDS: the reading's choice,
    QUOTA_BOARDS_CHOSEN: the director's)."""
    facts, event = preview.upload.facts, preview.event
    declared, counted = event.boards_declared, event.boards_played
    boards, source = substitutes.quota_count(facts, declared, counted)
    issues = []
    if source != "form" and declared and counted and declared != counted:
        params = {"declared": declared, "counted": counted, "used": boards, "source": source}
        params["count_name"] = substitutes.QUOTA_COUNTS[source]
        chosen = facts.get("quota_count") in substitutes.QUOTA_COUNTS
        issues.append(Issue("QUOTA_BOARDS_CHOSEN" if chosen else "QUOTA_BOARDS", params=params))
    return boards, issues


def _recorded(boards_played: int | None, line, event_boards: int) -> int:
    """A player's boards: their own as recorded, else their entry's, else the event's. A recorded 0 is a fact
    (§ 405B1: an absent player), never a missing value."""
    for value in (boards_played, line.entry.boards_played):
        if value is not None:
            return value
    return event_boards


def is_absent(line) -> bool:
    """§ 405B1 ("En fraværende deltager tæller ikke med"): an entry the file records with 0 boards, itself or
    for each of its players, took no part and does not count in N."""
    if line.entry.boards_played is not None:
        return line.entry.boards_played == 0
    recorded = [player.boards_played for player in line.players]
    return bool(recorded) and all(boards == 0 for boards in recorded)


def _minihold_byes(preview: Preview, group: GroupLine, rules, notes: list) -> tuple[tuple, Fraction | None]:
    """The rounds and bye score a mini-team row is ranked on for MP (§ 421B), or none: the file's places stand.

    D-Q23 (revised; § 421B "Ved et ulige antal hold kan der af hensyn til MP-uddelingen gives en erstatningsscore
    (fx 13 KP ved 20/0-skalaen (§ 202A)) til oversidderhold"): "kan … gives" leaves the substitute score to the
    organiser, and 13 VP is the text's example. A row with byes keeps the file's places unless the upload states
    the organiser's bye score (the form's ``bye_vp``); with one, the row is ranked on VP with each bye counting the
    file's own bye score or else that one (equal totals share, § 405B3). The preview names the byes either way
    (MINIHOLD_BYES_FILE_PLACES) and every place the bye score changes (MINIHOLD_BYE_PLACE_CHANGED)."""
    rounds = _minihold_rounds(preview, group)
    if not any(item.bye for item in rounds):
        return (), None
    given = preview.upload.facts.get("bye_vp")
    if given in (None, ""):
        notes.append(Issue("MINIHOLD_BYES_FILE_PLACES", params={"group": group_label(group)}))
        return (), None
    bye_vp = Fraction(str(given))
    keys = [line.entry.key for line in group.entries if not is_absent(line)]
    ranking = dbf_minihold.bye_ranking(keys, rounds, rules, bye_vp=bye_vp)
    for line in group.entries:
        if ranking is None or line.entry.key not in ranking.places:
            continue
        first, last = ranking.places[line.entry.key]
        if (first, last) != (line.entry.place_first, line.entry.place_last):
            params = {
                "entry": line.entry.name or line.entry.number,
                "file_place": line.entry.place_in_file or line.entry.place_first,
                "place": first if first == last else f"{first}-{last}",
                "vp": fmt(ranking.totals[line.entry.key]),
                "bye_vp": fmt(bye_vp),
            }
            notes.append(Issue("MINIHOLD_BYE_PLACE_CHANGED", line.entry.where, params))
    return rounds, bye_vp


def _minihold_rounds(preview: Preview, group: GroupLine) -> tuple[dbf_minihold.TeamRound, ...]:
    """Each team's VP in each round of a mini-team row, byes included, for the § 421B bye score (D-Q23).

    A match the file lists from both sides counts once per team (a round is told by its board range where
    the file gives one, as rounds may then count each team's own matches); a side without VP takes the VP
    the other listing gives."""
    keys = {line.entry.number: line.entry.key for line in group.entries}
    scores: dict[tuple, Fraction | None] = {}
    labels: dict[tuple, str] = {}
    for match in preview.event.matches:
        when = match.round if match.start_board is None else (match.start_board, match.end_board)
        sides = [(match.team, match.opponent, match.vp)]
        if match.opponent is not None:
            sides.append((match.opponent, match.team, match.opponent_vp))
        for team, opponent, vp in sides:
            key = (team, opponent, match.session, when)
            if team in keys and scores.get(key) is None:
                scores[key] = None if vp is None else Fraction(vp)
                labels[key] = match.round
    return tuple(
        dbf_minihold.TeamRound(keys[key[0]], labels[key], vp, bye=key[1] is None) for key, vp in scores.items()
    )
