"""The layout's rules, checked from the source (design.md § Layout).

The stack, from the top: ``config``/``demo``/``api``/``rulebooks`` → ``masterpoints`` → ``tournaments`` →
``office`` → ``clubs`` → ``federation``. A package imports only from packages below it; everyone may use the pure
``masterpoints.engine``, which imports none of them. No two modules import each other, directly or round a
longer circle. Imports inside functions and under ``TYPE_CHECKING`` count like any other: a type import
that closes a circle says the two modules belong together or the type belongs lower. A module named in a
string (``"masterpoints.uploads.scoring.score_dbf"`` for ``import_string``) is an import too: a lower
package names nothing above it that way either; a rule book registers with the registry instead.

Also: no production module over 500 lines, no function over 80, no comparison with a scheme code
outside the engine, the scheme registry (``federation/schemes.py``) and the rule books' plugins
(``rulebooks/``), and no comment or docstring citing
the tracker by number (it cites the rule or says the reason).
"""

from __future__ import annotations

import ast
import dataclasses
import io
import re
import tokenize
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
#: Top first; ``config``, ``demo``, ``api`` and the rule books' plugins share the top.
STACK = (
    ("config", "demo", "api", "rulebooks"),
    ("masterpoints",),
    ("tournaments",),
    ("office",),
    ("clubs",),
    ("federation",),
)
ENGINE = "masterpoints.engine"
PACKAGES = tuple(package for level in STACK for package in level)
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80


def production_modules(root: Path = REPO) -> dict[str, Path]:
    """Every module of the production packages (migrations excluded), by dotted name."""
    modules = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" in path.relative_to(root).parts:
                continue
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _resolve(name: str, modules: Mapping[str, Path]) -> str | None:
    """The production module ``name`` refers to: itself, or the nearest enclosing module (``pkg.mod.func``)."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def imports_of(module: str, source: str, modules: Mapping[str, Path], *, is_package: bool) -> set[str]:
    """The production modules ``module`` imports anywhere in ``source`` (top level, functions, TYPE_CHECKING)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                origin = ".".join([*base, *([node.module] if node.module else [])])
            else:
                origin = node.module or ""
            # ``from pkg import mod`` imports the module ``pkg.mod``; ``from mod import name`` the module ``mod``.
            names = [
                f"{origin}.{alias.name}" if f"{origin}.{alias.name}" in modules else origin for alias in node.names
            ]
        else:
            continue
        for name in names:
            target = _resolve(name, modules)
            if target is not None and target != module:
                found.add(target)
    return found


def import_graph(root: Path = REPO) -> dict[str, set[str]]:
    modules = production_modules(root)
    return {
        name: imports_of(name, path.read_text(encoding="utf-8"), modules, is_package=path.name == "__init__.py")
        for name, path in modules.items()
    }


def _level(module: str) -> int:
    top = module.split(".")[0]
    return next(index for index, level in enumerate(STACK) if top in level)


def upward_imports(graph: Mapping[str, Iterable[str]]) -> list[str]:
    """Each import that runs up the stack, or out of the engine into the site."""
    wrong = []
    for module, targets in graph.items():
        for target in targets:
            in_engine = module == ENGINE or module.startswith(ENGINE + ".")
            to_engine = target == ENGINE or target.startswith(ENGINE + ".")
            if in_engine and not to_engine:
                wrong.append(f"{module} -> {target} (the engine imports nothing of the site)")
            elif not to_engine and _level(target) < _level(module):
                wrong.append(f"{module} -> {target} (up the stack)")
    return sorted(wrong)


def circles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The import circles: strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_no_import_runs_up_the_stack_and_the_engine_imports_nothing_of_the_site():
    assert upward_imports(import_graph()) == []


def test_no_two_modules_import_each_other_round_any_circle():
    assert circles(import_graph()) == []


