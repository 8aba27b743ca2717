"""History brought in from a federation's old system: opening balances and titles as of a
date, and historic awards (date, tournament, points, kind), into the ledger.

- :mod:`.files`: the three CSV files → typed rows, every bad value named by file and line (pure).
- :mod:`.services`: ``history_import``: a dry run, or one transaction, audited and idempotent.
- ``manage.py import_history`` (``masterpoints/management/commands/import_history.py``) runs it; the README's
  "History brought in" says how.
"""
