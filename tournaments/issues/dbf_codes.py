"""What the DBf upload's scoring read from the file or assumed, as the preview's issues: each fact the
points rest on, with its rule. Part of :data:`.upload_codes.UPLOAD_CODES` (the same shape: code → severity and
message), kept here since that module reached the 500 lines the architecture test allows.

==========================  ========  ===================================================================
Code                        Severity  When
==========================  ========  ===================================================================
TEAM_ROWS_BY_STRENGTH       info      team rows split by strength: each row's value per won match, top first (§ 405A2)
TEAM_SWISS_BONUS            info      not every team met every other: the bonus is as for K + 1 teams (§ 405A5)
MINIHOLD_BY_MATCHES         info      the file's team matches make a mini-team event, scored as one (§ 421A, D-Q61)
FORM_CONTRADICTS_MATCHES    warning   the declared team form contradicts what the file's matches make (§ 421A, D-Q61)
MINIHOLD_BYES_FILE_PLACES   info      a mini-team row with byes keeps the file's places: no bye score (§ 421B, D-Q23)
MINIHOLD_BYE_PLACE_CHANGED  info      the organiser's bye score changes a mini-team's file place (§ 421B, D-Q23)
QUOTA_BOARDS                warning   declared and travellers' boards differ: the declared set the quota (D-Q63)
QUOTA_BOARDS_CHOSEN         info      the same, the director chose the count that sets the quota on the preview
SUBSTITUTE_ASSUMED          warning   a pair's third player taken as substitute for the one with fewest boards (D-Q62)
SUBSTITUTE_ANSWERED         info      the director answered whom a pair's substitute replaced (§ 405B7b)
SUBSTITUTE_NONE             info      the director answered the substitute replaced nobody: no SP/GP (§ 405B7b)
SUBSTITUTE_ANSWER_INVALID   error     the stored answer names no seated player of the entry (§ 405B7b)
TEAM_WALKOVER               info      a match with 0 boards is a walkover: counted as won, no MP (§ 411B4)
TEAM_DOUBLE_ROUND_ROBIN     info      teams met twice: a bonus per round, each ranked on its VP (§ 405A6, D-Q65)
HANDICAP_NOMINAL            info      a handicap event's MP go by the nominal result: places from the scores (§ 405B6f)
HANDICAP_RESULT             info      a handicap event's SP/GP go by the handicap result, the file's places (D-Q17)
HANDICAP_NOT_IN_FILE        warning   a handicap event declared on the upload whose file carries no handicap (§ 405B6f)
BP_PARTIAL_OF_SP_GP         error     a club's BP on a day of its SP/GP sanction: a partial result (§ 405B7e, D-Q66)
BP_BESIDE_SP_GP             info      the same, the director stated it is another tournament or the qualification
TEAM_TABLE                  info      the SP team event the upload named pays by its own paragraph (§ 413B–F, D-Q67)
TEAM_TABLE_ASSUMED          warning   a district's, circle's or DBf's SP team event paid as § 413A, none named (D-Q67)
TOP16_NOT_ENTITLED          warning   a top-16's entrant not entitled by the club's top-16 list: a substitute (§ 452A)
TOP16_LIST_EMPTY            info      the club's top-16 list has no member with BP this season: nothing to check against
==========================  ========  ===================================================================
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from .severity import Severity

E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO

DBF_FACTS = {
    "TEAM_ROWS_BY_STRENGTH": (
        INFO,
        _(
            "The rows were split by strength, the file's first row the strongest: a won match pays each player "
            "%(rows)s, and each row's bonus follows its row (§ 405A2, § 412A2, § 412B2, § 413A2–4)."
        ),
    ),
    "TEAM_SWISS_BONUS": (
        INFO,
        _(
            "%(group)s: not every team met every other (%(teams)s teams, %(matches)s matches each), so the bonus is "
            "as for %(effective)s teams, the matches + 1 (§ 405A5)."
        ),
    ),
    "MINIHOLD_BY_MATCHES": (
        INFO,
        _(
            "The file's matches (%(boards)s boards each, more than two a session) make a mini-team event by "
            "§ 421A: it is scored as one, on the final placing (§ 406B, § 422), with no bonus (§ 421C)."
        ),
    ),
    "FORM_CONTRADICTS_MATCHES": (
        W,
        _(
            "You declared the form %(declared)s, but the file's matches (%(boards)s boards each) make the other "
            "form by § 421A (a mini-team event has more than two matches a session, each of 2 to 11 boards). It is "
            "scored as you declared: check the form before confirming."
        ),
    ),
    "MINIHOLD_BYES_FILE_PLACES": (
        INFO,
        _(
            "%(group)s has byes. The file's places stand, as no substitute score for a bye was given (§ 421B: one "
            "“may” be given, e.g. 13 VP on the 20/0 scale). If the organiser gave one, enter it in the form."
        ),
    ),
    "MINIHOLD_BYE_PLACE_CHANGED": (
        INFO,
        _(
            "%(entry)s is placed %(place)s for the points, not %(file_place)s as in the file: %(vp)s VP with "
            "%(bye_vp)s VP for each bye, the substitute score the organiser gave (§ 421B, D-Q23)."
        ),
    ),
    "QUOTA_BOARDS": (
        W,
        _(
            "The file says each entry played %(declared)s boards, its travellers hold %(counted)s. The quota "
            "counts the boards the tournament has each participant play, so the declared %(used)s set it "
            "(§ 405B6c, § 405B7b–c, D-Q63). If the travellers' count is right, choose it below."
        ),
    ),
    "QUOTA_BOARDS_CHOSEN": (
        INFO,
        _(
            "The file says each entry played %(declared)s boards, its travellers hold %(counted)s: as you chose, "
            "%(used)s boards (%(count_name)s) set the quota (§ 405B6c, § 405B7c, D-Q63)."
        ),
    ),
    "SUBSTITUTE_ASSUMED": (
        W,
        _(
            "%(substitute)s (%(substitute_boards)s boards) is taken as the substitute of %(player)s "
            "(%(player_boards)s boards), who played the fewest boards: the SP or GP go to the substitute only "
            "instead of %(player)s, when %(player)s played less than half (§ 405B7b, D-Q62). The file cannot say "
            "who replaced whom: if this is wrong, answer below whom %(substitute)s replaced."
        ),
    ),
    "SUBSTITUTE_ANSWERED": (
        INFO,
        _(
            "As you answered, %(substitute)s (%(substitute_boards)s boards) replaced %(player)s (%(player_boards)s "
            "boards): the SP or GP go to %(substitute)s only instead of %(player)s, when %(player)s played less "
            "than half (§ 405B7b)."
        ),
    ),
    "SUBSTITUTE_NONE": (
        INFO,
        _(
            "As you answered, %(substitute)s (%(substitute_boards)s boards) replaced none of the seated players: "
            "no SP or GP for %(substitute)s, as a substitute is paid only instead of a player (§ 405B7b)."
        ),
    ),
    "SUBSTITUTE_ANSWER_INVALID": (
        E,
        _(
            "The answer stored for %(substitute)s names %(answer)s, who is not a seated player of this entry "
            "(§ 405B7b): answer again whom %(substitute)s replaced."
        ),
    ),
    "TEAM_WALKOVER": (
        INFO,
        _(
            "Round %(round)s, %(team)s against %(opponent)s: 0 boards, so a walkover. It counts as a won match but "
            "pays no MP, as the match was not played (§ 411B4)."
        ),
    ),
    "BP_PARTIAL_OF_SP_GP": (
        E,
        _(
            "The club's %(category)s tournament %(name)s (sanction for %(date)s to %(end_date)s) is held on this "
            "day: BP are not awarded for partial results of a tournament with SP or GP (§ 405B7e). If this is "
            "another tournament, or the qualification held before the final, upload again and say so (D-Q66)."
        ),
    ),
    "BP_BESIDE_SP_GP": (
        INFO,
        _(
            "The club's %(category)s tournament %(name)s (sanction for %(date)s to %(end_date)s) is held on this "
            "day; you stated that this BP tournament is not a partial result of it, or is its qualification "
            "(§ 405B7e, D-Q66)."
        ),
    ),
    "TEAM_DOUBLE_ROUND_ROBIN": (
        INFO,
        _(
            "%(group)s: every two teams met twice, a double round robin, so the bonus is paid for each round on its "
            "own, for its matches (§ 405A6). Each round's placing is ranked on the VP the teams scored in it, equal "
            "totals sharing (D-Q65): first round %(first)s; second round %(second)s."
        ),
    ),
    "HANDICAP_NOMINAL": (
        INFO,
        _("A handicap event: its %(category)s go by the nominal result, the places from the scores shown (%(rule)s)."),
    ),
    "HANDICAP_NOT_IN_FILE": (
        W,
        _(
            "The upload declares a handicap event, but this %(format)s file carries no handicap (its %(column)s "
            "column): its places and scores are paid as they are. Its %(category)s go by the %(basis)s result "
            "(%(rule)s): if the file's places are not that result, add the handicaps to the file (%(column)s) and "
            "upload again."
        ),
    ),
    "HANDICAP_RESULT": (
        INFO,
        _(
            "A handicap event: its %(category)s go by the handicap result, so by the file's own places, not by the "
            "places computed from the scores without handicap shown here (D-Q17; BP would go by those, § 405B6f). "
            "%(changed)s entries are paid on another place than shown."
        ),
    ),
    "TEAM_TABLE": (
        INFO,
        _("The team event is paid by the values and bonus of %(rule)s, the event chosen on the upload (D-Q67)."),
    ),
    "TOP16_NOT_ENTITLED": (
        W,
        _(
            "%(count)s of the entrants are not entitled by the club's top-16 list (%(list)s; § 452A: the 16 "
            "members with most BP in the club's tournaments this season, and the next in BP order for those who "
            "do not play): %(players)s. They play as last-minute substitutes, who win SP only when they play at "
            "least half the boards (§ 452A, D-Q68)."
        ),
    ),
    "TOP16_LIST_EMPTY": (
        INFO,
        _(
            "The club's top-16 list (%(list)s) has no member with BP from the club's tournaments this season, so "
            "the entrants cannot be checked against it (§ 452A)."
        ),
    ),
    "TEAM_TABLE_ASSUMED": (
        W,
        _(
            "The SP of this team event are paid as a team event outside the pyramid (§ 413A: a value per won match, "
            "no bonus). If it is a district's promotion tournament (§ 413C), a qualification for the 3rd division "
            "(§ 413B), DBf's women's, school or junior qualification (§ 413D–E) or the festival's open teams "
            "(§ 413F), upload again and choose it under Team event (D-Q67)."
        ),
    ),
}
