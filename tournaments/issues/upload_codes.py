"""Issues the upload service finds beyond the file itself: organiser, members, rules (stable codes).

Part of the one :data:`tournaments.issues.CATALOGUE`, beside the file's codes, so the preview lists both
kinds together.

==========================  ========  ===================================================================
Code                        Severity  When
==========================  ========  ===================================================================
CLUB_MISMATCH               error     the file names another club than the organiser chosen (a file for another club)
CLUB_ALIAS                  info      the file's club id is one the club recorded as its own (D-Q40)
DATE_IN_FUTURE              error     the event's date lies after today
PLAYER_UNKNOWN              error     a membership number that is not on the federation's register (resolve it)
PLAYER_UNIDENTIFIED         error     a player without a membership number (resolve it)
PLAYER_TWICE                error     two places of the file resolve to the same member
RESOLUTION_NUMBER_UNKNOWN   error     a director's resolution names a number that is not on the register
PLAYER_NOT_MEMBER           warning   a player who is a guest or whose membership lapsed
NAME_MISMATCH               warning   the file's name is clearly not the register's name for the number (both named)
RESOLUTION_REMEMBERED       info      the member the club's director chose before for this name and number, taken again
CATEGORY_NOT_ALLOWED        error     the organiser may not award these points (DBf § 403; HBS H-1)
BOARDS_UNKNOWN              error     neither the file nor the form gives the number of boards
NOTHING_AWARDED             warning   a ranking group awards nothing (the engine's reason is given)
ENGINE_REFUSED              error     the points engine refused the tournament's facts (field named)
RULESET_MISSING             error     no rule set of the federation is valid on the event's date
IMPORT_REFUSED              error     import_results: the confirming transaction refused the file (reason given)
IMPORT_UNCHANGED            info      import_results: current from this very file and facts; nothing written
IMPORT_EVENT_TWICE          error     import_results: an earlier file of the same run is the same event (re-upload key)
TEAM_SHARE_ESTIMATED        warning   a team player's boards per match were estimated from the event total
ZERO_BOARDS                 warning   0 boards recorded for an entry or player: absent, not in N, no points (§ 405B1)
ENTRIES_TOO_MANY            error     more entries than one event holds (masterpoints.uploads.bounds)
PLAYERS_TOO_MANY            error     more players in one entry than a team with substitutes (bounds)
VALUE_TOO_LONG              error     a value longer than the column a confirm writes it to keeps (bounds)
NUMBER_OUT_OF_RANGE         error     a number outside the column a confirm writes it to (bounds)
AWARD_DIFFERS               info      the file's own awards differ from ours for an entry
DUPLICATE_FILE              warning   the very same file was confirmed before
SUPERSEDES                  info      this upload replaces an earlier version of the same event
SANCTION_APPLIED            info      a club's SP/GP comes from its approved sanction, full or half (§ 403B1–2)
TOP16_NO_PLAYING_TIME       error     a top-16 per playing time whose tournament has no playing time (§ 403A2, § 443B2a)
TOP16_PLAYING_TIME_HELD     error     the playing time already had its top-16 this season (§ 403A2, § 443B2a)
TOP16_COMBINED_HELD         error     the club held a combined top-16 this season: no other top-16 (§ 443B2)
TOP16_PER_TIME_HELD         error     a combined top-16 where the club held one per playing time this season (§ 443B2)
SIMULTANEOUS_UNKNOWN        error     the simultaneous event claimed is not one DBf announced (§ 403A1)
SIMULTANEOUS_NOT_ON_DATE    error     the simultaneous event claimed does not cover the tournament's date (§ 403A1)
ALTERNATIVE_KLUBSOLV_HELD   error     Klubsølv claimed where the club held an alternative Klubsølv that season (§ 453)
KLUBSOLV_HELD               error     an alternative Klubsølv where the club played Klubsølv that season (§ 453)
ALTERNATIVE_KLUBSOLV_USED   error     a second alternative Klubsølv in a season (§ 403A1, § 453; D-Q29)
PLAYING_TIME_CHOOSE         error     several playing times that weekday, no start time: the director chooses (§ 452A)
PLAYING_TIME_NOT_AT_TIME    warning   the file's start time is in none of the club's playing times that weekday (§ 452A)
PLAYING_TIME_OTHER_CLUB     error     the playing time chosen is not one of the organising club's (§ 452A)
SANCTION_USED               error     the club's sanction for the date already pays another tournament (§ 403B1, B7)
SANCTION_FEW_CLUBS          error     fewer than 5 clubs in a sanctioned tournament's entry list (§ 403B5c, B6c)
SANCTION_ONE_CLUB_MAJORITY  error     more than half of a sanctioned tournament's players from one club (§ 403B5c, B6c)
RECOGNISED_WRONG_YEAR       error     the chosen entry of HBS's list is for another year than the event (H-1)
RECOGNISED_OTHER_ORGANISER  error     the chosen entry of HBS's list belongs to another club (H-1)
TOURIST_NOT_APPROVED        error     a tourist tournament HBS has not approved (rule 2)
FIXED_B_APPLIED             info      B is fixed in advance by the chosen entry of HBS's list, not the formula (H-8)
COMPOUND_EVENT              info      the file's sessions are scored as one compound pairs event (rule 7, H-16)
COMPOUND_NO_ELIMINATION     warning   every pair played the last session: its ranking is the final result (H-16)
PARALLEL_RANKINGS           info      one session ranked in groups (directions, sections) is one tournament (H-22)
DIRECTOR_NOT_LICENSED       error     an internet tournament reported by someone without a valid HBS licence (rule 10)
STRENGTH_TOO_HIGH           error     the strength S is above the HBS rule set's strength_maximum (H-4)
STRENGTH_UNUSUAL            warning   the strength S is outside the HBS rule set's usual range (H-4)
(the DBf upload's facts)    …         what the DBf scoring read or assumed: :mod:`.dbf_codes`
==========================  ========  ===================================================================
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from .dbf_codes import DBF_FACTS
from .severity import Severity

E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO

#: code -> (severity, message template with named placeholders)
UPLOAD_CODES: dict[str, tuple[Severity, Promise]] = {
    "CLUB_MISMATCH": (
        E,
        _(
            "The file is for club %(file_club)s, but you upload it for club %(club)s. If %(file_club)s is the id "
            "your scoring program writes for your club, its director records it as the club's on the preview page: "
            "later files with it are then taken as the club's."
        ),
    ),
    "CLUB_ALIAS": (
        INFO,
        _("The file's club id %(file_club)s is recorded as club %(club)s's own (since %(date)s)."),
    ),
    "DATE_IN_FUTURE": (E, _("The event's date %(date)s lies in the future.")),
    "PLAYER_UNKNOWN": (
        E,
        _("%(name)s has number %(number)s, which is not on the federation's register. Choose what to do below."),
    ),
    "PLAYER_UNIDENTIFIED": (E, _("%(name)s has no membership number in the file. Choose what to do below.")),
    "PLAYER_TWICE": (E, _("Member %(number)s appears twice in this event: %(where_a)s and %(where_b)s.")),
    "RESOLUTION_NUMBER_UNKNOWN": (E, _("The number %(number)s you chose for %(name)s is not on the register.")),
    "PLAYER_NOT_MEMBER": (W, _("%(player)s is registered as %(status)s; check that they may receive points.")),
    "NAME_MISMATCH": (
        W,
        _(
            "The file names %(name)s with number %(number)s, but the register has %(register)s under that number: "
            "check the number, or choose the member below."
        ),
    ),
    "RESOLUTION_REMEMBERED": (
        INFO,
        _(
            "%(name)s (number in the file: %(number)s) is taken as %(player)s, as the club resolved on an earlier "
            "upload."
        ),
    ),
    "CATEGORY_NOT_ALLOWED": (E, _("%(organiser)s may not award %(category)s: %(rule)s")),
    "BOARDS_UNKNOWN": (E, _("The file does not say how many boards were played: enter the number in the form.")),
    "NOTHING_AWARDED": (W, _("%(group)s awards no points: %(reason)s")),
    "ENGINE_REFUSED": (E, _("The points cannot be computed: %(field)s – %(message)s")),
    "RULESET_MISSING": (
        E,
        _(
            "No points rules of the federation are valid on %(date)s. Rule sets on record (each valid from its "
            "date): %(rule_sets)s. The federation's secretariat adds a rule set valid from %(date)s or earlier in "
            "the admin; then open this preview again."
        ),
    ),
    "IMPORT_REFUSED": (E, _("The file could not be imported: %(message)s")),
    "IMPORT_UNCHANGED": (
        INFO,
        _("Already imported from this very file with the same facts (tournament %(tournament)s): nothing written."),
    ),
    "IMPORT_EVENT_TWICE": (
        E,
        _("%(file)s of this run is the same event (organiser, date and name): this file would replace it."),
    ),
    "TEAM_SHARE_ESTIMATED": (
        W,
        _(
            "%(player)s played %(boards)s of the team's %(team_boards)s boards; the file does not say in which "
            "matches, so that share of every match is counted (§ 405A1)."
        ),
    ),
    "ZERO_BOARDS": (
        W,
        _(
            "%(who)s played 0 boards according to the file: absent, so not counted in the field and given no points "
            "(§ 405B1; a substitute who played is entitled instead, § 405B6b, § 405B7b)."
        ),
    ),
    "ENTRIES_TOO_MANY": (
        E,
        _(
            "The file has %(count)s entries; at most %(limit)s entries are accepted in one event. Check that the "
            "file holds the results of one event; the office can import a larger one."
        ),
    ),
    "PLAYERS_TOO_MANY": (
        E,
        _(
            "Entry %(entry)s has %(count)s players; at most %(limit)s players are accepted in one entry (a team "
            "has 4 to 6). Check the file."
        ),
    ),
    "VALUE_TOO_LONG": (
        E,
        _(
            "The %(field)s %(value)s has %(length)s characters; the office keeps at most %(limit)s. Correct it in "
            "the scoring program and upload the file again."
        ),
    ),
    "NUMBER_OUT_OF_RANGE": (
        E,
        _(
            "The %(field)s %(value)s is outside what the office keeps: from %(minimum)s to %(limit)s. Correct it in "
            "the scoring program and upload the file again."
        ),
    ),
    "AWARD_DIFFERS": (INFO, _("%(entry)s: the file awards %(theirs)s, we award %(ours)s per player.")),
    "DUPLICATE_FILE": (W, _("This very file was confirmed before, on %(date)s.")),
    "SUPERSEDES": (INFO, _("This replaces the results confirmed on %(date)s; the differences are shown below.")),
    "SANCTION_APPLIED": (INFO, _("The points follow the club's sanction for %(name)s: %(quota)s, granted %(date)s.")),
    "SANCTION_USED": (
        E,
        _(
            "Sanction no. %(sanction)s, for %(name)s on %(date)s, was already used by %(tournament)s of "
            "%(tournament_date)s: a sanction covers the one tournament its application names (§ 403B1, § 403B7). "
            "If this file corrects that tournament, upload it with the same event id or description so that it "
            "replaces it; otherwise apply for a sanction for this tournament."
        ),
    ),
    "TOP16_NO_PLAYING_TIME": (
        E,
        _(
            "A top-16 per playing time names its playing time (§ 403A2, § 443B2a), and this tournament has none: "
            "choose its playing time below, or claim the club's combined top-16 instead (§ 443B2b)."
        ),
    ),
    "TOP16_PLAYING_TIME_HELD": (
        E,
        _(
            "%(playing_time)s already had its top-16 with SP in the season %(season)s: %(other)s. A club holds one "
            "top-16 per playing time per season (§ 403A2, § 443B2a): none is left for this playing time in "
            "%(season)s."
        ),
    ),
    "TOP16_COMBINED_HELD": (
        E,
        _(
            "The club held its combined top-16 in the season %(season)s: %(other)s. A club holds one combined "
            "top-16 or one per playing time, so no other top-16 with SP that season (§ 443B2, § 403A2): none is "
            "left in %(season)s."
        ),
    ),
    "TOP16_PER_TIME_HELD": (
        E,
        _(
            "The club held the top-16 of %(playing_time)s in the season %(season)s: %(other)s. A combined top-16 "
            "replaces those per playing time and cannot be held beside them that season (§ 443B2, § 403A2)."
        ),
    ),
    "SIMULTANEOUS_UNKNOWN": (
        E,
        _("The simultaneous event chosen is not one DBf announced (§ 403A1): choose one the secretariat recorded."),
    ),
    "SIMULTANEOUS_NOT_ON_DATE": (
        E,
        _(
            "%(event)s was announced by DBf for %(dates)s, but this tournament was played on %(date)s; events DBf "
            "announced for that day: %(covering)s (§ 403A1)."
        ),
    ),
    "ALTERNATIVE_KLUBSOLV_HELD": (
        E,
        _(
            "The club held an alternative Klubsølv in the season %(season)s: %(other)s. It replaces Klubsølv for "
            "all the club's playing times, so the club plays no Klubsølv that season (§ 453, § 403A1)."
        ),
    ),
    "KLUBSOLV_HELD": (
        E,
        _(
            "The club played Klubsølv in the season %(season)s: %(other)s. One choice excludes the other, so no "
            "alternative Klubsølv that season (§ 453, § 403A1)."
        ),
    ),
    "ALTERNATIVE_KLUBSOLV_USED": (
        E,
        _(
            "The club already held its alternative Klubsølv of the season %(season)s: %(other)s. It is one "
            "tournament across all the club's playing times (§ 403A1, § 453): none is left in %(season)s."
        ),
    ),
    "PLAYING_TIME_CHOOSE": (
        E,
        _(
            "The club has %(count)s playing times on %(weekday)s (%(times)s) and the file gives no start time, so "
            "the part of day is not known: choose the tournament's playing time below (§ 452A)."
        ),
    ),
    "PLAYING_TIME_NOT_AT_TIME": (
        W,
        _(
            "The file says the tournament started at %(time)s on %(weekday)s, when the club has no playing time "
            "(that day: %(times)s): it is recorded without one; choose one below if it was played in one (§ 452A)."
        ),
    ),
    "PLAYING_TIME_OTHER_CLUB": (
        E,
        _("The playing time chosen is not one of %(club)s's: choose one of the club's playing times or none (§ 452A)."),
    ),
    "SANCTION_FEW_CLUBS": (
        E,
        _(
            "Only %(clubs)s clubs are represented in the entry list; the sanction needs at least 5 (%(rule)s). "
            "If the club refused no entries from other clubs, tick that box on the upload form."
        ),
    ),
    "SANCTION_ONE_CLUB_MAJORITY": (
        E,
        _(
            "%(count)s of the %(total)s players are from %(club)s; at most half may be from one club (%(rule)s). "
            "If the club refused no entries from other clubs, tick that box on the upload form."
        ),
    ),
    "RECOGNISED_WRONG_YEAR": (
        E,
        _("%(entry)s is on the list of %(year)s, but the event was played on %(date)s (H-1)."),
    ),
    "RECOGNISED_OTHER_ORGANISER": (E, _("%(entry)s is on the list for %(club)s, not for %(organiser)s (H-1).")),
    "TOURIST_NOT_APPROVED": (
        E,
        _("%(entry)s is a tourist tournament: it scores only once HBS has approved it (rule 2)."),
    ),
    "FIXED_B_APPLIED": (
        INFO,
        _(
            "%(entry)s has B fixed in advance on the list of recognised tournaments (%(fixed)s): it replaces the "
            "formula B = (3 + N·T/5)·S·(1 + D/12) − 7; n, the spread and the rounding apply as usual (HBS "
            "Način bodovanja 3, alternative; H-8)."
        ),
    ),
    "COMPOUND_EVENT": (
        INFO,
        _(
            "The file ranks %(sessions)s sessions on their own: they are one compound pairs tournament (HBS rule 7, "
            "H-11). N = %(n)s pairs, the whole starting field; D = %(d)s boards, the winner's path. The final "
            "result ranks the %(last)s pairs of the last session by their place there, then the others by their "
            "place in the last session they played (H-16)."
        ),
    ),
    "COMPOUND_NO_ELIMINATION": (
        W,
        _(
            "Every pair played %(session)s, so its ranking is taken as the final result (H-16). If it ranks that "
            "session alone rather than the whole event, upload the file with the overall ranking instead."
        ),
    ),
    "PARALLEL_RANKINGS": (
        INFO,
        _(
            "The file ranks its %(n)s %(form)s in %(groups)s groups (directions or sections) of one session: they "
            "are one tournament (HBS Način 2, rule 5; H-22). N = %(n)s, the whole field, and the minimum field is "
            "the tournament's. The same place in each group is a tie over the places it covers: the %(groups)s "
            "winners share places 1–%(groups)s of one spread (H-7, H-22)."
        ),
    ),
    "DIRECTOR_NOT_LICENSED": (
        E,
        _(
            "Internet tournaments count only when their director holds an HBS licence valid on %(date)s and "
            "reports them (rule 10)."
        ),
    ),
    "STRENGTH_TOO_HIGH": (
        E,
        _(
            "The strength S of the %(kind)s points is %(strength)s; the rule set %(rule_set)s allows at most "
            "%(limit)s (strength_maximum, H-4). S is the tournament's strength factor, 1 for an ordinary club "
            "event: correct S, or ask HBS to list the tournament with its strength."
        ),
    ),
    "STRENGTH_UNUSUAL": (
        W,
        _(
            "The strength S of the %(kind)s points is %(strength)s, outside the usual %(low)s to %(high)s of the "
            "rule set %(rule_set)s (H-4): check S before confirming."
        ),
    ),
    **DBF_FACTS,
}
