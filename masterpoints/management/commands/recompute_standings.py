"""``python manage.py recompute_standings [--full] [--federation CODE]``."""

from __future__ import annotations

import time

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db.models import Count

from federation.models import Federation
from masterpoints.models import Award, Standing
from masterpoints.standings.jobs import standings_rebuild_recorded
from masterpoints.standings.services import standings_refresh_players


class Command(BaseCommand):
    help = (
        "Recomputes the standings from the award ledger. Without --full only players whose ledger changed "
        "after their standing was written (more awards than the standing counts) are recomputed; --full "
        "rebuilds every standing and season figure (as the nightly job does), recorded as a job in the admin."
    )

    def add_arguments(self, parser):
        parser.add_argument("--full", action="store_true", help="Rebuild every standing from the ledger.")
        parser.add_argument("--federation", help="Only this federation (its code, e.g. dbf).")

    def handle(self, *args, full: bool, federation: str | None, **options):
        federations = Federation.objects.order_by("pk")
        if federation:
            federations = federations.filter(code=federation)
            if not federations:
                raise CommandError(f"No federation with the code {federation!r}.")
        start = time.perf_counter()
        for fed in federations:
            if full:
                try:
                    figures = standings_rebuild_recorded(federation=fed)
                except ValidationError as refused:
                    raise CommandError(" ".join(refused.messages)) from None
                written = figures["standings_written"]
                self.stdout.write(
                    f"{fed.code}: {figures['players_changed']} players changed, "
                    f"{figures['titles_registered']} titles registered"
                )
            else:
                written = standings_refresh_players(federation=fed, player_ids=_stale_players(fed))
            self.stdout.write(f"{fed.code}: {written} standings written")
        self.stdout.write(f"done in {time.perf_counter() - start:.1f} s")


def _stale_players(federation: Federation) -> list[int]:
    """Players whose ledger holds awards the standing does not count yet (or who have no standing); the
    ledger is append-only, so a changed count is exactly a changed ledger."""
    counted = dict(Standing.objects.filter(federation=federation).values_list("player_id", "award_count"))
    totals = (
        Award.objects.filter(federation=federation)
        .values("player_id")
        .annotate(count=Count("id"))
        .order_by()
        .values_list("player_id", "count")
    )
    return [player_id for player_id, count in totals if counted.get(player_id) != count]
