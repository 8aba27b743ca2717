"""Inserting many new rows at once (a register import writes tens of thousands of players, memberships and
audit rows in one transaction): PostgreSQL's ``COPY``, several times faster than ``INSERT`` for that many
rows (``bench/register.py``), and ``bulk_create`` on every other database.

Rows are given as dictionaries of field attribute names (``federation_id``, not ``federation``) and values,
so that no model instance is made per row on PostgreSQL; a field left out takes its default, an
``auto_now_add`` field the time of the insert. Primary keys are not returned: a caller that needs them reads
them back.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from django.db import connection, models
from django.utils import timezone

BATCH = 2000


def insert_many(model: type[models.Model], rows: Iterable[Mapping[str, Any]]) -> int:
    """Insert ``rows`` into ``model``'s table (call it inside the caller's transaction); returns how many."""
    rows = list(rows)
    fields = [field for field in model._meta.concrete_fields if not isinstance(field, models.AutoField)]
    known = {field.attname for field in fields}
    for row in rows:
        unknown = set(row) - known
        if unknown:
            raise TypeError(f"{model.__name__} has no fields {sorted(unknown)}")
    if not rows:
        return 0
    if connection.vendor != "postgresql":
        model._default_manager.bulk_create([model(**row) for row in rows], batch_size=BATCH)
        return len(rows)
    now = timezone.now()
    table = connection.ops.quote_name(model._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(field.column) for field in fields)
    defaults = {field.attname: _default(field, now) for field in fields}
    json_fields = [field for field in fields if isinstance(field, models.JSONField)]
    with connection.cursor() as cursor, cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
        for row in rows:
            values = {**defaults, **row}
            for field in json_fields:  # as text: the column reads it as JSON (Django's adapter is slower)
                values[field.attname] = json.dumps(values[field.attname], cls=field.encoder)
            copy.write_row([values[field.attname] for field in fields])
    return len(rows)


def _default(field: models.Field, now):
    if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
        return now if isinstance(field, models.DateTimeField) else timezone.localdate(now)
    return field.get_default()
