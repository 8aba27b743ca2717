"""Fingerprints that let the nightly rebuild prove stored standings right without regrouping the ledger
(PostgreSQL, :mod:`masterpoints.standings.rebuild`).

The rebuild compares everything it derives with what is stored and writes only the differences. Once it
has done so for a season, the season's rows are right, and they stay right as long as neither the ledger
rows of that season nor the stored rows change. So it records, per season, a fingerprint of each side
(:class:`~masterpoints.models.StandingsProof`); the next night one pass over the ledger with a handful of
groups (its dates) and one over the season rows give today's fingerprints, and only the seasons whose
fingerprints differ from the recorded ones (a day's uploads, a stored row changed by hand or by a fault, a
ledger row changed) are regrouped by player and repaired. The same holds for the standings (derived from
all seasons, the title register and the rule sets) and for DBf's ranking list (derived from the whole
ledger, the robot tournaments and the day; it is right until its first ``changes_on``, D-Q59).

A fingerprint is a digest of exact integer sums over the rows: the count, the sum of ids and sums of the
values that matter, each weighted by a number drawn from the player id, so that moving points between two
players or two kinds changes it. The code that derives the rows is part of every fingerprint too
(:func:`code_digest`): a release that changes how standings are computed makes the next rebuild verify
everything once. A proof is only ever written by the rebuild, in its own transaction, after the rows are
right; the incremental update leaves proofs alone (its changes make the fingerprints differ, and the next
rebuild checks what it did).
"""

from __future__ import annotations

import datetime
import hashlib
import importlib.util
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.db import connection, models

from federation.models import Federation, RuleSet
from federation.schemes import scheme_of
from masterpoints.models import Award, RankingListEntry, SeasonStanding, Standing, StandingsProof, TitleAchievement
from masterpoints.standings.sums import _SEASON_COLUMNS, _STANDING_COLUMNS
from tournaments.models import Tournament

#: The packages and modules whose code the stored rows are computed by (:func:`code_digest`): the engine
#: (ladders, built-in rule sets, the ranking list's rule), the standings and the schemes.
DERIVING_CODE = ("masterpoints.engine", "masterpoints.standings", "federation.schemes", "federation.rulesets")
#: The weight of a player's values in a fingerprint: a number from 1 to this, drawn from the id.
_WEIGHTS = 65521
_EPOCH = datetime.date(2000, 1, 1)
STANDINGS = "standings"
RANKING_LIST = "ranking list"


def season_scope(season: int) -> str:
    return f"season {season}"


def _weight(column: str = "player_id") -> str:
    return f"(mod({column}, {_WEIGHTS}) + 1)"


def digest(*parts: object) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:40]


@cache
def code_digest() -> str:
    """A digest of the source of :data:`DERIVING_CODE`, every module of a package included (read once per
    process)."""
    sha = hashlib.sha256()
    for name in DERIVING_CODE:
        spec = importlib.util.find_spec(name)
        if spec.submodule_search_locations:
            root = Path(next(iter(spec.submodule_search_locations)))
            files = sorted(root.rglob("*.py"))
        else:
            root, files = Path(spec.origin).parent, [Path(spec.origin)]
        if not files or files[0].suffix != ".py":
            raise ImproperlyConfigured(f"the standings proofs need the source of {name} (found none)")
        for path in files:
            sha.update(str(path.relative_to(root)).encode())
            sha.update(path.read_bytes())
    return sha.hexdigest()[:40]


def _table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _rows(sql: str, params: Iterable) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, list(params))
        return cursor.fetchall()


def ledger_seasons(federation: Federation) -> dict[int, str]:
    """Season → fingerprint of the federation's ledger rows of that season: one pass grouped by date (a few
    thousand groups), the dates folded into seasons here (the scheme's ``season_of``, § 451C / the calendar
    year). It covers every column a derived row depends on: player, kind, units, date, registration time
    (titles' days, the ranking list), source, tournament (robots) and the reversed award. The date enters
    through each date's weighted units and weights times its day number, folded here."""
    rows = _rows(
        f"SELECT awarded_on, source = 'opening', SUM({_weight()}), SUM(units::bigint * {_weight()} * ascii(kind)), "  # noqa: S608
        "COUNT(*), "
        f"SUM(id), SUM(date_part('epoch', created_at)::bigint * {_weight()}), "
        f"SUM((ascii(source) + 128 * length(source)) * {_weight()}), "
        "SUM(COALESCE(tournament_id, 0) + 3 * COALESCE(reverses_id, 0)) "
        f"FROM {_table(Award)} WHERE federation_id = %s GROUP BY awarded_on, source = 'opening'",
        [federation.pk],
    )
    info = scheme_of(federation)
    sums: dict[int, list[int]] = {}
    for day, opening, weights, units, *values in rows:
        # The history brought in is season 0 whatever its date (``standings.sums.OPENING_SEASON``).
        total = sums.setdefault(0 if opening else info.season_of(day), [0] * (len(values) + 3))
        number = (day - _EPOCH).days
        total[0] += number * int(weights)
        total[1] += number * int(units)
        total[2] += int(units)
        for index, value in enumerate(values, start=3):
            total[index] += int(value)
    return {season: digest(code_digest(), *values) for season, values in sums.items()}


