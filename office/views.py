"""The officers' own page: "My office"."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from office.access import offices_of


@login_required
def office(request):
    """What the logged-in person may act for: their clubs, regions and staff roles."""
    return render(request, "office/office.html", {"offices": offices_of(request.user)})
