"""The HBS secretariat's transition page: the imports of the old lists (transition rules 1, 3 and 4) and the
what-if run (rule 8), with the services ``manage.py hbs_transition`` uses (``masterpoints.transition``)."""

from __future__ import annotations

import io

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from federation.models import Federation
from federation.selectors import federation_asked
from masterpoints.transition.forms import TransitionImportForm, WhatIfForm
from masterpoints.transition.services import IMPORTS
from masterpoints.transition.what_if import transition_what_if, what_if_csv, what_if_parameters
from office.access import is_secretariat

#: The page lists at most this many players whose points or category change; the CSV has them all.
SHOWN_ROWS = 500


def _federation(request) -> Federation:
    """The federation asked for whose rule book has the transition (rules 1–8); refused when there is none."""
    federation = federation_asked(request, "transition")
    if federation is None:
        raise PermissionDenied(_("No federation here uses the HBS transition rules."))
    return federation


@login_required
def transition_page(request):
    """Imports (POST, a file) and the what-if run (GET, ``?what_if=1``; ``&export=csv`` for every row)."""
    federation = _federation(request)
    if not is_secretariat(request.user, federation):
        raise PermissionDenied(_("The transition is the secretariat's."))
    report = None
    import_form = TransitionImportForm()
    if request.method == "POST":
        import_form = TransitionImportForm(request.POST, request.FILES)
        if import_form.is_valid():
            data = import_form.cleaned_data
            try:
                report = IMPORTS[data["action"]](
                    actor=request.user, federation=federation, data=data["file"].read(), on=data["on"]
                )
            except ValidationError as error:
                for message in error.messages:
                    import_form.add_error("file", message)
    what_if = None
    what_if_form = WhatIfForm(request.GET if "what_if" in request.GET else None)
    if what_if_form.is_bound and what_if_form.is_valid():
        try:
            overrides, strengths = what_if_parameters(*what_if_form.lines())
            what_if = transition_what_if(federation=federation, overrides=overrides, strengths=strengths)
        except ValidationError as error:
            for message in error.messages:
                what_if_form.add_error(None, message)
        else:
            if request.GET.get("export") == "csv":
                out = io.StringIO()
                what_if_csv(what_if, out, every=True)
                response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
                response["Content-Disposition"] = 'attachment; filename="what-if.csv"'
                return response
    context = {
        "federation": federation,
        "import_form": import_form,
        "report": report,
        "what_if_form": what_if_form,
        "what_if": what_if,
        "listed": what_if.listed[:SHOWN_ROWS] if what_if else [],
        "shown_rows": SHOWN_ROWS,
    }
    return render(request, "masterpoints/transition.html", context)
