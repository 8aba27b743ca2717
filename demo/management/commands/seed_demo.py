"""``python manage.py seed_demo``: a Danish and a Croatian demo federation, deterministic and idempotent.

The command parses the options and calls the builders: :mod:`demo.people` (federations, regions, clubs,
players), :mod:`demo.corrections` (the HBS correction window), :mod:`demo.seasons` (the history of
tournaments and awards, four seasons by default) and :mod:`demo.logins` (the DEBUG logins).
"""

from __future__ import annotations

from datetime import date

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from demo.corrections import correction_window_open
from demo.logins import debug_logins_create
from demo.people import federation_build, players_build
from demo.profiles import DEMO_PROFILES
from demo.seasons import seed_history

#: Awards per player and season when --awards is not given: a realistic season.
AWARDS_PER_SEASON = 5
#: Seasons of history when neither --awards nor --seasons is given: several, so a player's chart, season
#: table and cups have seasons to compare.
DEFAULT_SEASONS = 4


class Command(BaseCommand):
    help = (
        "Builds demo data: a DBf federation (districts, circles, clubs with playing times, players) and an HBS "
        "one. Deterministic and idempotent: a second run changes nothing; a larger --players keeps the "
        "players of a smaller run. In DEBUG it also creates the superuser admin/admin and demo officers."
    )

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=800, help="DBf players (default 800).")
        parser.add_argument("--clubs", type=int, default=30, help="DBf clubs (default 30).")
        parser.add_argument("--hbs-players", type=int, default=300, help="HBS players (default 300).")
        parser.add_argument(
            "--awards",
            type=int,
            default=None,
            help=(
                f"Awards to generate through the engine, shared by the federations in proportion to their players "
                f"(default {AWARDS_PER_SEASON} per player and season; 0 for none). Skipped for a federation "
                "that already has demo tournaments."
            ),
        )
        parser.add_argument(
            "--seasons",
            type=int,
            default=None,
            help=(
                f"Seasons of history (default {DEFAULT_SEASONS}; with --awards: awards / ({AWARDS_PER_SEASON} × "
                "players), 1 to 10)."
            ),
        )

    def handle(self, *args, players: int, clubs: int, hbs_players: int, **options):
        if players < 0 or hbs_players < 0 or clubs < 1:
            raise CommandError("--players and --hbs-players must be at least 0 and --clubs at least 1.")
        # Players asked for, by the scheme code of the demo profile they belong to.
        counts = {"dbf": players, "hbs": hbs_players}
        everyone = sum(counts.values())
        awards, seasons = options.get("awards"), options.get("seasons")
        if awards is None:
            seasons = DEFAULT_SEASONS if seasons is None else seasons
            awards = AWARDS_PER_SEASON * everyone * seasons
        elif seasons is None:
            seasons = max(1, min(10, round(awards / max(1, AWARDS_PER_SEASON * everyone))))
        if awards < 0 or seasons < 1:
            raise CommandError("--awards must be at least 0 and --seasons at least 1.")
        dues_paid_until = date(date.today().year + 1, 5, 15)
        with transaction.atomic():
            federations = {code: federation_build(profile, clubs) for code, profile in DEMO_PROFILES.items()}
            made = sum(players_build(federations[code], counts[code], dues_paid_until) for code in DEMO_PROFILES)
            for federation in federations.values():
                correction_window_open(federation, date.today())
        names = ", ".join(federation.name for federation in federations.values())
        self.stdout.write(f"Demo federations ready: {names}; {made} new players.")
        if awards and everyone:
            for code, count in counts.items():
                share = awards * count // everyone
                if share:
                    seed_history(federation=federations[code], awards=share, seasons=seasons, log=self.stdout.write)
        if settings.DEBUG:
            self.stdout.write(debug_logins_create(federations["dbf"], federations["hbs"]))
