"""Who replaced whom in a DBf pairs or individual event (§ 405B7b, D-Q62), and which of the
file's two board counts set the quota (§ 405B6c, § 405B7c, D-Q63): the scoring's side of the
director's answers on the preview (``facts["substitutes"]``, ``facts["quota_count"]``), and the questions the
summary stores for the page to ask (:func:`questions`, :func:`quota_question`).

§ 405B7b: "Kan spilleren således ikke få SP eller GP, uddeles disse i stedet dennes substitut, hvis vedkommende
har spillet mindst halvdelen af spillene." A substitute is paid *instead of* the player replaced, so the pair's
SP/GP go to at most two players (an individual's to one). No results file says who replaced whom: the preview
asks, per substitute, which of the entry's seated players (the first the file lists) the substitute replaced, or
none. Until the director answers, D-Q62's assumption stands (the seated player with the fewest boards), named
as a warning (SUBSTITUTE_ASSUMED); an answer is named as a note (SUBSTITUTE_ANSWERED, SUBSTITUTE_NONE: a
substitute who replaced nobody gets no SP/GP, the pair's two players are paid as they qualify). The answer is a
fact of the upload, so the preview and the confirm pay the same.
"""

from __future__ import annotations

import dataclasses

from django.utils.translation import gettext_lazy as _

from tournaments.issues import Issue

#: The seats of an entry whose SP/GP a substitute may take instead of a player (§ 405B7b, D-Q62).
SEATS = {"pairs": 2, "individual": 1}
#: The answer "replaced none of them".
NONE = "none"
#: The preview's lines that ask (or answered) who a substitute replaced.
CODES = ("SUBSTITUTE_ASSUMED", "SUBSTITUTE_ANSWERED", "SUBSTITUTE_NONE", "SUBSTITUTE_ANSWER_INVALID")
#: The answers to "which count set the quota" (D-Q63: ``declared`` unless the director chooses), as named.
QUOTA_COUNTS = {
    "declared": _("the boards the file declares each entry played"),
    "counted": _("the boards counted in the file's travellers"),
}


def seat_players(players: list, line, *, seats: int, answers: dict, notes: list) -> tuple:
    """The engine's players of ``line`` (``players``: :class:`dbf_events.Player` in the file's order): the first
    ``seats`` seated, each further one a substitute for the seated player the director named in ``answers``
    (substitute key → seated player key or :data:`NONE`), else for the one with the fewest boards not yet
    replaced (D-Q62). A substitute who replaced none is left out: no SP/GP (§ 405B7b)."""
    seated, replaced = players[:seats], set()
    out = list(seated)
    names = {p.key: p.name for p in line.players}
    seated_keys = [p.player for p in seated]
    for index in range(seats, len(players)):
        substitute = players[index]
        answer = answers.get(substitute.player)
        params = {
            "substitute": names[substitute.player],
            "substitute_boards": substitute.boards,
            "key": substitute.player,
            "entry": line.entry.key,
            "seated": ",".join(seated_keys),
        }
        where = line.players[index].where
        if answer == NONE:
            notes.append(Issue("SUBSTITUTE_NONE", where, params))
            continue
        if answer in seated_keys:
            away, code = next(p for p in seated if p.player == answer), "SUBSTITUTE_ANSWERED"
        else:
            if answer is not None:  # stored for a player who is no seat of this entry: the confirm stops
                notes.append(Issue("SUBSTITUTE_ANSWER_INVALID", where, {**params, "answer": str(answer)[:40]}))
            free = [p for p in seated if p.player not in replaced] or seated
            away, code = min(free, key=lambda p: p.boards), "SUBSTITUTE_ASSUMED"
        replaced.add(away.player)
        out.append(dataclasses.replace(substitute, substitute_for=away.player))
        params = {**params, "player": names[away.player], "player_boards": away.boards, "replaced": away.player}
        notes.append(Issue(code, where, params))
    return tuple(out)


def engine_players(players: list, line, *, category: str, form: str, answers: dict, notes: list) -> tuple:
    """``players`` as the engine takes them: BP to whoever played (§ 405B6b), and in an SP/GP pairs or
    individual event with more players than seats, who substituted for whom (:func:`seat_players`)."""
    seats = SEATS.get(form)
    if category == "BP" or seats is None or len(players) <= seats:
        return tuple(players)
    return seat_players(players, line, seats=seats, answers=answers, notes=notes)


def questions(preview) -> list[dict]:
    """The substitutes the preview asks about, as the summary stores them: per substitute its key, name and
    boards, the entry, the seated players it may have replaced (key, name, boards), what the preview paid on
    (``answer``: a seated key or ``none``) and whether the director answered (``answered``)."""
    lines = {line.key: line for line in preview.player_lines}
    asked = []
    for issue in preview.issues:
        if issue.code not in CODES:
            continue
        params = issue.params
        seated = [lines[key] for key in params["seated"].split(",") if key in lines]
        asked.append(
            {
                "key": params["key"],
                "name": params["substitute"],
                "boards": params["substitute_boards"],
                "entry": params["entry"],
                "seated": [
                    {"key": p.key, "name": str(p.player) if p.player else p.name, "boards": p.boards_played}
                    for p in seated
                ],
                "answer": params.get("replaced") or NONE,
                "answered": issue.code in ("SUBSTITUTE_ANSWERED", "SUBSTITUTE_NONE"),
            }
        )
    return asked


def quota_count(facts: dict, declared: int | None, counted: int | None) -> tuple[int, str]:
    """The boards that set the quota and where they come from: the director's figure on the upload form
    (``form``), else the count the director chose on the preview (``facts["quota_count"]``), else D-Q63's
    reading: the declared boards, else the travellers' count."""
    if facts.get("boards"):
        return int(facts["boards"]), "form"
    chosen = facts.get("quota_count")
    if chosen == "counted" and counted:
        return int(counted), "counted"
    if declared:
        return int(declared), "declared"
    return int(counted or 0), "counted"


def quota_question(preview) -> dict | None:
    """The preview's choice of the board count that sets the quota (§ 405B6c, § 405B7c, D-Q63), where the scoring
    named one (QUOTA_BOARDS, QUOTA_BOARDS_CHOSEN: the file's declared boards and its travellers' count differ and
    the director gave no figure on the form): both counts, the one used, and whether the director chose it."""
    for issue in preview.issues:
        if issue.code in ("QUOTA_BOARDS", "QUOTA_BOARDS_CHOSEN"):
            params = issue.params
            return {
                "declared": params["declared"],
                "counted": params["counted"],
                "used": params["used"],
                "source": params["source"],
                "chosen": issue.code == "QUOTA_BOARDS_CHOSEN",
            }
    return None
