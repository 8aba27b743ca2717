"""The shapes the API takes and gives, as its OpenAPI schema documents them (``/api/openapi.json``)."""

from __future__ import annotations

import datetime
from typing import Any, Literal

from ninja import Field, Schema

#: An ``Idempotency-Key``: 1 to 100 visible ASCII characters (a UUID is 36).
IDEMPOTENCY_KEY_PATTERN = r"^[\x21-\x7e]{1,100}$"
#: Text a field keeps as it is sent: no control characters (PostgreSQL refuses NUL in text and in JSON).
PLAIN_TEXT_PATTERN = r"^[^\x00-\x1f\x7f]*$"
#: Players resolved in one call (a results file has at most a few hundred to resolve).
RESOLUTIONS_PER_CALL = 500


class ErrorDetail(Schema):
    code: str = Field(description="A stable code: what the program keys on.")
    message: str = Field(description="What was refused and why, in the reader's language.")
    field: str | None = Field(None, description="The parameter or field refused, when there is one.")
    params: dict[str, Any] = Field(default_factory=dict, description="The numbers and names of the message.")


class ErrorOut(Schema):
    error: ErrorDetail


# --- the upload API -------------------------------------------------------------------------------------------


class UploadFactsIn(Schema):
    """What the upload page asks besides the file; the same checks decide (``ResultUploadForm``). Fields that
    are not the federation's (DBf's or HBS's) are ignored."""

    category: str = Field(description="The points played for: DBf BP, SP, GP; HBS black, red, master.")
    event_form: str = Field("", description="pairs, teams, individual, minihold … empty: as the file says.")
    boards: int | None = Field(None, ge=1, le=2000, description="Empty: as the file says.")
    strength: str = Field("", max_length=10, description="HBS: the strength S.")
    recognised: str = Field("", max_length=20, description="HBS: the id of the listed tournament.")
    internet: bool = Field(False, description="HBS rule 10: an internet tournament under the director's licence.")
    nature: str = Field("", max_length=40, description="HBS rules 1, 8 and 11: what kind of event it was.")
    split_by_strength: bool = Field(False, description="DBf § 405B5: rows split by strength.")
    met: int | None = Field(None, ge=0, le=2000, description="DBf § 405B6d: opponents each entry met.")
    robots: bool = Field(False, description="DBf § 405B6e: everyone played against robots.")
    playing_time: str = Field("", max_length=20, description="DBf § 452A: a playing time's id, none, or empty.")
    simultaneous_event: str = Field("", max_length=20, description="DBf § 403A1: the simultaneous event's id.")
    special: Literal["", "top16", "top16_combined"] = Field("", description="DBf § 403A2: a top-16.")
    no_outside_entries_refused: bool = Field(False, description="DBf § 403B5c, B6c.")
    team_table: str = Field("", max_length=40, description="DBf § 413B–F: the SP team event, empty for § 413A.")
    bp_not_partial: bool = Field(False, description="DBf § 405B7e: BP not a session of the club's SP/GP tournament.")
    handicap: bool = Field(False, description="DBf § 405B6f: a handicap event (the file must carry the handicaps).")


class Resolution(Schema):
    player_key: str = Field(
        max_length=200, pattern=PLAIN_TEXT_PATTERN, description="The ``key`` of a player in ``unresolved``."
    )
    resolution: Literal["member", "guest", "office"]
    number: str = Field(
        "",
        max_length=20,
        pattern=PLAIN_TEXT_PATTERN,
        description="The member's registration number (for ``member``); no control characters.",
    )


class ResolutionsIn(Schema):
    resolutions: list[Resolution] = Field(min_length=1, max_length=RESOLUTIONS_PER_CALL)


class ConfirmIn(Schema):
    acknowledge_warnings: bool = Field(False, description="The warnings of the preview are read and accepted.")
    replaces: int | None = Field(
        None, description="The preview's ``previous``: refused when another version was confirmed since."
    )


class Location(Schema):
    line: int | None = None
    path: str | None = None
    column: str | None = None


class IssueOut(Schema):
    code: str
    severity: Literal["error", "warning", "info"]
    where: Location
    message: str
    params: dict[str, Any]


class PlayerToResolve(Schema):
    key: str
    name: str
    id_in_file: str
    where: Location


class AwardOut(Schema):
    number: str
    name: str
    kind: str
    amount: str
    place_first: int | None
    place_last: int | None
    part: str


class UploadOut(Schema):
    id: int
    status: str
    federation: str
    organiser: str
    file: dict[str, Any] = Field(description="name, sha256, size, format")
    event: dict[str, Any] | None = Field(description="name, date, format, form, boards; null if unreadable")
    has_errors: bool
    has_warnings: bool
    can_confirm: bool = Field(description="Pending, readable, and no errors (warnings need acknowledging).")
    previous: int | None = Field(description="The version a confirm would replace: pass it as ``replaces``.")
    issues: list[IssueOut]
    unresolved: list[PlayerToResolve]
    awards: list[AwardOut] = Field(description="What confirming would write (or wrote) to the ledger.")
    points: dict[str, str] = Field(description="The total per point kind.")
    tournament: dict[str, Any] | None = Field(None, description="After the confirm: id and public url.")
    url: str = Field(description="This upload in the API.")
    preview_url: str = Field(description="The upload's preview page on the site (for an officer signed in).")


# --- the public reads -----------------------------------------------------------------------------------------


class RankingRow(Schema):
    place: int | None
    number: str
    name: str | None
    club: str | None
    title: str | None
    points: dict[str, str]
    url: str


class RankingsOut(Schema):
    federation: str
    season: int | None
    kind: str | None
    page: int
    page_size: int
    next: str | None
    previous: str | None
    results: list[RankingRow]


class RankingListRow(Schema):
    place: int | None
    number: str
    name: str | None
    club: str | None
    title: str | None
    figure: str = Field(description="MP per year, rounded half up to 2 decimals (D-Q60).")
    url: str


class RankingListOut(Schema):
    federation: str
    as_of: datetime.date
    page: int
    page_size: int
    next: str | None
    previous: str | None
    results: list[RankingListRow]


class PlayerOut(Schema):
    federation: str
    number: str
    name: str | None
    balances: dict[str, str]
    title: dict[str, Any]
    ranks: dict[str, int | None]
    seasons: dict[str, dict[str, str]]
    url: str
    awards: dict[str, Any] = Field(description="page, next, previous, results (the ledger, newest first)")


class PlayerMatch(Schema):
    federation: str
    url: str


class PlayerMatchesOut(Schema):
    matches: list[PlayerMatch]
