"""The standings benchmark's own data (``bench/standings.py``): a fixed generator, apart from ``seed_demo``, so
that changes to the demo never move the bench's figures.

Everything comes from ``random.Random(SEED)``: two federations (DBf 70 % of players and awards, HBS 30 %),
districts, clubs of uneven size, players each with a home club, and ``SEASONS`` seasons of club (most),
district and federation pairs tournaments up to today. A tournament pays about its top 40 % of pairs; each
paid pair's two players share one explanation, stored through ``masterpoints.ledger.explanations_store``
as the engine's are (one scale per tournament group of equal kind, organiser, field and boards; one
explanation row per place of it). Kinds: the scheme's first kind mostly, some of the second and third.
Sources: an opening balance per player (transition), the results, a few foreign and manual awards and
reversals of one result award in 500. ``created_at`` follows the dates (registered the evening after the
tournament, as titles count from registration; D-Q21). Awards and players are written with COPY.
"""

from __future__ import annotations

import itertools
import random
from datetime import UTC, date, datetime, time, timedelta

from django.db import connection, transaction

from clubs.models import Club, ClubMembership
from federation.bulk import insert_many
from federation.models import Federation, Player, Region, RuleSet
from federation.names import search_name
from federation.rulesets import rules_for
from federation.schemes import scheme_of
from masterpoints.ledger import explanations_store
from masterpoints.models import Award
from tournaments.models import Tournament

SEED = 20160
#: Players written at a time.
PLAYER_CHUNK = 100_000
SEASONS = 10
#: (code, scheme, name, language, time zone, share of players and awards, districts).
FEDERATIONS = (
    ("dbf", "dbf", "Danmarks Bridgeforbund (bench)", "da", "Europe/Copenhagen", 0.7, 7),
    ("hbs", "hbs", "Hrvatski bridge savez (bench)", "hr", "Europe/Zagreb", 0.3, 5),
)
#: Organiser kind → (share of tournaments, smallest and largest field in pairs, base units of the winner).
ORGANISERS = {"club": (0.9, 6, 24, 12), "district": (0.08, 16, 60, 40), "federation": (0.02, 40, 120, 90)}
FIRST = ("Anne", "Bo", "Clara", "Dorte", "Erik", "Finn", "Grete", "Hans", "Ivan", "Jana", "Karl", "Lise", "Marko")
_EVENTS = itertools.count(1)
LAST = ("Jensen", "Nielsen", "Holm", "Dahl", "Bach", "Krogh", "Lund", "Horvat", "Kovač", "Babić", "Marić", "Petersen")


