"""The annual cups (DBf § 451C–E) and the clubs' top-16 lists (§ 452)."""
