"""``python manage.py seed_demo``: a Danish and a Croatian demo federation, deterministic and idempotent."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from clubs.models import Club, ClubMembership, PlayingTime
from demo import data as demo
from federation.models import Federation, Player, Region, RuleSet
from office.services import officer_assign

BATCH = 5000
#: Tournaments of the history whose results (rows, pairs, players) are stored in full; older ones keep only
#: the tournament and its awards, so ten years of history stay quick to build.
DETAILED_TOURNAMENTS = 5000
#: Awards per player and season when --awards is not given: one realistic season.
AWARDS_PER_SEASON = 5


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
                f"(default {AWARDS_PER_SEASON} per player: one season; 0 for none). Skipped for a federation "
                "that already has demo tournaments."
            ),
        )
        parser.add_argument(
            "--seasons",
            type=int,
            default=None,
            help=f"Seasons of history (default: awards / ({AWARDS_PER_SEASON} × players), 1 to 10).",
        )

    def handle(self, *args, players: int, clubs: int, hbs_players: int, **options):
        if players < 0 or hbs_players < 0 or clubs < 1:
            raise CommandError("--players and --hbs-players must be at least 0 and --clubs at least 1.")
        awards = options.get("awards")
        everyone = players + hbs_players
        awards = AWARDS_PER_SEASON * everyone if awards is None else awards
        seasons = options.get("seasons") or max(1, min(10, round(awards / max(1, AWARDS_PER_SEASON * everyone))))
        if awards < 0 or seasons < 1:
            raise CommandError("--awards must be at least 0 and --seasons at least 1.")
        season_end = date(date.today().year + 1, 5, 15)
        with transaction.atomic():
            dbf = self._dbf(clubs)
            hbs = self._hbs()
            made = self._players(dbf, "dbf", players, season_end) + self._players(hbs, "hbs", hbs_players, season_end)
        self.stdout.write(f"Demo federations ready: {dbf.name}, {hbs.name}; {made} new players.")
        if awards and everyone:
            for fed, count in ((dbf, players), (hbs, hbs_players)):
                share = awards * count // everyone
                if share:
                    seed_history(federation=fed, awards=share, seasons=seasons, log=self.stdout.write)
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


# --- a history of tournaments and awards through the engine (--awards) ------------------------------------


def seed_history(*, federation: Federation, awards: int, seasons: int, log=print) -> int:
    """Plan about ``awards`` awards over ``seasons`` seasons of club, regional and national pairs events,
    score each field with the engine and write tournaments and awards in bulk (COPY on PostgreSQL).

    Standings are rebuilt after each season, so titles are registered as the seasons pass. Returns the
    number of awards written; 0 when the federation already has demo tournaments (idempotent).
    """
    from masterpoints.standings.services import SEASON_START, standings_rebuild
    from tournaments.models import Tournament

    if Tournament.objects.filter(federation=federation, event_key__startswith="demo:").exists():
        log(f"{federation.code}: demo tournaments exist already; no awards generated.")
        return 0
    bounds = demo.demo_seasons(seasons, SEASON_START[federation.scheme], date.today())
    _rules_for_history(federation, bounds[0][0])
    hosts = _hosts(federation)
    scales = _DemoScales(federation)
    written = _opening_balances(federation, bounds[0][0] - timedelta(days=1))
    for index, season in enumerate(bounds):
        # A season still running (today) gets its share by days played so far.
        days = [(end - start).days + 1 for start, end in bounds[index:]]
        wanted = (awards - written) * days[0] // sum(days)
        events = demo.plan_season(federation.scheme, index, season, hosts, wanted, scales.paid_places)
        detailed = max(0, len(events) - DETAILED_TOURNAMENTS) if index == len(bounds) - 1 else len(events)
        with transaction.atomic():
            written += _write_events(federation, index, events, scales, detailed_from=detailed)
            if index == len(bounds) - 1:
                written += _demo_corrections(federation, events[detailed:])
        standings_rebuild(actor=None, federation=federation)
        log(f"{federation.code}: season {season[0]:%Y-%m-%d}: {len(events)} tournaments, {written} awards so far")
    return written


def _opening_balances(federation: Federation, day: date) -> int:
    """Balances brought from the previous system, as opening-balance awards dated before the history."""
    from masterpoints.models import Award

    now = datetime.now(UTC)
    reason = "Opening balance from the previous system (demo)"
    rows = [
        (federation.pk, pk, kind, units, "transition", "", "{}", reason, day, now)
        for pk, number in Player.objects.filter(federation=federation).order_by("pk").values_list("pk", "number")
        for kind, units in demo.demo_opening_balance(federation.scheme, number)
    ]
    columns = ("federation_id", "player_id", "kind", "units", "source", "part", "explanation", "reason", "awarded_on")
    _copy(Award, (*columns, "created_at"), rows)
    return len(rows)


def _rules_for_history(federation: Federation, first_day: date) -> None:
    """The built-in DBf rules start on 1 September 2023: older demo history is computed by the same rules."""
    from federation.rulesets import rules_for

    try:
        rules_for(federation, first_day)
    except LookupError:
        RuleSet.objects.get_or_create(
            federation=federation,
            valid_from=first_day,
            defaults={"name": "Demo history under today's rules", "note": "Written by seed_demo --awards."},
        )


def _hosts(federation: Federation) -> dict[str, list[demo.DemoHost]]:
    """Clubs with their members and playing weekdays; districts with their clubs' members; the federation.
    (``demo.plan_season`` uses those with players enough for a field.)"""
    members: dict[int, list[int]] = {}
    for club_id, player_id in ClubMembership.objects.filter(club__federation=federation).values_list(
        "club_id", "player_id"
    ):
        members.setdefault(club_id, []).append(player_id)
    weekdays: dict[int, set[int]] = {}
    for club_id, weekday in PlayingTime.objects.filter(club__federation=federation).values_list("club_id", "weekday"):
        weekdays.setdefault(club_id, set()).add(weekday)
    clubs = list(Club.objects.filter(federation=federation).order_by("pk").values_list("pk", flat=True))
    hosts = {
        "club": [
            demo.DemoHost("club", pk, tuple(sorted(weekdays.get(pk, {5}))), tuple(sorted(members.get(pk, []))))
            for pk in clubs
            if members.get(pk)
        ]
    }
    districts = []
    for region in Region.objects.filter(federation=federation, kind="district").order_by("pk"):
        players = sorted({p for club in region.clubs.all() for p in members.get(club.pk, [])})
        if players:
            districts.append(demo.DemoHost("district", region.pk, (5, 6), tuple(players)))
    hosts["district"] = districts
    everyone = tuple(sorted({p for ids in members.values() for p in ids}))
    hosts["federation"] = [demo.DemoHost("federation", federation.pk, (5, 6), everyone)] if everyone else []
    return hosts


class _DemoScales:
    """The engine's awards per place for each (organiser, category, pairs, boards), computed once."""

    def __init__(self, federation: Federation) -> None:
        from federation.rulesets import rules_for

        self.federation = federation
        self.rules = rules_for(federation, date.today())
        self._cache: dict[tuple, list[tuple[int, str, str]]] = {}

    def places(self, organiser: str, category: str, pairs: int, boards: int) -> list[tuple[int, str, str]]:
        """(units, explanation as JSON, part) per place, best first; units 0 beyond the paid places."""
        key = (organiser, category, pairs, boards)
        if key not in self._cache:
            self._cache[key] = self._compute(*key)
        return self._cache[key]

    def paid_places(self, organiser: str, category: str, pairs: int, boards: int) -> int:
        return sum(1 for units, _e, _p in self.places(organiser, category, pairs, boards) if units)

    def _compute(self, organiser: str, category: str, pairs: int, boards: int) -> list[tuple[int, str, str]]:
        if self.federation.scheme == "dbf":
            from masterpoints.engine.dbf import events as engine

            entries = tuple(
                engine.Entry(
                    entry=f"e{i}", first=i, players=(engine.Player(f"e{i}#1", boards), engine.Player(f"e{i}#2", boards))
                )
                for i in range(1, pairs + 1)
            )
            section = engine.Section(key="A", participants=pairs, boards=boards, entries=entries)
            event = engine.PairEvent(
                form="pairs", category=category, organizer=organiser, parts=(engine.Part(key="", sections=(section,)),)
            )
            awards = engine.pair_event_awards(event, self.rules)
        else:
            from decimal import Decimal

            from masterpoints.engine.hbs import events as engine

            entries = tuple(
                engine.EventEntry(
                    entry=f"e{i}", first=i, players=(engine.Participant(f"e{i}#1"), engine.Participant(f"e{i}#2"))
                )
                for i in range(1, pairs + 1)
            )
            kinds = (engine.KindAward(category, strength=Decimal(1)),)
            awards = engine.event_awards(
                engine.Event(form="pairs", entries=entries, kinds=kinds, boards=boards), self.rules
            )
        by_place = {int(a.entry[1:]): a for a in awards if a.player.endswith("#1")}
        out = []
        for place in range(1, pairs + 1):
            award = by_place.get(place)
            if award is None or not award.units:
                out.append((0, "", ""))
            else:
                out.append((award.units, json.dumps(award.explanation.as_dict(), ensure_ascii=False), award.part[:100]))
        return out


