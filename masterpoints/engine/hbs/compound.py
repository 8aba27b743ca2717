"""One compound pairs tournament from the rankings of its stages (rule 7, H-11, H-16).

Rule 7: "Složena parska natjecanja tretiraju se kao jedinstveni turnir." (a compound pairs event counts as
one tournament). H-11 reads it: N is the whole starting field, ranked by the final result; D is the boards
of the winning unit's path. A results file of such an event often ranks each stage on its own (a
qualification, then a final of the best; or several sessions) and gives no overall ranking; H-16 says how the
stages' rankings make the final result:

- the stages are played in the order given; a unit is the same in every stage it played (the caller's key);
- the final result ranks first the units of the last stage by their place there, then the units that went
  no further than the stage before, by their place in it, and so on back to the first stage;
- units that reached the same stage and hold the same place there are tied: parallel groups of one stage
  (qualification sections A and B) rank their equal places together, and H-7 shares the tied places;
- a player belongs to one unit throughout: a pair that changes a player is refused (partners are the unit);
- the engine's :class:`~masterpoints.engine.hbs.events.Stage` of each stage lists the units that played it,
  so that the engine takes D from the winner's path (H-11).

Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from masterpoints.engine.common import RequestError
from masterpoints.engine.hbs.events import Stage


@dataclass(frozen=True)
class StageEntry:
    """A unit on places ``first…last`` of one group of a stage; ``members`` identify its players."""

    unit: str
    first: int
    last: int
    members: tuple[str, ...]


@dataclass(frozen=True)
class StageRanking:
    """One stage (a session of the file): its name, its boards and every group's entries."""

    name: str
    boards: int | None
    entries: tuple[StageEntry, ...]


@dataclass(frozen=True)
class CompoundRanking:
    """The final result (H-16): each unit's places over the whole field and the last stage it played (an
    index into the stages), in final order; the engine's stages; whether the last stage left units out."""

    places: dict[str, tuple[int, int]]
    reached: dict[str, int]
    order: tuple[str, ...]
    stages: tuple[Stage, ...]
    eliminated: int


def compound_ranking(stages: Sequence[StageRanking]) -> CompoundRanking:
    """The final result of a compound event from its stages' rankings (H-16); :class:`RequestError` for a unit
    twice in one stage or a player in two units (rule 7: the pairs are the event's units)."""
    if len(stages) < 2:
        raise RequestError("stages", "a compound event has at least two stages (rule 7, H-11)")
    reached: dict[str, int] = {}
    place_in: dict[str, int] = {}
    unit_of: dict[str, tuple[str, str]] = {}
    for index, stage in enumerate(stages):
        seen: set[str] = set()
        for entry in stage.entries:
            if entry.unit in seen:
                raise RequestError(f"stages[{index}]", f"{entry.unit!r} is ranked twice in {stage.name}")
            seen.add(entry.unit)
            for member in entry.members:
                unit, where = unit_of.setdefault(member, (entry.unit, stage.name))
                if unit != entry.unit:
                    raise RequestError(
                        f"stages[{index}]",
                        f"{member} plays in {unit!r} in {where} and in {entry.unit!r} in {stage.name}: a compound "
                        "pairs event keeps its pairs (rule 7, H-16)",
                    )
            reached[entry.unit] = index
            place_in[entry.unit] = entry.first
    order = sorted(reached, key=lambda unit: (-reached[unit], place_in[unit], unit))
    places: dict[str, tuple[int, int]] = {}
    position = 0
    while position < len(order):
        key = (reached[order[position]], place_in[order[position]])
        tied = [unit for unit in order[position:] if (reached[unit], place_in[unit]) == key]
        for unit in tied:
            places[unit] = (position + 1, position + len(tied))
        position += len(tied)
    engine_stages = tuple(
        Stage(
            name=stage.name,
            boards=stage.boards or 0,
            entries=None if len(stage.entries) == len(order) else tuple(e.unit for e in stage.entries),
        )
        for stage in stages
    )
    last = len(stages) - 1
    eliminated = sum(1 for unit in order if reached[unit] < last)
    return CompoundRanking(places, reached, tuple(order), engine_stages, eliminated)


def parallel_places(groups: Sequence[Sequence[tuple[str, int]]]) -> dict[str, tuple[int, int]]:
    """H-22: the places in one tournament of the units of its parallel rankings (the directions of a two-winner
    movement, the sections of one session), each group given as ``(unit, its first place in the group)``.

    Način 2: N is "broj jedinica … koje sudjeluju u natjecanju" (the units taking part in the competition) and
    Lista 5 sets the minimum "za priznanje organiziranog turnira" (for the tournament to be recognised): the groups
    are one field, not tournaments of their own. The text has one first place and one spread; H-22 reads the
    same place in each group as a tie (as H-16 does for parallel sections of a stage): the g winners share places
    1…g, the seconds the next g places, and H-7 shares their points. A tie inside a group ranks by its first
    place. Returns unit → (first, last) over the whole field."""
    first_of: dict[str, int] = {}
    for index, group in enumerate(groups):
        for unit, first in group:
            if unit in first_of:
                raise RequestError(f"groups[{index}]", f"{unit!r} is ranked in two groups of one tournament (H-22)")
            first_of[unit] = first
    order = sorted(first_of, key=lambda unit: (first_of[unit], unit))
    places: dict[str, tuple[int, int]] = {}
    position = 0
    while position < len(order):
        tied = [unit for unit in order[position:] if first_of[unit] == first_of[order[position]]]
        for unit in tied:
            places[unit] = (position + 1, position + len(tied))
        position += len(tied)
    return places
