"""HBS (Hrvatski bridž savez, the Croatian Bridge Federation) points engine.

Pure Python, exact arithmetic, no Django. The rules are a draft whose parameters will be tuned, so every
constant lives in a dated :class:`~masterpoints.engine.hbs.rules.HbsRuleSet` (``rules.py``), never in code.

- ``rules.py``      the dated rule set (formula constants, T, 50 %, 33 %, minimum fields, category table)
- ``scale.py``      B, n, the logarithmic spread, rounding up, ties (HBS formula, H-3, H-6, H-7, H-8, H-10)
- ``categories.py`` the category ladder (H-2)
- ``events.py``     a whole tournament to per-player awards (H-1, H-5, H-9, H-11)
- ``calculator.py`` the ``"scheme": "hbs"`` requests of ``python -m masterpoints.engine``
"""

from masterpoints.engine.hbs.categories import CategoryStatus, NextCategory, category_for
from masterpoints.engine.hbs.events import (
    Event,
    EventEntry,
    KindAward,
    Match,
    MatchSide,
    Participant,
    Stage,
    event_awards,
)
from masterpoints.engine.hbs.rules import HBS_DRAFT, CategoryRow, HbsRuleSet, ruleset_for
from masterpoints.engine.hbs.scale import EntryPoints, Scale, ScaleRequest, scale

__all__ = [
    "HBS_DRAFT",
    "CategoryRow",
    "CategoryStatus",
    "EntryPoints",
    "Event",
    "EventEntry",
    "HbsRuleSet",
    "KindAward",
    "Match",
    "MatchSide",
    "NextCategory",
    "Participant",
    "Scale",
    "ScaleRequest",
    "Stage",
    "category_for",
    "event_awards",
    "ruleset_for",
    "scale",
]