_ORGANISER_NAMES = {"club": "Klubturnering", "district": "Regionsturnering", "federation": "Landsturnering"}
_HBS_NAMES = {"club": "Klupski turnir", "district": "Regionalni turnir", "federation": "Državni turnir"}


def _write_events(federation: Federation, season: int, events, scales: _DemoScales, *, detailed_from: int) -> int:
    """Tournaments (bulk) and their awards (COPY on PostgreSQL); full results for events from ``detailed_from``."""
    from masterpoints.models import Award
    from tournaments.models import Tournament

    names = _ORGANISER_NAMES if federation.scheme == "dbf" else _HBS_NAMES
    tournaments = Tournament.objects.bulk_create(
        [
            Tournament(
                federation=federation,
                organiser_kind=event.host.organiser,
                club_id=event.host.index if event.host.organiser == "club" else None,
                region_id=event.host.index if event.host.organiser == "district" else None,
                name=f"{names[event.host.organiser]} {event.day:%d.%m.%Y}",
                event_key=f"demo:{season}:{number}",
                date=event.day,
                form="pairs",
                category=event.category,
                boards=event.boards,
                strengths={event.category: "1"} if federation.scheme == "hbs" else {},
                facts={"demo": True},
            )
            for number, event in enumerate(events)
        ],
        batch_size=2000,
    )
    now = datetime.now(UTC)
    fed = federation.pk
    rows: list[tuple] = []
    for tournament, event in zip(tournaments, events, strict=True):
        places = scales.places(event.host.organiser, event.category, len(event.pairs), event.boards)
        for place, (pair, (units, explanation, part)) in enumerate(zip(event.pairs, places, strict=True), start=1):
            if not units:
                break
            kind, tid, day = event.category, tournament.pk, event.day
            rows += [
                (fed, player, kind, units, "result", tid, part, place, place, explanation, "", day, now)
                for player in pair
            ]
    columns = ("federation_id", "player_id", "kind", "units", "source", "tournament_id", "part", "place_first")
    columns += ("place_last", "explanation", "reason", "awarded_on", "created_at")
    _copy(Award, columns, rows)
    _details(tournaments[detailed_from:], events[detailed_from:])
    return len(rows)


