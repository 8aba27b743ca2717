"""How much an issue matters (the severities of :data:`tournaments.issues.CATALOGUE`), in a module of its
own so that every table of codes can use it."""

from __future__ import annotations

from enum import StrEnum


class Severity(StrEnum):
    """How much an issue matters: an error blocks the upload, a warning needs acknowledging, info is shown."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO  # noqa: E741 - short aliases for the catalogue tables
