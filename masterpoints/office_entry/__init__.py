"""Awards entered by the office: the tournament forms no results upload reaches (DBf § 451A, D-Q33)."""