def _copy(model, columns: tuple[str, ...], rows: list[tuple]) -> None:
    """Bulk insert: COPY on PostgreSQL (millions of rows in seconds), ``bulk_create`` elsewhere."""
    if connection.vendor == "postgresql":
        table = connection.ops.quote_name(model._meta.db_table)
        with connection.cursor() as cursor, cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        return
    objs = []
    for row in rows:
        values = dict(zip(columns, row, strict=True))
        if "explanation" in values:
            values["explanation"] = json.loads(values["explanation"]) if values["explanation"] else {}
        objs.append(model(**values))
    model.objects.bulk_create(objs, batch_size=2000)


def _details(tournaments, events) -> None:
    """One ranking group per tournament with its pairs and players, as a confirmed upload would store them."""
    from tournaments.models import Entry, Participation, RankingGroup

    groups = RankingGroup.objects.bulk_create(
        [
            RankingGroup(tournament=t, key="A", name="", field_size=len(e.pairs))
            for t, e in zip(tournaments, events, strict=True)
        ],
        batch_size=2000,
    )
    entries, pairs = [], []
    for group, event in zip(groups, events, strict=True):
        for place, pair in enumerate(event.pairs, start=1):
            entries.append(Entry(group=group, key=f"e{place}", number=str(place), place_first=place, place_last=place))
            pairs.append(pair)
    entries = Entry.objects.bulk_create(entries, batch_size=2000)
    Participation.objects.bulk_create(
        [
            Participation(entry=entry, player_id=player_id, resolution="member")
            for entry, pair in zip(entries, pairs, strict=True)
            for player_id in pair
        ],
        batch_size=2000,
    )


