"""Reads of the federation's records."""

from clubs.models import Officer


def offices_of(user):
    return Officer.objects.filter(user=user).select_related("federation", "club", "region").order_by("role")
