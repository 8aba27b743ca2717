"""The ``"scheme": "hbs"`` requests of the points calculator (``engine-cli.md``): ``scale`` and ``category``.

Called by :func:`masterpoints.engine.cli.calculate` (the command, the web page and the API). Raises
:class:`~masterpoints.engine.common.RequestError` naming the field for a request it cannot answer.

Beyond ``engine-cli.md`` a scale request may carry ``first_place`` (B fixed in advance) or ``bands``
(``[[N_min, "B"], …]``) instead of ``strength`` (H-8), and a category request ``held`` (the category
already held, H-2). Both are optional; without them the answers are exactly those the spec describes.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from masterpoints.engine.common import (
    MAX_BOARDS,
    MAX_FIELD,
    RequestError,
    check_fields,
    get_choice,
    get_decimal,
    get_int,
    json_repr,
    parse_ranks,
    reason_answer,
)
from masterpoints.engine.hbs.categories import NextCategory, category_for
from masterpoints.engine.hbs.rules import FORMS, HBS_DRAFT, KINDS, HbsRuleSet
from masterpoints.engine.hbs.scale import ScaleRequest, fixed, scale

SCALE_FIELDS = ("scheme", "kind", "form", "participants", "boards", "strength", "ranks", "first_place", "bands")
CATEGORY_FIELDS = ("scheme", "kind", "black", "red", "master", "held")


def handle(request: Mapping[str, Any], rules: HbsRuleSet = HBS_DRAFT) -> dict[str, Any]:
    """Answer one HBS calculator request under ``rules`` (the draft unless the site passes its own)."""
    kind = get_choice(request, "kind", ("scale", "category"))
    if kind == "scale":
        return _scale(request, rules)
    return _category(request, rules)


def _scale(request: Mapping[str, Any], rules: HbsRuleSet) -> dict[str, Any]:
    """``kind: scale``: B unrounded (4 decimals), n, the points per place, per entry, or the reason."""
    check_fields(request, SCALE_FIELDS, required=("form", "participants"))
    form = get_choice(request, "form", FORMS)
    participants = get_int(request, "participants", minimum=1, maximum=MAX_FIELD)
    boards = get_int(request, "boards", minimum=0, maximum=MAX_BOARDS) if _given(request, "boards") else None
    strength = get_decimal(request, "strength") if _given(request, "strength") else None
    first_place = get_decimal(request, "first_place") if _given(request, "first_place") else None
    bands = _bands(request["bands"]) if _given(request, "bands") else ()
    ranks = parse_ranks(request["ranks"], field_size=participants) if _given(request, "ranks") else None
    result = scale(
        ScaleRequest(
            form=form,
            participants=participants,
            boards=boards,
            strength=strength,
            first_place=first_place,
            bands=bands,
            ranks=tuple(ranks) if ranks is not None else None,
        ),
        rules,
    )
    answer: dict[str, Any] = {}
    if result.first_place is not None:
        answer["first_place"] = fixed(result.first_place, 4)
    answer["places_paid"] = result.places_paid
    answer["awards"] = [str(units) for units in result.awards]
    if ranks is not None:
        answer["entries"] = [str(e.units) for e in result.entries]
    answer.update(reason_answer(result.reason))
    answer["explanation"] = result.explanation.as_dict()
    if ranks is not None:
        answer["entry_explanations"] = [e.explanation.as_dict() for e in result.entries]
    return answer


def _category(request: Mapping[str, Any], rules: HbsRuleSet) -> dict[str, Any]:
    """``kind: category``: the category (H-2) and the next row with the points missing per kind."""
    check_fields(request, CATEGORY_FIELDS)
    balances = {kind: _balance(request, kind) for kind in KINDS}
    held = request.get("held")
    if held is not None and not isinstance(held, str):
        raise RequestError("held", f"'held' must be a category name, not {json_repr(held)}")
    status = category_for(balances["black"], balances["red"], balances["master"], rules, held=held)
    answer: dict[str, Any] = {"category": status.category, "next": _next(status.next)}
    if status.cheapest is not None:
        answer["cheapest"] = _next(status.cheapest)
    if held is not None:
        answer["computed"] = status.computed
    answer["explanation"] = status.explanation.as_dict()
    return answer


def _next(item: NextCategory | None) -> dict[str, Any] | None:
    if item is None:
        return None
    return {"category": item.category, "missing": {kind: str(item.missing_of(kind)) for kind in KINDS}}


def _balance(request: Mapping[str, Any], name: str) -> Decimal:
    value = get_decimal(request, name, minimum=Decimal(0), default=Decimal(0))
    if value != value.to_integral_value():
        raise RequestError(name, f"'{name}' is a whole number of HBS points, not {request[name]}")
    return value


def _bands(raw: Any) -> tuple[tuple[int, Decimal], ...]:
    """H-8 bands: ``[[N_min, "B"], …]``."""
    if not isinstance(raw, list) or not raw:
        raise RequestError("bands", "'bands' must be a non-empty list of [N_min, \"B\"]")
    out = []
    for i, item in enumerate(raw):
        where = f"bands[{i}]"
        if not isinstance(item, list) or len(item) != 2:
            raise RequestError(where, 'each band is [N_min, "B"]')
        n_min = get_int({where: item[0]}, where, minimum=1)
        b = get_decimal({where: item[1]}, where)
        out.append((n_min, b))
    return tuple(out)


def _given(request: Mapping[str, Any], name: str) -> bool:
    return request.get(name) is not None
