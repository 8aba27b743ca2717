"""Standings derived from the ledger: balances, seasons, titles and categories; incremental and full recomputation."""
