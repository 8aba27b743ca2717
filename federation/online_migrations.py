"""Index operations for migrations that run while the site serves (README § "Migrations on a large ledger").

On PostgreSQL an index is built and dropped ``CONCURRENTLY`` (writes go on meanwhile; the migration needs
``atomic = False``); on SQLite, the embedded default with a single writer, there is nothing to let through and
the plain statement runs.
"""

from __future__ import annotations

from django.contrib.postgres.operations import AddIndexConcurrently, RemoveIndexConcurrently
from django.db import migrations


class _ConcurrentlyOnPostgreSQL:
    """The concurrent operation (the next class in the order) on PostgreSQL, :attr:`plain` elsewhere."""

    plain: type

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            return super().database_forwards(app_label, schema_editor, from_state, to_state)
        return self.plain.database_forwards(self, app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            return super().database_backwards(app_label, schema_editor, from_state, to_state)
        return self.plain.database_backwards(self, app_label, schema_editor, from_state, to_state)


class AddIndexOnline(_ConcurrentlyOnPostgreSQL, AddIndexConcurrently):
    """``AddIndexConcurrently`` on PostgreSQL, ``AddIndex`` elsewhere."""

    plain = migrations.AddIndex


class RemoveIndexOnline(_ConcurrentlyOnPostgreSQL, RemoveIndexConcurrently):
    """``RemoveIndexConcurrently`` on PostgreSQL, ``RemoveIndex`` elsewhere."""

    plain = migrations.RemoveIndex
