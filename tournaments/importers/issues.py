"""Issues the results importers report, with stable codes.

Every problem an importer finds becomes an :class:`Issue`: a stable ``code`` (what the upload service,
the API and the tests key on), a ``severity``, a :class:`Location` in the file, ``params`` (plain values
for the API and tests; a few are lazy labels) and a translatable ``message`` rendered lazily in the
user's language. Importers collect every issue they can find instead of stopping at the first one.

The codes, their severities and messages are listed in :mod:`.catalogue`; :data:`CATALOGUE`,
:class:`Severity` and :data:`SUPPORTED_FORMATS` are importable from here too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise, lazy
from django.utils.translation import gettext_lazy as _

from .catalogue import CATALOGUE, SUPPORTED_FORMATS, Severity

__all__ = [
    "CATALOGUE",
    "MAX_ISSUES_PER_CODE",
    "SUPPORTED_FORMATS",
    "Issue",
    "IssueList",
    "Location",
    "Severity",
    "make_issue",
]


@dataclass(frozen=True)
class Location:
    """Where in the uploaded file an issue is: a line (CSV: the row's line), an XML element path, a column."""

    line: int | None = None
    path: str | None = None
    column: str | None = None

    @property
    def label(self) -> Promise:
        """A lazy, translated description such as "line 31, EVENT/PARTICIPANTS/PAIR[3]"."""
        return _location_label(self.line, self.path, self.column)

    def as_dict(self) -> dict[str, Any]:
        return {"line": self.line, "path": self.path, "column": self.column}


def _location_text(line: int | None, path: str | None, column: str | None) -> str:
    parts = []
    if line is not None:
        parts.append(str(_("line %(line)s") % {"line": line}))
    if path:
        parts.append(path)
    if column:
        parts.append(str(_("column %(column)s") % {"column": column}))
    return ", ".join(parts) if parts else str(_("whole file"))


_location_label = lazy(_location_text, str)


def _render(template: Promise, params: Mapping[str, Any]) -> str:
    values = {key: (str(value) if isinstance(value, Promise) else value) for key, value in params.items()}
    return str(template) % values


_render_lazy = lazy(_render, str)


@dataclass(frozen=True)
class Issue:
    """One finding. ``message`` is lazy: it is translated when rendered, in the language active then."""

    code: str
    severity: Severity
    where: Location = field(default_factory=Location)
    params: Mapping[str, Any] = field(default_factory=dict)
    variant: str = ""

    @property
    def template(self) -> Promise:
        return CATALOGUE[self.code][self.variant][1]

    @property
    def message(self) -> Promise:
        return _render_lazy(self.template, dict(self.params))

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready form (renders the message and lazy params in the active language)."""
        return {
            "code": self.code,
            "severity": str(self.severity),
            "where": self.where.as_dict(),
            "message": str(self.message),
            "params": {k: (str(v) if isinstance(v, Promise) else v) for k, v in self.params.items()},
        }


def make_issue(code: str, where: Location | None = None, *, variant: str = "", **params: Any) -> Issue:
    """Build an issue from the catalogue; unknown codes or variants raise ``KeyError`` (a programming error)."""
    severity = CATALOGUE[code][variant][0]
    return Issue(code=code, severity=severity, where=where or Location(), params=params, variant=variant)


#: More issues of one code than this are counted, not listed (a hostile file could otherwise produce
#: a hundred thousand identical lines); ``ISSUES_CAPPED`` then says how many were left out.
MAX_ISSUES_PER_CODE = 200


class IssueList(list):
    """A list of :class:`Issue` with a shorthand to add one from the catalogue."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.suppressed: dict[str, int] = {}
        self._counts: dict[str, int] = {}

    def add(self, code: str, where: Location | None = None, *, variant: str = "", **params: Any) -> Issue | None:
        """Add the issue and return it; past :data:`MAX_ISSUES_PER_CODE` of its code it is only counted
        (``None``), and :meth:`close` reports the count."""
        issue = make_issue(code, where, variant=variant, **params)
        count = self._counts.get(code, 0) + 1
        self._counts[code] = count
        if count > MAX_ISSUES_PER_CODE:
            self.suppressed[code] = self.suppressed.get(code, 0) + 1
            return None
        self.append(issue)
        return issue

    def close(self) -> list[Issue]:
        """The issues, with one ``ISSUES_CAPPED`` note per code whose issues were not all listed."""
        for code, count in self.suppressed.items():
            self.append(make_issue("ISSUES_CAPPED", kind=code, count=count, shown=MAX_ISSUES_PER_CODE))
        self.suppressed = {}
        return list(self)
