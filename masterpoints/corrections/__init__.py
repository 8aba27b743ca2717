"""Correction requests decided by the commission (HBS transition rule 6; DBf by the office)."""
