"""The HBS transition from the old lists (transition rules 1–8)."""
