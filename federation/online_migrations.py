"""Index operations for migrations that run while the site serves (README § "Migrations on a large ledger").

On PostgreSQL an index is built and dropped ``CONCURRENTLY`` (writes go on meanwhile; the migration needs
``atomic = False``); on SQLite, the embedded default with a single writer, there is nothing to let through and
the plain statement runs.
"""

from __future__ import annotations

from django.contrib.postgres.operations import AddIndexConcurrently, RemoveIndexConcurrently
from django.db import migrations


def _on_postgresql(schema_editor) -> bool:
    return schema_editor.connection.vendor == "postgresql"


class AddIndexOnline(AddIndexConcurrently):
    """``AddIndexConcurrently`` on PostgreSQL, ``AddIndex`` elsewhere."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if _on_postgresql(schema_editor):
            return super().database_forwards(app_label, schema_editor, from_state, to_state)
        return migrations.AddIndex.database_forwards(self, app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if _on_postgresql(schema_editor):
            return super().database_backwards(app_label, schema_editor, from_state, to_state)
        return migrations.AddIndex.database_backwards(self, app_label, schema_editor, from_state, to_state)


class RemoveIndexOnline(RemoveIndexConcurrently):
    """``RemoveIndexConcurrently`` on PostgreSQL, ``RemoveIndex`` elsewhere."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if _on_postgresql(schema_editor):
            return super().database_forwards(app_label, schema_editor, from_state, to_state)
        return migrations.RemoveIndex.database_forwards(self, app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if _on_postgresql(schema_editor):
            return super().database_backwards(app_label, schema_editor, from_state, to_state)
        return migrations.RemoveIndex.database_backwards(self, app_label, schema_editor, from_state, to_state)
