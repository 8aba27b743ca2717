"""DBf (Danmarks Bridgeforbund) masterpoint engine: pure Python, exact arithmetic, no Django.

The § 406 formulas exist only as missing images; ``shared/spec/dbf.md`` rebuilds them. Every constant and
every reading that DBf could decide differently (``D-Q1``…``D-Q20``) lives in a dated
:class:`~masterpoints.engine.dbf.rules.DbfRuleSet`, passed in as a value (:data:`DBF_2023` by default).

- ``rules.py``      the dated rule set, its JSON form (``engine/codec.py``) and :func:`ruleset_for`
- ``tables.py``     the rule set's record types and default tables (§§ 404, 405B5, 412–414, 434A)
- ``scale.py``      D, n1, n2, r, p_max, Q and the scale of pairs, individual and mini-teams (§ 405B, § 406B),
                    the fixed § 434A GP tables and the provisional pair bonus (§ 406B2)
- ``teams.py``      team matches, the BP bonus formula, the fixed SP/GP and festival bonuses (§ 406A, §§ 411–414)
- ``titles.py``     titles and the BP→SP→GP revaluation check, and what is missing for the next title (§ 404)
- ``events.py``     a whole pairs/individual/mini-team tournament to per-player
                    :class:`~masterpoints.engine.common.PlayerAward` lists
- ``team_events.py`` the same for team tournaments (matches and the bonus for final placing)
- ``foreign.py``    foreign MP (§ 401B)
- ``calculator.py`` the ``"scheme": "dbf"`` requests of ``python -m masterpoints.engine``
"""

from masterpoints.engine.dbf.events import (
    Entry,
    PairEvent,
    Part,
    Player,
    Section,
    awards_total,
    event_warnings,
    pair_event_awards,
)
from masterpoints.engine.dbf.foreign import foreign_award
from masterpoints.engine.dbf.rules import (
    DBF_2023,
    DEFAULT_RULE_SETS,
    DbfRuleSet,
    TeamValueTable,
    TitleRung,
    ruleset_for,
)
from masterpoints.engine.dbf.scale import (
    Scale,
    ScaleRequest,
    entry_awards,
    klubsolv_scale,
    pair_bonus_scale,
    pair_table_scale,
    scale,
)
from masterpoints.engine.dbf.team_events import Match, Standing, TeamEvent, TeamSide, team_event_awards
from masterpoints.engine.dbf.teams import (
    TeamBonusRequest,
    TeamMatchAward,
    TeamMatchRequest,
    cup_value,
    festival_bonus,
    fixed_team_bonus,
    team_bonus,
    team_match,
    team_row_value,
)
from masterpoints.engine.dbf.titles import Balance, NextTitle, TitleStatus, title_for

__all__ = [
    "DBF_2023",
    "DEFAULT_RULE_SETS",
    "Balance",
    "DbfRuleSet",
    "Entry",
    "Match",
    "NextTitle",
    "PairEvent",
    "Part",
    "Player",
    "Scale",
    "ScaleRequest",
    "Section",
    "Standing",
    "TeamBonusRequest",
    "TeamEvent",
    "TeamMatchAward",
    "TeamMatchRequest",
    "TeamSide",
    "TeamValueTable",
    "TitleRung",
    "TitleStatus",
    "awards_total",
    "cup_value",
    "entry_awards",
    "event_warnings",
    "festival_bonus",
    "fixed_team_bonus",
    "foreign_award",
    "klubsolv_scale",
    "pair_bonus_scale",
    "pair_event_awards",
    "pair_table_scale",
    "ruleset_for",
    "scale",
    "team_bonus",
    "team_event_awards",
    "team_match",
    "team_row_value",
    "title_for",
]
