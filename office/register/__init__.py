"""The member register: the secretariat's import and sync of players, clubs, memberships and officers from
the federation's member system (CSV or XLSX, one layout: ``static/register-templates/README.md``).

- :mod:`office.register.reader`: the file's bytes → rows of text with their line (pure; bounded).
- :mod:`office.register.records`: rows → typed records, every bad value named by line and column (pure).
- :mod:`office.register.plan`: records against the database → what would be added, changed and ended.
- :mod:`office.register.services`: the import (dry run or one transaction, one audit row per change).
- :mod:`office.register.admin`: the admin page; ``manage.py import_register`` is the same service.

A player is identified by the federation's number and never deleted: a member missing from the register is
marked lapsed (HBS rule 3 and H-20; DBf § 451B and D-Q37).
"""
