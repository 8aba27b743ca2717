"""The ``"scheme": "dbf"`` requests of ``python -m masterpoints.engine`` (``engine-cli.md``).

:func:`handle` parses one JSON request, calls the typed API (:mod:`.scale`, :mod:`.teams`, :mod:`.titles`)
with the default rule set (or the one passed in) and returns the JSON answer. A bad request raises
:class:`~masterpoints.engine.common.RequestError` naming the field; the CLI prints it and exits 2.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from masterpoints.engine.common import (
    MAX_BOARDS,
    MAX_FIELD,
    MAX_MATCHES,
    MAX_ROWS,
    RequestError,
    check_fields,
    format_units,
    get_bool,
    get_choice,
    get_decimal,
    get_int,
    json_repr,
    parse_ranks,
    reason_answer,
)
from masterpoints.engine.dbf.rules import CATEGORIES, DBF_2023, FORMS, ORGANIZERS, SPLITS, DbfRuleSet
from masterpoints.engine.dbf.scale import KIND_DECIMALS, ScaleRequest, entry_awards, fmt_ratio, scale
from masterpoints.engine.dbf.teams import FORMATS, RESULTS, TeamBonusRequest, TeamMatchRequest, team_bonus, team_match
from masterpoints.engine.dbf.titles import title_for

KINDS = ("scale", "team_match", "team_bonus", "title")

SCALE_FIELDS = (
    "scheme",
    "kind",
    "form",
    "category",
    "organizer",
    "participants",
    "boards",
    "met",
    "robots",
    "rows",
    "row",
    "split",
    "multiplier",
    "quota",
    "surcharge",
    "ranks",
)
MATCH_FIELDS = ("scheme", "kind", "category", "value", "boards", "result", "vp", "bam_score", "share", "quota")
BONUS_FIELDS = ("scheme", "kind", "category", "matches", "boards", "teams", "format", "rows", "row", "split")
TITLE_FIELDS = ("scheme", "kind", "bp", "sp", "gp")


def handle(request: Mapping[str, Any], rules: DbfRuleSet = DBF_2023) -> dict[str, Any]:
    """Answer one DBf calculator request (``engine-cli.md``)."""
    kind = get_choice(request, "kind", KINDS)
    if kind == "scale":
        return _scale(request, rules)
    if kind == "team_match":
        return _team_match(request, rules)
    if kind == "team_bonus":
        return _team_bonus(request, rules)
    return _title(request, rules)


def _fraction(value: Decimal) -> Fraction:
    return Fraction(value)


def _optional_int(request: Mapping[str, Any], name: str, minimum: int) -> int | None:
    if request.get(name) is None:
        return None
    return get_int(request, name, minimum=minimum, maximum=MAX_FIELD)


def _share(request: Mapping[str, Any]) -> Fraction:
    """``share`` as a decimal string (``"0.5"``) or a ratio (``"2/3"``, boards played ÷ boards, § 405A1)."""
    raw = request.get("share")
    if raw is None:
        return Fraction(1)
    if isinstance(raw, str) and "/" in raw:
        num, _, den = raw.partition("/")
        try:
            value = Fraction(int(num.strip()), int(den.strip()))
        except (ValueError, ZeroDivisionError):
            message = f"'share' must be a decimal or a ratio such as \"2/3\", not {json_repr(raw)}"
            raise RequestError("share", message) from None
    else:
        value = Fraction(get_decimal(request, "share"))
    if not 0 <= value <= 1:
        raise RequestError("share", f"'share' lies between 0 and 1, not {json_repr(raw)}")
    return value


def _explanation(expl) -> dict[str, Any]:
    return expl.as_dict()


def parse_scale_request(request: Mapping[str, Any]) -> ScaleRequest:
    """The typed :class:`ScaleRequest` of a ``"kind": "scale"`` request (ranks are parsed separately)."""
    check_fields(request, SCALE_FIELDS, required=("form", "category", "participants", "boards"))
    surcharge = request.get("surcharge")
    return ScaleRequest(
        form=get_choice(request, "form", FORMS),
        category=get_choice(request, "category", CATEGORIES),
        organizer=get_choice(request, "organizer", ORGANIZERS, default="club"),
        participants=get_int(request, "participants", minimum=1, maximum=MAX_FIELD),
        boards=get_int(request, "boards", minimum=0, maximum=MAX_BOARDS),
        met=_optional_int(request, "met", 0),
        robots=get_bool(request, "robots", default=False),
        rows=get_int(request, "rows", minimum=1, maximum=MAX_ROWS, default=1),
        row=get_int(request, "row", minimum=1, maximum=MAX_ROWS, default=1),
        split=get_choice(request, "split", SPLITS, default="random"),
        multiplier=_fraction(get_decimal(request, "multiplier", default=Decimal(1))),
        quota=get_choice(request, "quota", ("full", "half")) if request.get("quota") is not None else None,
        surcharge=(_fraction(get_decimal(request, "surcharge", minimum=Decimal(0))) if surcharge is not None else None),
    )


def _scale(request: Mapping[str, Any], rules: DbfRuleSet) -> dict[str, Any]:
    typed = parse_scale_request(request)
    ranks = parse_ranks(request["ranks"], field_size=typed.participants) if request.get("ranks") is not None else None
    result = scale(typed, rules)
    answer: dict[str, Any] = {
        "effective_field": result.effective_field,
        "places_paid": result.places_paid,
        "ratio": fmt_ratio(result.ratio),
        "awards": result.amounts(),
    }
    if ranks is not None:
        decimals = KIND_DECIMALS[result.kind]
        answer["entries"] = [format_units(units, decimals) for units in entry_awards(result, ranks)]
    answer.update(reason_answer(result.reason))
    answer["explanation"] = _explanation(result.explanation)
    return answer


def parse_team_match_request(request: Mapping[str, Any]) -> TeamMatchRequest:
    check_fields(request, MATCH_FIELDS, required=("category", "value", "boards"))
    outcome = [name for name in ("result", "vp", "bam_score") if request.get(name) is not None]
    if len(outcome) != 1:
        raise RequestError("result", "give exactly one of 'result', 'vp' or 'bam_score'")
    return TeamMatchRequest(
        category=get_choice(request, "category", CATEGORIES),
        value=_fraction(get_decimal(request, "value", minimum=Decimal(0), max_decimals=4)),
        boards=get_int(request, "boards", minimum=0, maximum=MAX_BOARDS),
        result=get_choice(request, "result", RESULTS) if "result" in outcome else None,
        vp=_fraction(get_decimal(request, "vp", max_decimals=2)) if "vp" in outcome else None,
        bam_score=_fraction(get_decimal(request, "bam_score")) if "bam_score" in outcome else None,
        share=_share(request),
        quota=get_choice(request, "quota", ("full", "half")) if request.get("quota") is not None else None,
    )


def _team_match(request: Mapping[str, Any], rules: DbfRuleSet) -> dict[str, Any]:
    award = team_match(parse_team_match_request(request), rules)
    return {"result": award.result, "points": award.amount, "explanation": _explanation(award.explanation)}


def parse_team_bonus_request(request: Mapping[str, Any]) -> TeamBonusRequest:
    check_fields(request, BONUS_FIELDS, required=("matches", "boards", "teams"))
    category = get_choice(request, "category", CATEGORIES, default="BP")
    if category != "BP":
        raise RequestError(
            "category",
            "the bonus formula is for BP only (§ 406A4); SP and GP bonuses are the fixed tables of § 413 and § 414",
        )
    return TeamBonusRequest(
        matches=get_int(request, "matches", minimum=1, maximum=MAX_MATCHES),
        boards=get_int(request, "boards", minimum=0, maximum=MAX_BOARDS),
        teams=get_int(request, "teams", minimum=1, maximum=MAX_FIELD),
        format=get_choice(request, "format", FORMATS, default="round_robin"),
        rows=get_int(request, "rows", minimum=1, maximum=MAX_ROWS, default=1),
        row=get_int(request, "row", minimum=1, maximum=MAX_ROWS, default=1),
        split=get_choice(request, "split", SPLITS, default="random"),
    )


def _team_bonus(request: Mapping[str, Any], rules: DbfRuleSet) -> dict[str, Any]:
    result = team_bonus(parse_team_bonus_request(request), rules)
    answer: dict[str, Any] = {
        "places_paid": result.places_paid,
        "effective_teams": result.effective_field,
        "awards": result.amounts(),
    }
    answer.update(reason_answer(result.reason))
    answer["explanation"] = _explanation(result.explanation)
    return answer


def _balance(request: Mapping[str, Any], name: str, decimals: int) -> int:
    value = get_decimal(request, name, minimum=Decimal(0), default=Decimal(0), max_decimals=decimals)
    return int(value.scaleb(decimals))


def _title(request: Mapping[str, Any], rules: DbfRuleSet) -> dict[str, Any]:
    check_fields(request, TITLE_FIELDS)
    status = title_for(_balance(request, "bp", 0), _balance(request, "sp", 1), _balance(request, "gp", 2), rules)
    following = None
    if status.next is not None:
        following = {
            "title": status.next.title,
            "stars": status.next.stars,
            "missing": status.next.missing_amounts(),
            "reaches": status.next.reached_titles(),
        }
    return {
        "title": status.title,
        "stars": status.stars,
        "total_mp": status.total_mp,
        "next": following,
        "explanation": _explanation(status.explanation),
    }
