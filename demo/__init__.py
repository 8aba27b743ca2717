"""The demo: two federations with clubs, players, officers and seasons of tournaments (top of the stack)."""