def dotted_names(module: str, source: str, modules: Mapping[str, Path]) -> set[str]:
    """The production modules ``source`` names in a string as a dotted path (``"pkg.mod.func"``), as
    ``import_string``, a setting or a registry would import them. A model reference (``"app.Model"``) names
    the package only and is not counted."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and DOTTED.fullmatch(node.value):
            target = _resolve(node.value, modules)
            if target and "." in target and target != module:
                found.add(target)
    return found


#: A dotted path as a string: ``masterpoints.uploads.scoring.score_dbf``.
DOTTED = re.compile(r"[a-z_][a-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+")


def test_no_string_names_a_module_up_the_stack():
    """A lower package that names a higher module in a string imports it all the same, unseen by the import
    graph (``federation.schemes`` once named the uploads' scoring adapters so): it registers instead."""
    modules = production_modules()
    graph = {name: dotted_names(name, path.read_text(encoding="utf-8"), modules) for name, path in modules.items()}
    assert upward_imports(graph) == []


def test_the_dotted_string_check_sees_a_named_module(tmp_path):
    modules = {"federation.schemes": tmp_path / "a.py", "masterpoints.uploads.scoring": tmp_path / "b.py"}
    source = 'ADAPTER = "masterpoints.uploads.scoring.score_dbf"\nMODEL = "masterpoints.Award"\n'
    graph = {"federation.schemes": dotted_names("federation.schemes", source, modules)}
    assert graph == {"federation.schemes": {"masterpoints.uploads.scoring"}}
    assert upward_imports(graph) == ["federation.schemes -> masterpoints.uploads.scoring (up the stack)"]


def test_the_checks_catch_a_wrong_graph():
    """A deliberately wrong graph: an upward import, the engine reaching into the site, and a circle."""
    graph = {
        "clubs.models": {"tournaments.models"},
        "masterpoints.engine.dbf.scale": {"masterpoints.models"},
        "masterpoints.uploads.preview": {"masterpoints.uploads.scoring"},
        "masterpoints.uploads.scoring": {"masterpoints.uploads.preview"},
        "tournaments.models": {"clubs.models", "masterpoints.engine.common"},
    }
    assert upward_imports(graph) == [
        "clubs.models -> tournaments.models (up the stack)",
        "masterpoints.engine.dbf.scale -> masterpoints.models (the engine imports nothing of the site)",
    ]
    assert circles(graph) == [
        ["clubs.models", "tournaments.models"],
        ["masterpoints.uploads.preview", "masterpoints.uploads.scoring"],
    ]


def test_imports_inside_functions_and_under_type_checking_count(tmp_path):
    (tmp_path / "clubs").mkdir()
    (tmp_path / "tournaments").mkdir()
    (tmp_path / "clubs" / "__init__.py").write_text("")
    (tmp_path / "tournaments" / "__init__.py").write_text("")
    (tmp_path / "tournaments" / "models.py").write_text("")
    (tmp_path / "clubs" / "models.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from tournaments.models import Tournament\n"
        "def later():\n    from tournaments import models\n"
    )
    graph = import_graph(tmp_path)
    assert graph["clubs.models"] == {"tournaments.models"}
    assert upward_imports(graph) == ["clubs.models -> tournaments.models (up the stack)"]


def _too_long() -> list[str]:
    found = []
    for name, path in production_modules().items():
        source = path.read_text(encoding="utf-8")
        lines = source.count("\n")
        if lines > MAX_MODULE_LINES:
            found.append(f"{name}: {lines} lines")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    found.append(f"{name}.{node.name}: {length} lines")
    return found


def test_no_module_over_500_lines_and_no_function_over_80():
    assert _too_long() == []


#: A comparison with a scheme code, in Python or in a template.
SCHEME_COMPARISON = re.compile(
    r"""(scheme\w*\s*(==|!=|\bin\b|\bnot\s+in\b))|((==|!=)\s*["'](dbf|hbs)["'])|(["'](dbf|hbs)["']\s*(==|!=|\bin\b))"""
)


def _scheme_comparisons() -> list[str]:
    allowed = {REPO / "federation" / "schemes.py"}
    files = [
        path
        for path in production_modules().values()
        if ENGINE.replace(".", "/") not in path.as_posix() and not path.is_relative_to(REPO / "rulebooks")
    ]
    files += sorted((REPO / "templates").rglob("*.html")) + sorted((REPO / "templates").rglob("*.txt"))
    found = []
    for path in files:
        if path in allowed:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if SCHEME_COMPARISON.search(line):
                found.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    return found


def test_no_comparison_with_a_scheme_code_outside_the_engine_the_registry_and_the_plugins():
    assert _scheme_comparisons() == []


@pytest.mark.parametrize(
    "line",
    [
        'if federation.scheme == "dbf":',
        "{% if scheme == 'hbs' %}",
        'x = "hbs" if code != "dbf" else 1',
        "if scheme in KINDS:",
    ],
)
def test_the_scheme_check_recognises_a_comparison(line):
    assert SCHEME_COMPARISON.search(line)


def scheme_flags() -> set[str]:
    """The yes/no fields of a rule book's :class:`~federation.schemes.SchemeInfo` (its workflows, its list)."""
    from federation.schemes import SchemeInfo

    return {field.name for field in dataclasses.fields(SchemeInfo) if field.type == "bool"}


def flag_branches(source: str, flags: set[str]) -> list[int]:
    """The lines where ``source`` chooses between two ways by a rule book's flag: an ``if`` with an ``else``
    or ``elif``, or a conditional expression, whose test reads one. A gate (``if not info.cups: raise …``,
    no other way) is a workflow's existence and is allowed; two ways are one rule book's and the other's,
    which the plugins declare instead."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.IfExp) or (isinstance(node, ast.If) and node.orelse):
            read = {n.attr for n in ast.walk(node.test) if isinstance(n, ast.Attribute)}
            read |= {n.value for n in ast.walk(node.test) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
            if read & flags:
                found.append(node.lineno)
    return sorted(found)


def test_no_code_outside_the_plugins_and_the_registry_branches_two_ways_on_a_scheme_flag():
    flags = scheme_flags()
    found = [
        f"{path.relative_to(REPO)}:{line}"
        for name, path in production_modules().items()
        if not name.startswith("rulebooks") and name != "federation.schemes"
        for line in flag_branches(path.read_text(encoding="utf-8"), flags)
    ]
    assert found == []


def test_the_flag_check_tells_a_branch_from_a_gate():
    source = (
        "def f(info):\n"
        "    if not info.sanctions:\n        raise ValueError\n"
        "    x = 1 if info.recognised_list else 2\n"
        "    if info.cups:\n        pass\n    else:\n        pass\n"
        "    if getattr(info, 'transition'):\n        pass\n    elif x:\n        pass\n"
    )
    assert flag_branches(source, {"sanctions", "recognised_list", "cups", "transition"}) == [4, 5, 9]


def test_the_public_pages_read_the_standings_and_notices_never_the_other_way():
    """Issue 37: ``masterpoints.public`` imports the standings (balances, titles) and the notices (the player's
    preferences); neither imports the public pages back, so each direction is one way."""
    below = ("masterpoints.standings", "masterpoints.notices")
    wrong = [
        f"{module} -> {target}"
        for module, targets in import_graph().items()
        if module.startswith(below)
        for target in targets
        if target.startswith("masterpoints.public")
    ]
    assert wrong == []


#: A tracker number in prose: "issue 16", "(Issue 38, part 3)".
TRACKER_NUMBER = re.compile(r"\b[Ii]ssue \d+")


def prose(source: str) -> Iterator[tuple[int, str]]:
    """The comments and docstrings of ``source`` with the line each starts on. A docstring is a string that
    stands alone as a statement (a module's, class's or function's, or one after an attribute); any other
    string constant, such as a gettext msgid or a message, is not prose here."""
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            yield node.lineno, node.value.value


def tracker_numbers(source: str) -> list[int]:
    """The lines of ``source`` where a comment or docstring cites the tracker by number."""
    return sorted({line for line, text in prose(source) if TRACKER_NUMBER.search(text)})


def test_no_comment_or_docstring_of_production_code_cites_a_tracker_number():
    """Issue 37: docstrings cite rules, not tracker numbers. A comment or docstring says the reason or names
    the rule (§ 404A, D-Q46, HBS rule 3); a number on the tracker tells a newcomer nothing. Migrations are
    history and keep theirs; gettext msgids are not looked at."""
    found = [
        f"{path.relative_to(REPO)}:{line}"
        for path in production_modules().values()
        for line in tracker_numbers(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_tracker_check_reads_comments_and_docstrings_only():
    source = (
        '"""Module (issue 16)."""\n'
        "from django.utils.translation import gettext as _\n"
        "def f():\n"
        '    """Function, Issue 19: why."""\n'
        '    return _("See issue 38") + "issue 36"  # issue 35\n'
        "X = 1\n"
        '"""Attribute (issue 34, item 7)."""\n'
        "# The issues of a preview, 12 of them: no tracker number.\n"
    )
    assert tracker_numbers(source) == [1, 4, 5, 7]
