"""The public reads of the API (no token): the rankings, DBf's ranking list, a player, and the points calculator.

Moved here from ``masterpoints.public`` with their behaviour and paths (``/api/rankings``,
``/api/players/<number>``, ``/api/players/<federation>/<number>``, ``POST /api/calculator``); a federation,
region and club are named by their code and number (``?federation=dbf&club=1001``), never a database id.
Limited per client address (``api.limits``); a player's hidden name is shown only to the
player and the secretariat signed in on the site.
"""

import json
import re

from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.http import HttpResponseRedirect, JsonResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from ninja import Query, Router, Schema

from api.errors import ApiError
from api.limits import limited_per_address
from api.schemas import ErrorOut, PlayerMatchesOut, PlayerOut, RankingListOut, RankingsOut
from clubs.models import Club
from federation.models import Federation, Player, Region
from federation.params import page_number
from federation.schemes import calculate
from masterpoints.engine.common import RequestError, format_units
from masterpoints.engine.dbf.ranglist import shown_hundredths
from masterpoints.models import Standing
from masterpoints.public import selectors
from masterpoints.public.filters import RankingListEntryFilter, StandingFilter
from masterpoints.public.ledger import PlayerLedger
from masterpoints.public.placed import placed_rows, ranked_rows, ranking_list_rows
from masterpoints.public.tables import balances, home_club_name, record_title
from masterpoints.standings.titles import title_status

router = Router(tags=["public"])

PAGE_SIZE = 50
PAGE_SIZE_MAX = 100
#: Reads per client address (the pages are cached; a scraper is slowed, a reader never).
READ_RATE = "120/m"
#: Calculator calls per client address.
CALCULATOR_RATE = "60/m"
CALCULATOR_MAX_BYTES = 64 * 1024
#: A calculator request is a flat object with a list of [first, last] places: two levels, or three.
CALCULATOR_MAX_DEPTH = 8
#: A registration number in an address: up to 40 characters, no control character (never part of a number).
PLAYER_NUMBER = re.compile(r"[^/\x00-\x1f\x7f]{1,40}")
ERRORS = {400: ErrorOut, 404: ErrorOut, 429: ErrorOut}


class RankingsQuery(Schema):
    """The rankings page's filters; anything not written in digits where a number is asked is ignored."""

    federation: str | None = None
    region: str | None = None
    club: str | None = None
    rung: str | None = None
    kind: str | None = None
    season: str | None = None
    q: str | None = None
    official: str | None = None
    page: str | None = None
    page_size: str | None = None


def _without_nul(value: str, field: str) -> str:
    """``value`` as looked up in the database, which refuses a NUL character in text: 400 naming the field
    (Django's own check, as the filter's fields refuse it)."""
    try:
        ProhibitNullCharactersValidator()(value)
    except ValidationError as error:
        raise ApiError(400, "BAD_PARAMETER", error.messages[0], field=field) from None
    return value


def _federation(code: str | None) -> Federation | None:
    """The federation named by its code (``dbf``); none named: the first, as the rankings page shows."""
    if code is None or code == "":
        return Federation.objects.order_by("name").first()
    found = Federation.objects.filter(code=_without_nul(code, "federation")[:30]).first()
    if found is None:
        raise ApiError(
            400, "UNKNOWN_FEDERATION", _("There is no federation %(code)s.") % {"code": code[:30]}, field="federation"
        )
    return found


def _filter_data(request, federation: Federation) -> dict:
    """The query as the filter reads it: the federation, region and club by their ids."""
    data = request.GET.copy()
    data["federation"] = str(federation.pk)
    region = _without_nul(data.get("region") or "", "region")
    if region:
        found = Region.objects.filter(federation=federation, code=region[:30]).values_list("pk", flat=True).first()
        if found is None:
            message = _("%(federation)s has no region %(code)s.") % {"federation": federation, "code": region[:30]}
            raise ApiError(400, "UNKNOWN_REGION", message, field="region")
        data["region"] = str(found)
    club = _without_nul(data.get("club") or "", "club")
    if club:
        found = Club.objects.filter(federation=federation, number=club[:20]).values_list("pk", flat=True).first()
        if found is None:
            message = _("%(federation)s has no club numbered %(number)s.") % {
                "federation": federation,
                "number": club[:20],
            }
            raise ApiError(400, "UNKNOWN_CLUB", message, field="club")
        data["club"] = str(found)
    return data


def _page_url(request, page: int) -> str:
    query = request.GET.copy()
    query["page"] = str(page)
    return request.build_absolute_uri(f"{request.path}?{query.urlencode()}")


def _player_url(request, federation: Federation, number: str) -> str:
    return request.build_absolute_uri(reverse("api:player", args=[federation.code, number]))


