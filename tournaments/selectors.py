"""Reads of tournaments, their groups, entries and participations."""

from __future__ import annotations

from django.db.models import Prefetch

from tournaments.models import Entry, Participation, Tournament


def tournament_list():
    return Tournament.objects.current().select_related("federation", "club", "region").order_by("-date", "name")


def tournament_detail(pk: int) -> Tournament:
    entries = Entry.objects.prefetch_related(
        Prefetch("participations", queryset=Participation.objects.select_related("player"))
    )
    return (
        Tournament.objects.select_related(
            "federation",
            "club",
            "region",
            "supersedes",
            "upload",
            "playing_time",
            "simultaneous_event",
            "sanction__application",
        )
        .prefetch_related(Prefetch("groups__entries", queryset=entries))
        .get(pk=pk)
    )