def _sums_of(model, columns: Iterable[str]) -> str:
    """SQL of one weighted sum per column of ``model`` (a date as days since 2000, text by its hash, a big
    number modulo a prime), after ``COUNT(*)``: the fingerprint's numbers."""
    sums = ["COUNT(*)"]
    for name in columns:
        field = model._meta.get_field(name)
        value = field.column
        if isinstance(field, models.DateField):
            value = f"COALESCE({value} - DATE '2000-01-01', -1)"
        elif isinstance(field, models.CharField):
            value = f"hashtext({value})"
        elif isinstance(field, models.BigIntegerField):
            value = f"mod({value}, 1000003)"
        sums.append(f"SUM({value}::bigint * {_weight()})")
    return ", ".join(sums)


def _federation_rows(model, columns: Iterable[str], federation: Federation) -> tuple:
    (row,) = _rows(
        f"SELECT {_sums_of(model, columns)} FROM {_table(model)} WHERE federation_id = %s",  # noqa: S608
        [federation.pk],
    )
    return tuple(int(value or 0) for value in row)


def season_rows(federation: Federation, seasons: Iterable[int] | None = None) -> dict[int, str]:
    """Season → fingerprint of the stored season rows (every column), for ``seasons`` (``None``: all)."""
    columns = [column for column in _SEASON_COLUMNS if column not in ("federation_id", "season")]
    sql = f"SELECT season, {_sums_of(SeasonStanding, columns)} FROM {_table(SeasonStanding)} WHERE federation_id = %s"  # noqa: S608
    params: list = [federation.pk]
    if seasons is not None:
        chosen = sorted(seasons)
        if not chosen:
            return {}
        sql += f" AND season IN ({', '.join(['%s'] * len(chosen))})"
        params += chosen
    rows = _rows(sql + " GROUP BY season", params)
    return {season: digest(*(int(value or 0) for value in values)) for season, *values in rows}


def standings_rows(federation: Federation) -> str:
    """A fingerprint of the federation's stored standings (every column)."""
    return digest(*_federation_rows(Standing, [c for c in _STANDING_COLUMNS if c != "federation_id"], federation))


def standings_sources(federation: Federation, ledger: dict[int, str]) -> str:
    """A fingerprint of what the standings are derived from besides the seasons' ledger (``ledger``): the
    title register (a title once registered is never lost, § 404, H-2) and the federation's rule sets."""
    register = _federation_rows(TitleAchievement, ("id", "player", "rung", "title", "stars", "reached_on"), federation)
    rules = RuleSet.objects.filter(federation=federation).order_by("pk")
    return digest(sorted(ledger.items()), register, repr(list(rules.values_list("pk", "valid_from", "payload"))))


def ranking_entries(federation: Federation) -> str:
    """A fingerprint of the federation's stored ranking list (every column)."""
    return digest(*_federation_rows(RankingListEntry, ("player", "score", "changes_on"), federation))


def ranking_sources(federation: Federation, ledger: dict[int, str]) -> str:
    """A fingerprint of what the ranking list is derived from: the whole ledger (an award counts by its
    registration day, whatever its date, D-Q57) and which tournaments were played against robots (D-Q58)."""
    robots = Tournament.objects.filter(federation=federation, robots=True).order_by("pk")
    return digest(sorted(ledger.items()), list(robots.values_list("pk", flat=True)))


def unchanged(proven: dict, scope: str, sources: str | None, stored: str | None) -> bool:
    """Whether ``scope``'s sources and rows have the fingerprints :func:`recorded` holds for it."""
    return proven.get(scope, ())[:2] == (sources, stored)


def recorded(federation: Federation) -> dict[str, tuple[str, str, datetime.date, datetime.date | None]]:
    """Scope → (sources' fingerprint, rows' fingerprint, the day proven, the day due) as the last rebuild
    recorded them."""
    rows = StandingsProof.objects.filter(federation=federation)
    return {scope: tuple(rest) for scope, *rest in rows.values_list("scope", "sources", "rows", "proven_on", "due_on")}


def record(federation: Federation, proofs: dict[str, tuple[str, str, datetime.date | None]], today: datetime.date):
    """Record ``proofs`` (scope → (sources, rows, the day due)) as proven on ``today``; every other recorded
    scope is dropped (a season with no rows left)."""
    StandingsProof.objects.filter(federation=federation).exclude(scope__in=list(proofs)).delete()
    for scope, (sources, stored, due) in proofs.items():
        StandingsProof.objects.update_or_create(
            federation=federation,
            scope=scope,
            defaults={"sources": sources, "rows": stored, "proven_on": today, "due_on": due},
        )