def bench_seed(*, players: int, awards: int, clubs: int | None = None) -> int:
    """Write the bench's federations, players and about ``awards`` awards; returns the awards written."""
    rng = random.Random(SEED)
    written = 0
    for code, scheme, name, language, zone, share, districts in FEDERATIONS:
        with transaction.atomic():
            federation = Federation.objects.create(
                code=code, scheme=scheme, name=name, default_language=language, time_zone=zone
            )
            count = max(200, round(players * share))
            club_ids = _clubs(federation, rng, clubs or max(3, count // 100), districts)
            members = _players(federation, rng, count, club_ids)
            written += _history(federation, rng, round(awards * share), members)
    return written


def _clubs(federation: Federation, rng: random.Random, count: int, districts: int) -> list[int]:
    regions = [
        Region.objects.create(federation=federation, kind="district", code=f"d{i}", name=f"District {i}")
        for i in range(districts)
    ]
    made = Club.objects.bulk_create(
        Club(federation=federation, number=str(100 + i), name=f"Bench club {i}", language=federation.default_language)
        for i in range(count)
    )
    Club.regions.through.objects.bulk_create(
        Club.regions.through(club_id=club.pk, region_id=rng.choice(regions).pk) for club in made
    )
    return [club.pk for club in made]


def _players(federation: Federation, rng: random.Random, count: int, club_ids: list[int]) -> dict[int, list[int]]:
    """``count`` players with a home club (clubs of uneven size: weights 1–5); returns club → player ids.
    Written in chunks of :data:`PLAYER_CHUNK` (a million players' rows never sit in memory at once)."""
    for chunk in range(0, count, PLAYER_CHUNK):
        insert_many(Player, _player_rows(federation, rng, range(chunk, min(count, chunk + PLAYER_CHUNK))))
    ids = list(Player.objects.filter(federation=federation).order_by("pk").values_list("pk", flat=True))
    weights = [rng.randint(1, 5) for _ in club_ids]
    homes = rng.choices(club_ids, weights=weights, k=len(ids))
    for chunk in range(0, len(ids), PLAYER_CHUNK):
        pairs = zip(ids[chunk : chunk + PLAYER_CHUNK], homes[chunk : chunk + PLAYER_CHUNK], strict=True)
        insert_many(ClubMembership, [{"player_id": p, "club_id": c, "is_home": True} for p, c in pairs])
    members: dict[int, list[int]] = {}
    for player, club in zip(ids, homes, strict=True):
        members.setdefault(club, []).append(player)
    return members


def _player_rows(federation: Federation, rng: random.Random, numbers: range) -> list[dict]:
    rows = []
    for i in numbers:
        first, last = rng.choice(FIRST), rng.choice(LAST)
        rows.append(
            {
                "federation_id": federation.pk,
                "number": str(10000 + i),
                "first_name": first,
                "last_name": last,
                "search_name": search_name(first, last),
                "birth_year": rng.randint(1935, 2010),
                "status": "member",
                "dues_paid_until": date(date.today().year + 1, 6, 30),
            }
        )
    return rows


def _history(federation: Federation, rng: random.Random, awards: int, members: dict[int, list[int]]) -> int:
    info = scheme_of(federation)
    today = date.today()
    first_day = info.season_dates(info.season_of(today) - SEASONS + 1)[0]
    try:
        rules_for(federation, first_day)
    except LookupError:
        RuleSet.objects.create(federation=federation, valid_from=first_day, name="Bench history")
    everyone = [p for ids in members.values() for p in ids]
    regions = list(Region.objects.filter(federation=federation).values_list("pk", flat=True))
    ledger = _Ledger(federation.pk)
    for p in everyone:
        ledger.add(p, info.kinds[0], rng.randint(1, 400), "transition", None, None, None, "Opening", first_day)
    days = (today - first_day).days + 1
    explain = _Explanations()
    while ledger.written + len(ledger.rows) < awards:
        batch = _tournaments(federation, rng, info.kinds, (first_day, days), (members, everyone), regions)
        for tournament, pairs in batch:
            for place, pair in enumerate(pairs, start=1):
                units, ref = explain.place(tournament, len(pairs), place)
                if not units:
                    break
                for p in pair:
                    ledger.add(p, tournament.category, units, "result", tournament.pk, place, ref, "", tournament.date)
    for _ in range((ledger.written + len(ledger.rows)) // 200):  # foreign points and hand-entered adjustments
        source, reason = rng.choice((("foreign", "Foreign points (bench)"), ("manual", "Adjustment (bench)")))
        units = rng.randint(1, 30) * rng.choice((1, 1, 1, -1))
        day = first_day + timedelta(days=rng.randrange(days))
        ledger.add(rng.choice(everyone), info.kinds[0], units, source, None, None, None, reason, day)
    ledger.flush()
    return ledger.written + _reversals(federation)


class _Ledger:
    """Award rows written with COPY in chunks (millions of rows never sit in memory at once)."""

    COLUMNS = ("federation_id", "player_id", "kind", "units", "source", "tournament_id", "part", "place_first")
    COLUMNS += ("place_last", "explanation_ref_id", "reason", "awarded_on", "created_at")
    CHUNK = 200_000

    def __init__(self, federation_id: int) -> None:
        self.federation_id = federation_id
        self.now = datetime.now(UTC)
        self.rows: list[tuple] = []
        self.written = 0

    def add(self, player, kind, units, source, tournament, place, ref, reason, day) -> None:
        registered = min(self.now, datetime.combine(day + timedelta(days=1), time(19), UTC))
        row = (self.federation_id, player, kind, units, source, tournament, "", place, place, ref, reason, day)
        self.rows.append((*row, registered))
        if len(self.rows) >= self.CHUNK:
            self.flush()

    def flush(self) -> None:
        table = connection.ops.quote_name(Award._meta.db_table)
        sql = f"COPY {table} ({', '.join(self.COLUMNS)}) FROM STDIN"
        with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
            for row in self.rows:
                copy.write_row(row)
        self.written += len(self.rows)
        self.rows = []


def _tournaments(federation, rng, kinds, span, players, regions) -> list[tuple[Tournament, list]]:
    """A batch of 500 tournaments with their fields (pairs of player ids, in place order); ``players``: club →
    its members, and every player."""
    first_day, days = span
    members, everyone = players
    organisers = list(ORGANISERS)
    shares = [ORGANISERS[o][0] for o in organisers]
    clubs = list(members)
    planned = []
    for _ in range(500):
        organiser = rng.choices(organisers, weights=shares)[0]
        _share, low, high, _base = ORGANISERS[organiser]
        club = rng.choice(clubs) if organiser == "club" else None
        pool = members[club] if club and len(members[club]) >= 2 * low else everyone
        field = min(rng.randint(low, high), len(pool) // 2)
        chosen = rng.sample(pool, 2 * field)
        day = first_day + timedelta(days=rng.randrange(days))
        tournament = Tournament(
            federation=federation,
            organiser_kind=organiser,
            club_id=club,
            region_id=rng.choice(regions) if organiser == "district" else None,
            name=f"Bench {organiser} {day:%d.%m.%Y}",
            event_key=f"bench:{next(_EVENTS)}",
            date=day,
            form="pairs",
            category=rng.choices(kinds, weights=(85, 12, 3))[0],
            boards=rng.choice((24, 26, 27, 28)),
            file_info={"bench": True},
        )
        planned.append((tournament, [chosen[2 * i : 2 * i + 2] for i in range(field)]))
    made = Tournament.objects.bulk_create([t for t, _ in planned], batch_size=500)
    return [(t, pairs) for t, (_, pairs) in zip(made, planned, strict=True)]


class _Explanations:
    """The units and the shared explanation of a place: one scale per (organiser, kind, field, boards)."""

    def __init__(self) -> None:
        self.refs: dict[tuple, list[tuple[int, int | None]]] = {}

    def place(self, tournament: Tournament, field: int, place: int) -> tuple[int, int | None]:
        key = (tournament.organiser_kind, tournament.category, field, tournament.boards)
        if key not in self.refs:
            self.refs[key] = self._store(key)
        scale = self.refs[key]
        return scale[place - 1] if place <= len(scale) else (0, None)

    def _store(self, key: tuple) -> list[tuple[int, int | None]]:
        organiser, kind, field, boards = key
        base = ORGANISERS[organiser][3] * boards // 24
        paid = max(1, field * 2 // 5)
        units = [max(1, base * (paid - i) // paid) for i in range(paid)]
        explanations = [
            {
                "rules": [f"bench {organiser} scale"],
                "inputs": {"kind": kind, "field": field, "boards": boards, "paid": paid, "place": i + 1},
                "formula": f"{base} × ({paid} − place + 1) / {paid}",
                "units": u,
            }
            for i, u in enumerate(units)
        ]
        refs = explanations_store([(key, e) for e in explanations])
        return list(zip(units, refs, strict=True))


def _reversals(federation: Federation) -> int:
    """Reverse one result award in 500 (a re-upload's cancellation), dated a week later."""
    table = Award._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (federation_id, player_id, kind, units, source, tournament_id, part, reason,"
            " reverses_id, awarded_on, created_at) SELECT federation_id, player_id, kind, -units, 'reversal',"
            " tournament_id, part, 'Re-upload (bench)', id, awarded_on + 7, created_at + interval '7 days'"
            f" FROM {table} WHERE federation_id = %s AND source = 'result' AND id %% 500 = 0",
            [federation.pk],
        )
        return cursor.rowcount
