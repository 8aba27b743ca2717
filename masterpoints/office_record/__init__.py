"""A player's record for the office: balances, title or category and what the next needs, the
ledger by season and kind, held provisional points, corrections and a correction started for the player; and the
withdrawal of a confirmed tournament (its awards reversed in the ledger, append-only, audited).

- :mod:`.selectors`: what the record page reads.
- :mod:`.services`: ``tournament_withdraw`` (the one write).
- :mod:`.admin`: the pages, under the standings' admin (``admin/masterpoints/standing/player/<id>/``), linked
  from the player's admin page and list.
"""