def _demo_corrections(federation: Federation, events) -> int:
    """A few corrections so the player pages show them as such: a re-upload that swaps the top two pairs
    (reversals of the first version, awards of the second) and some awards adjusted by the office."""
    from masterpoints.ledger import awards_reverse_tournament
    from masterpoints.models import Award
    from tournaments.models import Tournament

    written = 0
    redone = [
        t
        for t in Tournament.objects.filter(federation=federation, event_key__startswith="demo:").order_by(
            "-date", "-pk"
        )[:200:40]
    ]
    for old in redone:
        awards = list(old.awards.filter(source=Award.Source.RESULT).order_by("place_first", "pk"))
        if len(awards) < 4:
            continue
        written += awards_reverse_tournament(actor=None, tournament=old, reason="superseded by a re-upload (demo)")
        new = Tournament.objects.create(
            federation=federation,
            organiser_kind=old.organiser_kind,
            club=old.club,
            region=old.region,
            name=f"{old.name} (rettet)" if federation.scheme == "dbf" else f"{old.name} (ispravak)",
            event_key=old.event_key,
            date=old.date,
            form=old.form,
            category=old.category,
            boards=old.boards,
            strengths=old.strengths,
            facts=old.facts,
            supersedes=old,
        )
        # The corrected file swaps the first two pairs: each pair gets the other's points.
        first = [a for a in awards if a.place_first == 1]
        second = [a for a in awards if a.place_first == 2]
        swapped = [(a, b.units, 2) for a in first for b in second[:1]] + [
            (b, a.units, 1) for b in second for a in first[:1]
        ]
        rest = [(a, a.units, a.place_first) for a in awards if a.place_first > 2]
        new_awards = [
            Award(
                federation=federation,
                player_id=award.player_id,
                kind=award.kind,
                units=units,
                source=Award.Source.RESULT,
                tournament=new,
                part=award.part,
                place_first=place,
                place_last=place,
                explanation=award.explanation,
                awarded_on=award.awarded_on,
            )
            for award, units, place in swapped + rest
        ]
        Award.objects.bulk_create(new_awards)
        written += len(new_awards)
    kind = "BP" if federation.scheme == "dbf" else "black"
    players = list(
        Award.objects.filter(federation=federation, source=Award.Source.RESULT)
        .order_by("-awarded_on", "player_id")
        .values_list("player_id", flat=True)[:300:30]
    )
    today = date.today()
    corrections = [
        Award(
            federation=federation,
            player_id=player_id,
            kind=kind,
            units=5 if index % 2 else -3,
            source=Award.Source.CORRECTION,
            reason="Correction granted by the commission (demo)" if index % 2 else "Points entered twice (demo)",
            awarded_on=today - timedelta(days=index),
        )
        for index, player_id in enumerate(dict.fromkeys(players))
    ]
    Award.objects.bulk_create(corrections)
    return written + len(corrections)
