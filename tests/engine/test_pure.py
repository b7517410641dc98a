"""The engine is pure Python: nothing under games/engine/ imports Django, directly or not."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "games" / "engine"
FORBIDDEN = ("django", "games.models", "games.services", "accounts", "mayi_site", "celery")


def imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(node.module)
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", None))
            in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            found.append(str(node.args[0].value))
    return found


def test_the_engine_sources_import_no_django():
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) >= 10
    bad = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in files
        for name in imported_modules(path)
        if name.split(".")[0] in ("django", "accounts", "mayi_site", "celery")
        or name.startswith(FORBIDDEN)
    ]
    assert not bad, bad


def test_importing_the_engine_loads_no_django():
    modules = sorted(p.stem for p in ENGINE.glob("*.py") if p.stem != "__init__")
    code = (
        "import importlib, sys\n"
        "import games.engine\n"
        f"for m in {modules!r}:\n"
        "    importlib.import_module('games.engine.' + m)\n"
        "from games.engine.simulate import play_game\n"
        "play_game(3, 'pure', checks=True)\n"
        "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print(','.join(bad))\n"
    )
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "", f"django modules loaded: {out.stdout}"
