"""The public calculator page (engine-cli.md; its JSON twin is ``POST /api/calculator``, ``api.public``)."""

from __future__ import annotations

from django.shortcuts import render

from masterpoints.engine.cli import calculate
from masterpoints.engine.common import RequestError
from masterpoints.public.forms import CALCULATORS
from masterpoints.standings.titles import title_label


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
        context["next_rows"] = _next_rows(answer.get("next"))
    return render(request, "masterpoints/calculator.html", context)


def _next_rows(following: dict | None) -> list[tuple[str, str, str]]:
    """``(amount, kind, title)`` per kind that alone reaches a higher title: the title is the one the amount
    reaches, which may be above the next title named (Klubmester ★★ is reached by BP alone, D-Q11)."""
    if not following:
        return []
    reaches = following.get("reaches") or {}
    rows = []
    for kind, amount in following["missing"].items():
        reached = reaches.get(kind)
        if amount is not None and reached:
            rows.append((amount, kind.upper(), title_label(reached["title"], reached["stars"])))
    return rows
