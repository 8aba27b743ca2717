"""Append-only tables (the audit log, the award ledger): rows are added, never changed or deleted.

The guards make a mistaken ``save()`` of an existing row, ``delete()``, or a bulk ``update()``/``delete()``
fail loudly; corrections are new rows that reverse or adjust (design.md § Invariants).
"""

from __future__ import annotations

from django.db import models


class AppendOnlyQuerySet(models.QuerySet):
    refusal = "This table is append-only."

    def update(self, **kwargs):
        raise TypeError(self.refusal)

    def delete(self):
        raise TypeError(self.refusal)


class AppendOnlyModel(models.Model):
    """Refuses to save an existing row again or to delete one; ``refusal`` says what to do instead."""

    refusal = "This table is append-only."

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise TypeError(self.refusal)
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError(self.refusal)
