"""docs/SETTINGS.md names every environment variable the code reads, and only those.

The code is read, not run: every Python file of the repository (the site, scripts, bench and
tests) is parsed, and each read of the environment is collected: ``os.environ.get(NAME)``,
``os.environ[NAME]``, ``os.getenv(NAME)``, ``os.environ.setdefault(NAME, ...)``,
``NAME in os.environ``, and the settings' helpers (``env_bool(NAME, ...)``, ``env_list``, any
``env_*``). NAME may be a string, a module-level constant holding one, or an f-string (read as
a pattern: ``f"MAYI_RATE_{scope}"`` matches the table's ``MAYI_RATE_...`` rows). Shell scripts
(``scripts/``, ``.ci/``, ``deploy/Procfile``, the systemd units) read a variable where they give
it a default: ``${NAME:-...}``, ``${NAME-...}``, ``${NAME:=...}``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIP_DIRS = {".venv", "node_modules", "staticfiles", ".git", "__pycache__", ".mypy_cache"}
SHELL_FILES = ["scripts", ".ci", "deploy/Procfile", "deploy/systemd"]
ROW = re.compile(r"^\|\s*`([A-Z][A-Z0-9_]*(?:<[A-Z_]+>)?[A-Z0-9_]*)`\s*\|")
SHELL_READ = re.compile(r"\$\{([A-Z][A-Z0-9_]*):?[-=]")


def python_files() -> list[Path]:
    files = []
    for path in ROOT.rglob("*.py"):
        if SKIP_DIRS.isdisjoint(path.relative_to(ROOT).parts):
            files.append(path)
    return files


def _is_environ(node: ast.AST) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "environ") or (
        isinstance(node, ast.Name) and node.id == "environ"
    )


def _name_of(node: ast.AST, constants: dict[str, str]) -> str | None:
    """The variable a read names: a literal, a constant, or an f-string as a ``*`` pattern."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name) and node.id in constants:
        return constants[node.id]
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                parts.append(value.value)
            else:
                parts.append("*")
        return "".join(parts)
    return None


def reads_in_python(source: str) -> set[str]:
    tree = ast.parse(source)
    constants = {
        target.id: node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    found: set[str | None] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            if (
                isinstance(func, ast.Attribute)
                and (
                    (_is_environ(func.value) and func.attr in {"get", "setdefault", "pop"})
                    or (func.attr == "getenv")
                )
                or isinstance(func, ast.Name)
                and re.fullmatch(r"_?env(_[a-z]+)?|getenv", func.id)
            ):
                found.add(_name_of(node.args[0], constants))
        elif (
            isinstance(node, ast.Subscript)
            and isinstance(node.ctx, ast.Load)
            and _is_environ(node.value)
        ):
            found.add(_name_of(node.slice, constants))
        elif (
            isinstance(node, ast.Compare)
            and len(node.ops) == 1
            and isinstance(node.ops[0], ast.In | ast.NotIn)
            and _is_environ(node.comparators[0])
        ):
            found.add(_name_of(node.left, constants))
    return {name for name in found if name and re.fullmatch(r"[A-Z][A-Z0-9_*]*", name)}


def shell_files() -> list[Path]:
    files: list[Path] = []
    for entry in SHELL_FILES:
        path = ROOT / entry
        if path.is_dir():
            files.extend(p for p in sorted(path.rglob("*")) if p.is_file() and p.suffix != ".py")
        elif path.is_file():
            files.append(path)
    return files


def code_reads() -> dict[str, set[str]]:
    """Each variable (or pattern) read, with the files that read it."""
    where: dict[str, set[str]] = {}
    for path in python_files():
        for name in reads_in_python(path.read_text()):
            where.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    for path in shell_files():
        for name in SHELL_READ.findall(path.read_text(errors="replace")):
            where.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    return where


def documented() -> set[str]:
    names = set()
    for line in (ROOT / "docs" / "SETTINGS.md").read_text().splitlines():
        match = ROW.match(line)
        if match:
            names.add(match.group(1))
    return names


def _matches(pattern: str, name: str) -> bool:
    """``*`` in the code's pattern or ``<SCOPE>`` in a row stands for any run of characters."""
    regex = re.escape(pattern).replace(r"\*", ".+")
    regex = re.sub(r"<[A-Z_]+>", ".+", regex)
    return re.fullmatch(regex, name) is not None


def test_every_variable_the_code_reads_is_in_the_table():
    table = documented()
    missing = {
        name: sorted(files)
        for name, files in code_reads().items()
        if not any(_matches(name, row) or _matches(row, name) for row in table)
    }
    assert not missing, f"read by the code but not in docs/SETTINGS.md: {missing}"


def test_the_table_lists_nothing_the_code_does_not_read():
    reads = code_reads()
    unread = sorted(
        row
        for row in documented()
        if not any(_matches(name, row) or _matches(row, name) for name in reads)
    )
    assert not unread, f"in docs/SETTINGS.md but read by no code: {unread}"


def test_the_scanner_sees_each_kind_of_read():
    source = (
        "import os\nFLAG = 'A_CONST'\n"
        "os.environ.get('A_GET')\nos.environ['A_ITEM']\nos.getenv('A_GETENV')\n"
        "os.environ.setdefault('A_DEFAULT', '1')\nenv_bool('A_BOOL', True)\n"
        "os.environ.get(FLAG)\n'A_IN' in os.environ\nos.environ.get(f'A_RATE_{x.upper()}')\n"
        "os.environ['NOT_A_READ'] = '1'\n"
    )
    assert reads_in_python(source) == {
        "A_GET",
        "A_ITEM",
        "A_GETENV",
        "A_DEFAULT",
        "A_BOOL",
        "A_CONST",
        "A_IN",
        "A_RATE_*",
    }
    assert SHELL_READ.findall('x="${PORT:-8000}" y=$ROOT ${HOST-a} ${Q:=b}') == [
        "PORT",
        "HOST",
        "Q",
    ]


def test_every_rate_limit_scope_has_its_own_row():
    from django.conf import settings

    table = documented()
    for scope in settings.MAYI_RATE_LIMITS:
        assert f"MAYI_RATE_{scope.upper()}" in table, scope
