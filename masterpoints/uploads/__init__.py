"""The way from a stored results file to ledger rows: preview, scoring, resolve, discard, confirm."""
