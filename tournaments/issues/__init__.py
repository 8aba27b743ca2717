"""The one vocabulary of what an upload's preview reports: every finding is an :class:`Issue`.

An issue has a stable ``code`` (what the upload service, the API and the tests key on), a ``severity``, a
:class:`Location` in the file, ``params`` (plain values for the API and tests; a few are lazy labels or
dates) and a translatable ``message`` rendered lazily in the reader's language. The results importers
report what they find in the file, the upload service what it finds beyond it (organiser, members, rules);
both are issues of the one :data:`CATALOGUE`, so the preview, the stored summary and the API list them
alike.

The codes, their severities and messages: :mod:`.file_codes` with :mod:`.entry_codes` (the file), and
:mod:`.upload_codes` with :mod:`.dbf_codes` (the upload service); each module's docstring is its table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise, lazy
from django.utils.translation import gettext_lazy as _

from federation.refusals import plain_value, shown_value

from .file_codes import FILE_CODES, SUPPORTED_FORMATS
from .severity import Severity
from .upload_codes import UPLOAD_CODES

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

#: code -> variant -> (severity, message template with named placeholders): the file's codes, then the upload
#: service's (which have only the default variant ``""``).
CATALOGUE: dict[str, dict[str, tuple[Severity, Promise]]] = {
    **FILE_CODES,
    **{code: {"": entry} for code, entry in UPLOAD_CODES.items()},
}


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
    values = {key: str(shown_value(value)) for key, value in params.items()}
    return str(template) % values


_render_lazy = lazy(_render, str)


def _plain(value: Any) -> Any:
    """A parameter for JSON: a number as it is, a date in ISO 8601, anything else as its text."""
    if value is None or isinstance(value, bool | int | float):
        return value
    return plain_value(value)


@dataclass(frozen=True)
class Issue:
    """One finding. Its severity and message come from the :data:`CATALOGUE` entry of its code and variant;
    ``message`` is lazy: it is translated when rendered, in the language active then, a date parameter
    shown in that language's format (and kept in ISO 8601 by :meth:`as_dict`)."""

    code: str
    where: Location = field(default_factory=Location)
    params: Mapping[str, Any] = field(default_factory=dict)
    variant: str = ""

    @property
    def severity(self) -> Severity:
        return CATALOGUE[self.code][self.variant][0]

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
            "params": {key: _plain(value) for key, value in self.params.items()},
        }


def make_issue(code: str, where: Location | None = None, *, variant: str = "", **params: Any) -> Issue:
    """Build an issue from the catalogue; unknown codes or variants raise ``KeyError`` (a programming error)."""
    if variant not in CATALOGUE[code]:
        raise KeyError(f"{code} has no variant {variant!r}")
    return Issue(code=code, where=where or Location(), params=params, variant=variant)


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
