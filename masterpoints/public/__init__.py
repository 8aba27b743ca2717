"""The public site: rankings, player and tournament pages, the JSON API, the calculator."""
