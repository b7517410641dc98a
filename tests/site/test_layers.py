"""The layers, read from the sources (no import runs): who may import whom, in every package
of the site (games, accounts, mayi_site and each app added since).

- the engine imports nothing of Django or the site (tests/engine/test_pure.py checks the
  running imports too);
- the services never import the edges (api, views, consumers, tasks, routing, admin, urls of
  any app, and games/live.py);
- the models import no services;
- the broadcast imports only Channels (and asgiref, its base) besides the standard library;
- no import sits inside a function anywhere (a lazy import is how a
  cycle hides), but for the few listed in ``LAZY_ALLOWED`` with their reason;
- the module-level imports form no cycle.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Every package of the site (new apps included as they come), not the tests or benches.
PACKAGES = tuple(
    sorted(
        p.parent.name
        for p in ROOT.glob("*/__init__.py")
        if p.parent.name not in ("tests", "bench", "scripts")
    )
)

# (file, imported module): why it is imported inside a function, not at the top.
LAZY_ALLOWED = {
    ("games/embedded.py", "celery.beat"): "the embedded worker's modules load only in its process",
    (
        "games/embedded.py",
        "celery.worker",
    ): "the embedded worker's modules load only in its process",
    ("mayi_site/asgi.py", "daphne.http_protocol"): "optional: served by another server, or none",
    ("mayi_site/asgi.py", "autobahn.websocket"): "optional: served by another server, or none",
    ("mayi_site/serve.py", "uvloop"): "optional: no Windows build (daphne's standard loop then)",
    (
        "mayi_site/serve.py",
        "daphne.cli",
    ): "it imports daphne.server, which makes its event loop: only once the policy is set",
}

# The entry points of each app: they call the services, never the other way round.
EDGE_MODULES = ("api", "views", "consumers", "tasks", "routing", "admin", "urls")
EDGES = (
    *(f"{app}.{edge}" for app in PACKAGES for edge in EDGE_MODULES),
    "games.live",  # the websocket side of the games app
)


@dataclass(frozen=True)
class Import:
    module: str  # the absolute name of the module (or package) imported
    names: tuple[str, ...]  # for ``from X import a, b``: a, b
    line: int
    in_function: bool


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, package: str | None = None) -> list[Import]:
    """Every import in the file, with relative ones made absolute (``package``: the file's)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    if package is None:
        package = module_name(path)
        if path.name != "__init__.py":
            package = package.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(
                child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
            )
            if isinstance(child, ast.Import):
                found.extend(Import(a.name, (), child.lineno, in_function) for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[: len(base) - child.level + 1]
                    name = ".".join([*base, *([child.module] if child.module else [])])
                else:
                    name = child.module or ""
                names = tuple(a.name for a in child.names)
                found.append(Import(name, names, child.lineno, in_function))
            visit(child, inner)

    visit(tree, False)
    return found


def sources(*packages: str) -> dict[str, Path]:
    out = {}
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            out[module_name(path)] = path
    return out


ALL = sources(*PACKAGES)


def targets(imp: Import) -> list[str]:
    """The project modules an import depends on: ``from games import engine`` on games.engine
    (the package ``games`` is loaded first anyway, as the parent of every module in it), ``from
    games.services import table_read`` on games.services."""
    submodules = [f"{imp.module}.{n}" for n in imp.names if f"{imp.module}.{n}" in ALL]
    loaded = (
        submodules if imp.names and len(submodules) == len(imp.names) else [imp.module, *submodules]
    )
    return [m for m in loaded if m in ALL]


def starts(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def violations(modules: tuple[str, ...], forbidden: tuple[str, ...]) -> list[str]:
    bad = []
    for name, path in ALL.items():
        if not starts(name, modules):
            continue
        for imp in imports_of(path):
            loaded = [imp.module] + [f"{imp.module}.{n}" for n in imp.names]
            hit = [m for m in loaded if starts(m, forbidden)]
            if hit:
                bad.append(f"{path.relative_to(ROOT)}:{imp.line} imports {hit[0]}")
    return bad


def test_the_sources_are_found():
    assert {"games.engine.actions", "games.services.transition", "games.broadcast"} <= set(ALL)


def test_the_engine_imports_only_the_standard_library_and_itself():
    bad = [
        f"{path.relative_to(ROOT)}:{imp.line} imports {imp.module}"
        for name, path in ALL.items()
        if starts(name, ("games.engine",))
        for imp in imports_of(path)
        if not starts(imp.module, ("games.engine",))
        and imp.module.split(".")[0] not in sys.stdlib_module_names
    ]
    assert not bad, "the engine is pure Python, no Django:\n" + "\n".join(bad)


def test_the_services_never_import_the_edges():
    bad = violations(tuple(f"{app}.services" for app in PACKAGES), EDGES)
    assert not bad, "the services are called by the edges, never the other way:\n" + "\n".join(bad)


def test_the_models_import_no_services():
    models = tuple(f"{app}.models" for app in PACKAGES)
    bad = violations(models, (*(f"{app}.services" for app in PACKAGES), *EDGES))
    assert not bad, "\n".join(bad)


def test_the_broadcast_imports_only_channels():
    allowed = ("channels", "asgiref", "django.conf", "__future__")
    path = ALL["games.broadcast"]
    bad = [
        f"{path.relative_to(ROOT)}:{imp.line} imports {imp.module}"
        for imp in imports_of(path)
        if not starts(imp.module, allowed)
        and imp.module.split(".")[0] not in sys.stdlib_module_names
    ]
    assert not bad, "\n".join(bad)


def test_no_import_hides_in_a_function():
    bad = []
    for path in ALL.values():
        rel = str(path.relative_to(ROOT))
        for imp in imports_of(path):
            if imp.in_function and (rel, imp.module) not in LAZY_ALLOWED:
                bad.append(f"{rel}:{imp.line} imports {imp.module} inside a function")
    assert not bad, (
        "an import inside a function hides a cycle (or a layer crossed): import at the top, "
        "and move what both sides need into a module of its own:\n" + "\n".join(bad)
    )


def test_the_project_modules_import_no_cycle():
    graph = {
        name: {t for imp in imports_of(path) for t in targets(imp) if t != name}
        for name, path in ALL.items()
    }
    # Tarjan's strongly connected components: any with two or more modules is a cycle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_the_checks_see_what_they_guard(tmp_path):
    """The parser itself: a relative import, a module-level and a lazy import are all seen."""
    sample = tmp_path / "probe.py"
    sample.write_text(
        "from games import api\nfrom .tasks import x\n\n\ndef f():\n    import games.views\n"
    )
    found = imports_of(sample, package="games.services")
    assert [(i.module, i.names, i.in_function) for i in found] == [
        ("games", ("api",), False),
        ("games.services.tasks", ("x",), False),
        ("games.views", (), True),
    ]


def test_the_api_endpoints_are_typed_without_ignores():
    """Endpoints take an ``ApiRequest`` (accounts/requests.py), so reading ``request.auth`` needs
    no ``# type: ignore`` (mypy runs in ./scripts/test)."""
    bad = [
        f"{path.relative_to(ROOT)}:{n}"
        for name, path in ALL.items()
        if name.endswith(".api")
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if "type: ignore" in line
    ]
    assert not bad, "\n".join(bad)
