"""The home page and the officers' own page."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from federation.models import Federation
from federation.selectors import offices_of


def home(request):
    federations = Federation.objects.order_by("name")
    return render(request, "federation/home.html", {"federations": federations})


@login_required
def office(request):
    """What the logged-in person may act for: their clubs, regions and staff roles."""
    return render(request, "federation/office.html", {"offices": offices_of(request.user)})
