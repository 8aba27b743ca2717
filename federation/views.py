"""The home page."""

from django.shortcuts import render

from federation.models import Federation


def home(request):
    federations = Federation.objects.order_by("name")
    return render(request, "federation/home.html", {"federations": federations})
