"""``python manage.py seed_demo``: a Danish and a Croatian demo federation, deterministic and idempotent."""

from __future__ import annotations

from datetime import date

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from clubs.models import Club, ClubMembership, PlayingTime
from clubs.services import officer_assign
from federation import demo
from federation.models import Federation, Player, Region

BATCH = 5000


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

    def handle(self, *args, players: int, clubs: int, hbs_players: int, **options):
        if players < 0 or hbs_players < 0 or clubs < 1:
            raise CommandError("--players and --hbs-players must be at least 0 and --clubs at least 1.")
        season_end = date(date.today().year + 1, 5, 15)
        with transaction.atomic():
            dbf = self._dbf(clubs)
            hbs = self._hbs()
            made = self._players(dbf, "dbf", players, season_end) + self._players(hbs, "hbs", hbs_players, season_end)
        self.stdout.write(f"Demo federations ready: {dbf.name}, {hbs.name}; {made} new players.")
        if settings.DEBUG:
            self._debug_users(dbf, hbs)

    def _dbf(self, club_count: int) -> Federation:
        fed, _ = Federation.objects.get_or_create(
            code="dbf",
            defaults={
                "name": "Danmarks Bridgeforbund",
                "scheme": "dbf",
                "default_language": "da",
                "time_zone": "Europe/Copenhagen",
                "contact_email": "sekretariat@dbf.example",
            },
        )
        circles = []
        for code, (name, circle_codes) in demo.DANISH_REGIONS.items():
            district, _ = Region.objects.get_or_create(
                federation=fed, code=code, defaults={"name": f"Distrikt {name}", "kind": "district"}
            )
            for circle_code in circle_codes:
                circle, _ = Region.objects.get_or_create(
                    federation=fed,
                    code=circle_code,
                    defaults={
                        "name": f"Kreds {demo.DANISH_CIRCLE_NAMES[circle_code]}",
                        "kind": "circle",
                        "parent": district,
                    },
                )
                circles.append(circle)
        for index in range(club_count):
            town = demo.DANISH_TOWNS[index % len(demo.DANISH_TOWNS)]
            suffix = "" if index < len(demo.DANISH_TOWNS) else f" {index // len(demo.DANISH_TOWNS) + 1}"
            circle = circles[index % len(circles)]
            self._club(fed, index, f"{1001 + index}", f"Bridgeklubben {town}{suffix}", [circle, circle.parent], "da")
        return fed

    def _hbs(self) -> Federation:
        fed, _ = Federation.objects.get_or_create(
            code="hbs",
            defaults={
                "name": "Hrvatski bridž savez",
                "scheme": "hbs",
                "default_language": "hr",
                "time_zone": "Europe/Zagreb",
                "contact_email": "tajnistvo@hbs.example",
            },
        )
        regions = {
            code: Region.objects.get_or_create(federation=fed, code=code, defaults={"name": name, "kind": "district"})[
                0
            ]
            for code, name in demo.CROATIAN_REGIONS.items()
        }
        for index, (region_code, name) in enumerate(demo.CROATIAN_CLUBS):
            self._club(fed, index, f"{101 + index}", name, [regions[region_code]], "hr")
        return fed

    def _club(self, fed: Federation, index: int, number: str, name: str, regions, language: str) -> Club:
        club, created = Club.objects.get_or_create(
            federation=fed,
            number=number,
            defaults={"name": name, "email": f"club{number}@{fed.code}.example", "language": language},
        )
        if created:
            club.regions.set(regions)
            PlayingTime.objects.bulk_create(
                PlayingTime(club=club, weekday=day, part_of_day=part)
                for day, part in demo.demo_playing_times(fed.scheme, index)
            )
        return club

    def _players(self, fed: Federation, scheme: str, count: int, season_end: date) -> int:
        clubs = list(Club.objects.filter(federation=fed).order_by("pk"))
        existing = set(Player.objects.filter(federation=fed).values_list("number", flat=True))
        made = 0
        for start in range(0, count, BATCH):
            rows = [
                demo.demo_player(scheme, i, len(clubs), season_end) for i in range(start, min(count, start + BATCH))
            ]
            rows = [row for row in rows if row.number not in existing]
            if not rows:
                continue
            Player.objects.bulk_create(
                Player(
                    federation=fed,
                    number=row.number,
                    first_name=row.first_name,
                    last_name=row.last_name,
                    birth_year=row.birth_year,
                    status=row.status,
                    dues_paid_until=row.dues_paid_until,
                    email=f"player{row.number}@{scheme}.example",
                )
                for row in rows
            )
            ids = dict(
                Player.objects.filter(federation=fed, number__in=[row.number for row in rows]).values_list(
                    "number", "pk"
                )
            )
            memberships = []
            for row in rows:
                memberships.append(ClubMembership(player_id=ids[row.number], club=clubs[row.club_index], is_home=True))
                if row.second_club_index is not None:
                    memberships.append(ClubMembership(player_id=ids[row.number], club=clubs[row.second_club_index]))
            ClubMembership.objects.bulk_create(memberships)
            made += len(rows)
        return made

    def _debug_users(self, dbf: Federation, hbs: Federation) -> None:
        """Development logins, printed with their passwords; never created outside DEBUG."""
        user_model = get_user_model()
        if not user_model.objects.filter(username="admin").exists():
            user_model.objects.create_superuser("admin", "admin@example.com", "admin")
        first_club = Club.objects.filter(federation=dbf).order_by("number").first()
        first_district = Region.objects.filter(federation=dbf, kind="district").order_by("code").first()
        people = [
            ("sekretariat", {"role": "secretariat", "federation": dbf}),
            ("klubleder", {"role": "club_director", "federation": dbf, "club": first_club}),
            ("distrikt", {"role": "region_officer", "federation": dbf, "region": first_district}),
            ("tajnik", {"role": "secretariat", "federation": hbs}),
        ]
        for username, office in people:
            user, created = user_model.objects.get_or_create(username=username)
            if created:
                user.set_password(username)
                user.save()
                officer_assign(actor=None, user=user, **office)
        self.stdout.write(
            "DEBUG logins (user/password): admin/admin (superuser), sekretariat/sekretariat (DBf secretariat), "
            f"klubleder/klubleder (director of {first_club}), distrikt/distrikt ({first_district}), "
            "tajnik/tajnik (HBS secretariat)."
        )
