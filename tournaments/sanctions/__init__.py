"""Sanction applications (DBf § 403): filed by a club, recommended by the district, decided by the secretariat."""
