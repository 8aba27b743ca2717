"""The points calculator as a command: one JSON request in, one JSON answer out (``engine-cli.md``).

    python -m masterpoints.engine REQUEST.json      # or the request on standard input

Exit 0 with the answer on standard output; exit 2 with ``{"error": {"field", "message"}}`` for a
request the engine cannot answer. The web calculator and ``POST /api/calculator`` call :func:`calculate`.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Any

from masterpoints.engine.common import RequestError

USAGE = """usage: python -m masterpoints.engine [REQUEST.json]

Reads one JSON request (from the file, or standard input when no file is given) and prints one JSON
answer. Schemes: "dbf" (kinds scale, team_match, team_bonus, title) and "hbs" (kinds scale, category).
See shared/spec/engine-cli.md for every field. Exit status 0 on success, 2 for a bad request.
"""


def calculate(request: Any) -> dict[str, Any]:
    """Answer one calculator request; raises :class:`RequestError` naming the field at fault."""
    if not isinstance(request, Mapping):
        raise RequestError("request", "the request must be a JSON object")
    scheme = request.get("scheme")
    if scheme == "dbf":
        from masterpoints.engine.dbf.calculator import handle
    elif scheme == "hbs":
        from masterpoints.engine.hbs.calculator import handle
    elif scheme is None:
        raise RequestError("scheme", '\'scheme\' is required: "dbf" or "hbs"')
    else:
        raise RequestError("scheme", f'unknown scheme {json.dumps(scheme)}: use "dbf" or "hbs"')
    return handle(request)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ("-h", "--help"):
        sys.stdout.write(USAGE)
        return 0
    if len(argv) > 1:
        sys.stderr.write(USAGE)
        return 2
    try:
        if argv:
            with open(argv[0], encoding="utf-8") as handle:
                text = handle.read()
        else:
            text = sys.stdin.read()
    except OSError as exc:
        return _fail(RequestError("request", f"cannot read {argv[0]}: {exc.strerror}"))
    try:
        request = json.loads(text)
    except json.JSONDecodeError as exc:
        return _fail(RequestError("request", f"not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}"))
    try:
        answer = calculate(request)
    except RequestError as exc:
        return _fail(exc)
    json.dump(answer, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def _fail(error: RequestError) -> int:
    json.dump(error.as_json(), sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 2