@router.get("/rankings", response={200: RankingsOut, **ERRORS}, url_name="rankings")
@limited_per_address(READ_RATE)
def rankings(request, filters: Query[RankingsQuery]):
    """The rankings with the page's filters (federation by code, region by code, club by number, title or
    category by rung, kind, season, name or number, official list), ``page`` and ``page_size`` (at most 100)."""
    federation = _federation(filters.federation)
    if federation is None:
        raise ApiError(404, "NO_FEDERATION", _("No federation is set up yet."))
    filterset = StandingFilter(_filter_data(request, federation), request=request)
    if not filterset.is_valid():
        (field, errors), *_rest = filterset.form.errors.get_json_data().items()
        raise ApiError(400, "BAD_PARAMETER", errors[0]["message"], field=field)
    size, page = _page_size(filters.page_size), page_number(request)
    listed = placed_rows(filterset, sorted_otherwise=False)  # the default list: by its stored positions
    if listed is None:
        listed = ranked_rows(filterset.qs, scheme=filterset.scheme, kind=filterset.chosen_kind)
    rows = list(listed[(page - 1) * size : page * size + 1])
    see_hidden = selectors.can_see_hidden(request.user, federation)
    info = federation.scheme_info
    results = []
    for row in rows[:size]:
        player = row.player
        points = {b.label: format_units(getattr(row, b.column), b.decimals) for b in info.balances}
        results.append(
            {
                "place": row.place,
                "number": player.number,
                "name": None if player.hide_name and not see_hidden else player.full_name,
                "club": home_club_name(row) or None,
                "title": record_title(row) or None,
                "points": points,
                "url": _player_url(request, federation, player.number),
            }
        )
    return {
        "federation": federation.code,
        "season": filterset.chosen_season,
        "kind": filterset.chosen_kind,
        "page": page,
        "page_size": size,
        "next": _page_url(request, page + 1) if len(rows) > size else None,
        "previous": _page_url(request, page - 1) if page > 1 else None,
        "results": results,
    }


class RankingListQuery(Schema):
    """The ranking list page's filters; anything not written in digits where a number is asked is ignored."""

    federation: str | None = None
    region: str | None = None
    club: str | None = None
    q: str | None = None
    page: str | None = None
    page_size: str | None = None


def _page_size(raw: str | None) -> int:
    raw = raw or str(PAGE_SIZE)
    return min(PAGE_SIZE_MAX, max(1, int(raw))) if raw.isdecimal() else PAGE_SIZE


@router.get("/ranking-list", response={200: RankingListOut, **ERRORS}, url_name="ranking_list")
@limited_per_address(READ_RATE)
def ranking_list(request, filters: Query[RankingListQuery]):
    """DBf's ranking list ("ranglisten", D-Q56–D-Q60) with the page's filters (federation by code, region by
    code, club by number, name or number), ``page`` and ``page_size`` (at most 100). A federation whose
    scheme publishes no such list is a 404."""
    federation = _federation(filters.federation)
    rule = federation.scheme_info.ranking_list if federation is not None else None
    if rule is None:
        raise ApiError(404, "NO_RANKING_LIST", _("This federation publishes no ranking list."), field="federation")
    filterset = RankingListEntryFilter(_filter_data(request, federation), request=request)
    size, page = _page_size(filters.page_size), page_number(request)
    rows = list(ranking_list_rows(filterset.qs)[(page - 1) * size : page * size + 1])
    see_hidden = selectors.can_see_hidden(request.user, federation)
    results = [
        {
            "place": row.place,
            "number": row.player.number,
            "name": None if row.player.hide_name and not see_hidden else row.player.full_name,
            "club": home_club_name(row) or None,
            "title": record_title(row) or None,
            "figure": format_units(shown_hundredths(row.score, rule), 2),
            "url": _player_url(request, federation, row.player.number),
        }
        for row in rows[:size]
    ]
    return {
        "federation": federation.code,
        "as_of": selectors.today(),
        "page": page,
        "page_size": size,
        "next": _page_url(request, page + 1) if len(rows) > size else None,
        "previous": _page_url(request, page - 1) if page > 1 else None,
        "results": results,
    }


def _number(number: str) -> str:
    if not PLAYER_NUMBER.fullmatch(number):
        raise ApiError(404, "NOT_FOUND", _("No player with this number."))
    return number


@router.get("/players/{number}", response={300: PlayerMatchesOut, 302: None, **ERRORS}, url_name="player_lookup")
@limited_per_address(READ_RATE)
def player_lookup(request, number: str):
    """The player when the number is unique (a redirect to the player), else the matches (HTTP 300)."""
    players = list(selectors.players_numbered(_number(number)))
    if not players:
        raise ApiError(404, "NOT_FOUND", _("No player with this number."))
    if len(players) == 1:
        return HttpResponseRedirect(reverse("api:player", args=[players[0].federation.code, number]))
    matches = [{"federation": p.federation.code, "url": _player_url(request, p.federation, number)} for p in players]
    return 300, {"matches": matches}


