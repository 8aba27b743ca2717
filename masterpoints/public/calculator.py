"""The public calculator page and its JSON API (engine-cli.md: same request, same answer)."""

from __future__ import annotations

import json

from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from masterpoints.engine.cli import calculate
from masterpoints.engine.common import RequestError
from masterpoints.public.forms import CALCULATORS
from masterpoints.public.limits import limited_per_address

API_MAX_BYTES = 64 * 1024
#: A calculator request is a flat object with a list of [first, last] places: two levels, or three.
API_MAX_DEPTH = 8
#: Calls per client address (the anonymous JSON API; the HTML calculator is a GET page).
API_RATE = "60/m"


def calculator(request):
    """One of four calculators, chosen by ``?calc=``; the form is submitted with GET (bookmarkable)."""
    chosen = request.GET.get("calc", "dbf")
    if chosen not in CALCULATORS:
        chosen = "dbf"
    forms = {}
    answer = None
    for name, form_class in CALCULATORS.items():
        bound = name == chosen and any(key.startswith(f"{form_class.prefix}-") for key in request.GET)
        forms[name] = form_class(request.GET if bound else None)
    form = forms[chosen]
    if form.is_bound and form.is_valid():
        try:
            answer = calculate(form.engine_request())
        except RequestError as error:
            form.add_engine_error(error.field, error.message)
    # The scheme whose symbols the answer's explanation uses (the title calculator is DBf's, § 404).
    context = {"forms": forms, "chosen": chosen, "form": form, "answer": answer, "scheme": form.scheme}
    if answer and chosen == "title":
        context["stars"] = "★" * answer.get("stars", 0)
        context["next_stars"] = "★" * ((answer.get("next") or {}).get("stars") or 0)
    return render(request, "masterpoints/calculator.html", context)


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


@csrf_exempt  # A pure computation: no session, no side effect, nothing to forge.
@require_POST
@limited_per_address(API_RATE)
def calculator_api(request):
    """``POST /api/calculator``: the JSON request of engine-cli.md in, its answer out; 400 with
    ``{"error": {"field", "message"}}`` for a request the engine cannot answer. Bounded where it enters:
    the body's size (:data:`API_MAX_BYTES`), its nesting (:data:`API_MAX_DEPTH`), every number (the
    engine's ``MAX_*``), and the calls per client address (:data:`API_RATE`)."""
    if len(request.body) > API_MAX_BYTES:
        error = RequestError("request", f"the request is larger than {API_MAX_BYTES // 1024} KB")
        return JsonResponse(error.as_json(), status=413)
    try:
        text = request.body.decode("utf-8")
        if _depth(text) > API_MAX_DEPTH:
            raise RequestError("request", f"the request nests deeper than {API_MAX_DEPTH} levels")
        payload = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        return JsonResponse(RequestError("request", f"not valid JSON: {exc}").as_json(), status=400)
    except ValueError as exc:  # an integer of more digits than Python converts (sys.get_int_max_str_digits)
        return JsonResponse(RequestError("request", f"not a number this calculator reads: {exc}").as_json(), status=400)
    except RequestError as error:
        return JsonResponse(error.as_json(), status=400)
    try:
        return JsonResponse(calculate(payload))
    except RequestError as error:
        return JsonResponse(error.as_json(), status=400)
