"""Reads whose SQL is compiled once per connection and run again with other values (issue 16).

Django compiles a queryset to SQL each time it is evaluated. For the six reads of a player's page that was
about a third of the ORM's CPU: compiling the player with their standing and home club alone took 1 ms, as
long as PostgreSQL took to answer it. A :class:`CompiledRead` builds its queryset once, with a marker in
place of each value that varies (a player's id, a federation's id, a number), keeps the SQL, and then runs
that text with the values of each call through the connection's cursor. Rows come back as tuples with the
fields' converters applied (dates on SQLite, JSON), exactly as ``values_list`` gives them.

What varies must be a marker: a value the queryset's lookups pass on unchanged (``exact`` on an integer or
text column). A build whose markers do not each reach the SQL once is refused when it is first compiled, so
a lookup that rewrites its value (``icontains``, a date's cast) cannot be run with a stale one.
Slices and other values written into the SQL text (``LIMIT``) are the read's ``key``: one compiled text per
key, at most :data:`KEYS` of them; further keys are compiled for each call.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from django.core.exceptions import EmptyResultSet
from django.db import connections, models, router
from django.db.models import QuerySet

#: Compiled texts kept per read and connection, one per key (a ledger's pages): further keys compile anew.
KEYS = 16

_serial = itertools.count(1)


def _marker(kind: type) -> int | str:
    """A value no caller passes, of the type its column takes: found again among the compiled parameters."""
    number = next(_serial)
    if kind is int:
        return -(2**62) - number
    if kind is str:
        return f"\x1fcompiled read {number}\x1f"
    raise TypeError(f"a compiled read's value must be an int or a str, not {kind.__name__}")


@dataclass(frozen=True)
class _Plan:
    sql: str | None  # None: the queryset is empty by its own terms (an empty slice), nothing to run
    params: tuple
    slots: tuple[int, ...]  # where each value goes among params
    compiler: object  # converts the rows as the queryset would


class CompiledRead:
    """A read of ``model``: ``build(*values)`` (``build(*values, key)`` when ``keyed``) returns the queryset of
    one call, a ``values_list``; ``types`` are the values' types (``int`` or ``str``). :meth:`rows` runs it for
    ``values`` and returns its rows as tuples.

    The compiled texts live on the connection they were compiled for (a thread's own, as Django's
    connections are), so they go with it and never serve another database's connection."""

    def __init__(self, model: type[models.Model], build: Callable[..., QuerySet], *types: type, keyed: bool = False):
        self.model = model
        self.build = build
        self.types = types
        self.keyed = keyed

    def rows(self, *values, key: Hashable = None) -> list[tuple]:
        if len(values) != len(self.types):
            raise TypeError(f"this read takes {len(self.types)} values, not {len(values)}")
        using = router.db_for_read(self.model)
        connection = connections[using]
        plans = connection.__dict__.setdefault("compiled_reads", {})
        plan = plans.get((self, key))
        if plan is None:
            plan = self._compile(using, key)
            if sum(1 for read, _key in plans if read is self) < KEYS:
                plans[(self, key)] = plan
        if plan.sql is None:
            return []
        params = list(plan.params)
        for slot, value in zip(plan.slots, values, strict=True):
            params[slot] = value
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, params)
            fetched = cursor.fetchall()
        return list(plan.compiler.results_iter(results=[fetched], tuple_expected=True))

    def _compile(self, using: str, key: Hashable) -> _Plan:
        markers = [_marker(kind) for kind in self.types]
        queryset = self.build(*markers, key) if self.keyed else self.build(*markers)
        compiler = queryset.query.get_compiler(using=using)
        try:
            sql, params = compiler.as_sql()
        except EmptyResultSet:  # as Django reads it: no rows, and no query
            return _Plan(None, (), (), compiler)
        params = tuple(params)
        slots = []
        for marker in markers:
            found = [i for i, param in enumerate(params) if type(param) is type(marker) and param == marker]
            if len(found) != 1:
                raise ValueError(
                    f"a compiled read's value reached its SQL {len(found)} times, not once: "
                    "its lookup must pass the value on unchanged"
                )
            slots.append(found[0])
        return _Plan(sql, params, tuple(slots), compiler)