def _player_json(request, player: Player, standing: Standing | None) -> dict:
    federation = player.federation
    own = request.user.is_authenticated and player.user_id == request.user.pk
    see_hidden = own or selectors.can_see_hidden(request.user, federation)
    status = title_status(player, standing)
    ranks = selectors.player_ranks(player, standing, selectors.home_club(player))
    info = federation.scheme_info
    upcoming = status.next
    return {
        "federation": federation.code,
        "number": player.number,
        "name": None if player.hide_name and not see_hidden else player.full_name,
        "balances": dict(balances(info, standing)),
        "title": {
            "shown": status.title or None,
            "reached_on": status.reached_on.isoformat() if status.reached_on else None,
            "computed": status.computed or None,
            "next": None
            if upcoming is None
            else {
                "title": upcoming.title,
                "missing": dict(upcoming.missing),
                # Per kind, a higher title its missing amount reaches first; absent: the title above.
                "reaches": dict(upcoming.reaches),
                "all_needed": upcoming.every_kind_needed,
            },
        },
        "ranks": {"federation": ranks.federation, "district": ranks.district, "club": ranks.club},
        "seasons": {
            info.season_label(row.season): dict(balances(info, row)) for row in selectors.player_seasons(player)
        },
        "url": request.build_absolute_uri(reverse("public:player", args=[federation.code, player.number])),
    }


def _award_json(award) -> dict:
    return {
        "date": award.awarded_on.isoformat(),
        "kind": award.kind,
        "amount": award.amount,
        "source": award.source,
        "tournament": award.tournament_name or None,
        "tournament_id": award.tournament_id,
        "part": award.part,
        "place": award.place_first,
        "reason": award.reason,
        "reverses": award.reverses_id,
        "explanation": award.explanation_data,
    }


@router.get("/players/{code}/{number}", response={200: PlayerOut, **ERRORS}, url_name="player")
@limited_per_address(READ_RATE)
def player(request, code: str, number: str, page: str | None = None):
    """The player page as JSON: balances, title or category and what the next needs, ranks, seasons, and the
    ledger, 100 awards a page (``page``)."""
    try:
        found = selectors.player_by_number(code[:30], _number(number))
    except Player.DoesNotExist:
        raise ApiError(404, "NOT_FOUND", _("No player with this number.")) from None
    page_no = page_number(request)
    standing = selectors.standing_of(found)
    payload = _player_json(request, found, standing)
    size = PAGE_SIZE_MAX
    awards = PlayerLedger(found)[(page_no - 1) * size : page_no * size + 1]
    payload["awards"] = {
        "page": page_no,
        "next": _page_url(request, page_no + 1) if len(awards) > size else None,
        "previous": _page_url(request, page_no - 1) if page_no > 1 else None,
        "results": [_award_json(award) for award in awards[:size]],
    }
    return payload


def _depth(text: str) -> int:
    """How deeply the JSON text nests objects and arrays (brackets inside strings do not count)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            escaped, in_string = (False, True) if escaped else (char == "\\", char != '"')
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _calculator_request(body: bytes) -> dict:
    """The request of engine-cli.md, bounded where it enters: its size and its nesting."""
    if len(body) > CALCULATOR_MAX_BYTES:
        raise ApiError(
            413,
            "REQUEST_TOO_LARGE",
            f"the request is larger than {CALCULATOR_MAX_BYTES // 1024} KB",
            field="request",
            params={"limit": CALCULATOR_MAX_BYTES},
        )
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RequestError("request", f"not valid JSON: {exc}") from None
    if _depth(text) > CALCULATOR_MAX_DEPTH:
        raise RequestError("request", f"the request nests deeper than {CALCULATOR_MAX_DEPTH} levels")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RequestError("request", f"not valid JSON: {exc}") from None
    except ValueError as exc:  # an integer of more digits than Python converts (sys.get_int_max_str_digits)
        raise RequestError("request", f"not a number this calculator reads: {exc}") from None


@router.post(
    "/calculator",
    response={200: dict, 413: ErrorOut, **ERRORS},
    url_name="calculator",
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {"type": "object", "additionalProperties": True}}},
            "description": "The request of engine-cli.md: scheme, kind and the kind's inputs.",
        }
    },
)
@limited_per_address(CALCULATOR_RATE)
def calculator(request):
    """The points calculator (engine-cli.md: the same request and answer as ``python -m masterpoints.engine``):
    a pure computation, so no token, no cookie and nothing to forge. Bounded: the body's size, its nesting,
    every number (the engine's ``MAX_*``) and the calls per client address."""
    return JsonResponse(calculate(_calculator_request(request.body)))
