"""The monthly title e-mail to the clubs (DBf § 451B; HBS categories)."""
