"""The public calculator page (engine-cli.md; its JSON twin is ``POST /api/calculator``, ``api.public``)."""

from __future__ import annotations

from django.shortcuts import render

from federation.schemes import calculate, registered
from masterpoints.engine.common import RequestError


def calculators() -> dict:
    """Every registered rule book's calculators, by their ``?calc=`` value, in the registry's order."""
    return {name: form for info in registered() for name, form in info.calculators.items()}


def calculator(request):
    """One calculator, chosen by ``?calc=`` (the first when it names none); the form is submitted with GET
    (bookmarkable)."""
    offered = calculators()
    chosen = request.GET.get("calc", "")
    if chosen not in offered:
        chosen = next(iter(offered))
    forms = {}
    answer = None
    for name, form_class in offered.items():
        bound = name == chosen and any(key.startswith(f"{form_class.prefix}-") for key in request.GET)
        forms[name] = form_class(request.GET if bound else None)
    form = forms[chosen]
    if form.is_bound and form.is_valid():
        try:
            answer = calculate(form.engine_request())
        except RequestError as error:
            form.add_engine_error(error.field, error.message)
    context = {"forms": forms, "chosen": chosen, "form": form, "answer": answer, "scheme": form.scheme}
    if answer:
        context.update(form.answer_context(answer))
    return render(request, "masterpoints/calculator.html", context)
