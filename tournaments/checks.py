"""Issues the upload service finds beyond the file itself: organiser, members, rules (stable codes).

They look like the importers' :class:`~tournaments.importers.issues.Issue` (``code``, ``severity``,
``where.label``, ``message``) so the preview lists both kinds together.

==========================  ========  ===================================================================
Code                        Severity  When
==========================  ========  ===================================================================
CLUB_MISMATCH               error     the file names another club than the organiser chosen (a file for another club)
DATE_IN_FUTURE              error     the event's date lies after today
PLAYER_UNKNOWN              error     a membership number that is not on the federation's register (resolve it)
PLAYER_UNIDENTIFIED         error     a player without a membership number (resolve it)
PLAYER_TWICE                error     two places of the file resolve to the same member
RESOLUTION_NUMBER_UNKNOWN   error     a director's resolution names a number that is not on the register
PLAYER_NOT_MEMBER           warning   a player who is a guest or whose membership lapsed
CATEGORY_NOT_ALLOWED        error     the organiser may not award these points (DBf § 403; HBS H-1)
BOARDS_UNKNOWN              error     neither the file nor the form gives the number of boards
NOTHING_AWARDED             warning   a ranking group awards nothing (the engine's reason is given)
ENGINE_REFUSED              error     the points engine refused the tournament's facts (field named)
RULESET_MISSING             error     no rule set of the federation is valid on the event's date
IMPORT_REFUSED              error     import_results: the confirming transaction refused the file (reason given)
TEAM_SHARE_ESTIMATED        warning   a team player's boards per match were estimated from the event total
AWARD_DIFFERS               info      the file's own awards differ from ours for an entry
DUPLICATE_FILE              warning   the very same file was confirmed before
SUPERSEDES                  info      this upload replaces an earlier version of the same event
SANCTION_APPLIED            info      a club's SP/GP comes from its approved sanction, full or half (§ 403B1–2)
SANCTION_USED               error     the club's sanction for the date already pays another tournament (§ 403B1, B7)
SANCTION_TOP16_USED         error     the club's top-16s with SP this season exceed its playing times (§ 403A2)
SANCTION_FEW_CLUBS          error     fewer than 5 clubs in a sanctioned tournament's entry list (§ 403B5c, B6c)
SANCTION_ONE_CLUB_MAJORITY  error     more than half of a sanctioned tournament's players from one club (§ 403B5c, B6c)
RECOGNISED_WRONG_YEAR       error     the chosen entry of HBS's list is for another year than the event (H-1)
RECOGNISED_OTHER_ORGANISER  error     the chosen entry of HBS's list belongs to another club (H-1)
TOURIST_NOT_APPROVED        error     a tourist tournament HBS has not approved (rule 2)
DIRECTOR_NOT_LICENSED       error     an internet tournament reported by someone without a valid HBS licence (rule 10)
==========================  ========  ===================================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from tournaments.importers.issues import Location, Severity

E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO

CATALOGUE = {
    "CLUB_MISMATCH": (E, _("The file is for club %(file_club)s, but you upload it for club %(club)s.")),
    "DATE_IN_FUTURE": (E, _("The event's date %(date)s lies in the future.")),
    "PLAYER_UNKNOWN": (
        E,
        _("%(name)s has number %(number)s, which is not on the federation's register. Choose what to do below."),
    ),
    "PLAYER_UNIDENTIFIED": (E, _("%(name)s has no membership number in the file. Choose what to do below.")),
    "PLAYER_TWICE": (E, _("Member %(number)s appears twice in this event: %(where_a)s and %(where_b)s.")),
    "RESOLUTION_NUMBER_UNKNOWN": (E, _("The number %(number)s you chose for %(name)s is not on the register.")),
    "PLAYER_NOT_MEMBER": (W, _("%(player)s is registered as %(status)s; check that they may receive points.")),
    "CATEGORY_NOT_ALLOWED": (E, _("%(organiser)s may not award %(category)s: %(rule)s")),
    "BOARDS_UNKNOWN": (E, _("The file does not say how many boards were played: enter the number in the form.")),
    "NOTHING_AWARDED": (W, _("%(group)s awards no points: %(reason)s")),
    "ENGINE_REFUSED": (E, _("The points cannot be computed: %(field)s – %(message)s")),
    "RULESET_MISSING": (
        E,
        _("No points rules of the federation are valid on %(date)s: the secretariat must add a dated rule set first."),
    ),
    "IMPORT_REFUSED": (E, _("The file could not be imported: %(message)s")),
    "TEAM_SHARE_ESTIMATED": (
        W,
        _(
            "%(player)s played %(boards)s of the team's %(team_boards)s boards; the file does not say in which "
            "matches, so that share of every match is counted (§ 405A1)."
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
    "SANCTION_TOP16_USED": (
        E,
        _(
            "The club has held %(held)s top-16 tournaments with SP in the season %(season)s and has %(allowed)s "
            "playing times: one top-16 per playing time per season (§ 403A2)."
        ),
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
    "DIRECTOR_NOT_LICENSED": (
        E,
        _(
            "Internet tournaments count only when their director holds an HBS licence valid on %(date)s and "
            "reports them (rule 10)."
        ),
    ),
}


def _render(code: str, params: dict[str, Any]) -> str:
    values = {key: str(value) for key, value in params.items()}
    return str(CATALOGUE[code][1]) % values


_render_lazy = lazy(_render, str)


@dataclass(frozen=True)
class CheckIssue:
    """An upload-level issue; ``message`` is translated when rendered."""

    code: str
    where: Location = field(default_factory=Location)
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def severity(self) -> Severity:
        return CATALOGUE[self.code][0]

    @property
    def message(self):
        return _render_lazy(self.code, dict(self.params))

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": str(self.severity),
            "where": self.where.as_dict(),
            "message": str(self.message),
            "params": {k: str(v) for k, v in self.params.items()},
        }
