"""The layers, read from the sources (no import runs): who may import whom, in every package
of the site (games, accounts, mayi_site and each app added since).

- the engine imports nothing of Django or the site (tests/engine/test_pure.py checks the
  running imports too), and the site imports the engine's package only (``games.engine``),
  never a module inside it: the package exports everything the platform uses;
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
import tomllib
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
    # Django's way for receivers: their modules use the models, loadable only once the app
    # registry is ready (AppConfig.ready), not when apps.py itself is imported.
    ("moderation/apps.py", "moderation"): "signal receivers need the models: AppConfig.ready",
    ("stats/apps.py", "stats"): "its hooks into games need the models: AppConfig.ready",
    ("analysis/apps.py", "analysis"): "its hook into games needs the models: AppConfig.ready",
    (
        "tournaments/apps.py",
        "tournaments",
    ): "its hook into games needs the models: AppConfig.ready",
    ("chat/apps.py", "chat"): "its socket messages need the models: AppConfig.ready",
    (
        "accounts/apps.py",
        "accounts",
    ): "the name skeletons' receiver needs the models: AppConfig.ready",
    ("chat/apps.py", "games"): "the fan-out reads the models: AppConfig.ready",
    ("games/apps.py", "games"): "its part of the profile page needs the models: AppConfig.ready",
    ("social/apps.py", "social"): "what it gives games reads the models: AppConfig.ready",
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


def test_the_site_imports_only_the_engine_package():
    """``from games.engine import apply`` or ``from games import engine``, never
    ``games.engine.records`` nor ``from games.engine import records``: what the engine keeps
    inside may move (the bots did, into ``bots/``) without the site noticing."""
    bad = [
        f"{path.relative_to(ROOT)}:{imp.line} imports {hit}"
        for name, path in ALL.items()
        if not starts(name, ("games.engine",))
        for imp in imports_of(path)
        for hit in [imp.module, *(f"{imp.module}.{n}" for n in imp.names)]
        if hit.startswith("games.engine.") and (hit in ALL or imp.module == hit)
    ]
    assert not bad, (
        "import the engine's package, not its modules (export what you need from "
        "games/engine/__init__.py):\n" + "\n".join(bad)
    )


def public_names(module: str) -> set[str]:
    """The names a package lists in its ``__all__``."""
    tree = ast.parse(ALL[module].read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            return set(ast.literal_eval(node.value))
    raise AssertionError(f"{module} has no __all__")


def test_other_apps_use_only_the_public_names_of_the_games_services():
    """Outside ``games``, the services of the games are ``games.services`` and the names it
    exports (the ``table_*`` services and the layer of changes under the lock, ``do_*``):
    moderation, chat, stats and the apps to come never reach into its modules."""
    exported = public_names("games.services")
    bad = []
    for name, path in ALL.items():
        if starts(name, ("games",)):
            continue
        for imp in imports_of(path):
            if imp.module.startswith("games.services."):
                bad.append(f"{path.relative_to(ROOT)}:{imp.line} imports {imp.module}")
            elif imp.module == "games.services":
                bad += [
                    f"{path.relative_to(ROOT)}:{imp.line} imports games.services.{n}"
                    for n in imp.names
                    if n not in exported
                ]
    assert not bad, (
        "import what games.services exports (add it to its __all__ if it is meant for other "
        "apps):\n" + "\n".join(bad)
    )


# The folders, bottom to top (docs/ARCHITECTURE.md draws them): a folder never imports one
# above it. games is the platform under every app; chat and social build on it, stats on
# them, analysis on stats; moderation moderates chat and games, notify and tournaments use
# all of these, privacy exports and erases everything; mayi_site is the root that mounts them
# (its api, urls and asgi) and also holds the site-wide helpers every folder may use
# (ratelimits, metrics...).
FOLDERS_ABOVE = {
    "accounts": (
        "games",
        "chat",
        "social",
        "stats",
        "analysis",
        "moderation",
        "notify",
        "tournaments",
        "privacy",
    ),
    "rules": (
        "accounts",
        "chat",
        "social",
        "stats",
        "analysis",
        "moderation",
        "notify",
        "tournaments",
    ),
    "games": (
        "chat",
        "social",
        "stats",
        "analysis",
        "moderation",
        "notify",
        "tournaments",
        "privacy",
    ),
    "chat": ("stats", "analysis", "moderation", "notify", "tournaments", "privacy"),
    "social": ("chat", "stats", "analysis", "moderation", "notify", "tournaments", "privacy"),
    "stats": ("chat", "analysis", "moderation", "notify", "tournaments", "privacy"),
    # analysis weighs finished games' decisions: built on stats (the replay, the charts).
    "analysis": ("moderation", "notify", "tournaments", "privacy"),
    "moderation": ("notify", "tournaments", "privacy"),
    "notify": ("moderation", "tournaments", "privacy"),
    "tournaments": ("moderation", "privacy"),
}
# The root of the site: nothing imports it.
ROOT_MODULES = ("mayi_site.api", "mayi_site.urls", "mayi_site.asgi")


def upward_imports() -> set[tuple[str, str]]:
    found = set()
    for name, path in ALL.items():
        above = FOLDERS_ABOVE.get(name.split(".")[0], ())
        for imp in imports_of(path):
            folder = imp.module.split(".")[0]
            if folder in above:
                found.add((name, folder))
    return found


def test_no_folder_imports_one_above_it():
    """None does, not even inside a function: the last ones (accounts' profile and sign-in
    reading games and moderation; the lobby, the join rules and the table's trust reading
    stats and social) were turned round in issue 27."""
    bad = sorted(upward_imports())
    assert not bad, (
        "a folder imports one above it (FOLDERS_ABOVE): turn it round with a hook or a "
        "registry the upper folder fills from its AppConfig.ready (games/hooks.py, "
        "games/fanout.py, games/providers.py, chat/hooks.py, accounts/hooks.py):\n"
        + "\n".join(f"{m} imports {f}" for m, f in bad)
    )


def test_the_rules_pages_read_only_the_engine():
    """rules/ (the rules pages) sits under games, beside accounts: of the apps it reads only
    the engine's package (its rulesets and cards), which imports nothing of the site; of the
    apps only games reads rules (its lobby form, the rulesets' titles)."""
    apps = set(PACKAGES) - {"rules", "mayi_site"}
    bad = [
        f"{path.relative_to(ROOT)}:{imp.line} imports {imp.module}"
        for name, path in ALL.items()
        if starts(name, ("rules",))
        for imp in imports_of(path)
        if imp.module.split(".")[0] in apps
        and not all(starts(t, ("games.engine",)) for t in targets(imp) or [imp.module])
    ]
    assert not bad, "rules reads the engine only:\n" + "\n".join(bad)
    readers = [
        f"{path.relative_to(ROOT)}:{imp.line} imports {imp.module}"
        for name, path in ALL.items()
        if name.split(".")[0] not in ("rules", "games") and name not in ROOT_MODULES
        for imp in imports_of(path)
        if starts(imp.module, ("rules",))
    ]
    assert not readers, "only games reads rules:\n" + "\n".join(readers)


# mayi_site's helpers (all of it but the root) sit under every app and import none, but for
# these, each with its reason.
HELPERS_IMPORTING_AN_APP = {
    (
        "mayi_site.ratelimits",
        "games",
    ): "RateLimited is a games.services.ServiceError: the API and the pages answer it as any refusal",
    (
        "mayi_site.handlers",
        "games",
    ): "the request handler (served by asgi.py) opens the services' timing, games.services.collecting",
}


def test_the_site_helpers_import_no_app():
    apps = set(PACKAGES) - {"mayi_site"}
    found = {
        (name, imp.module.split(".")[0])
        for name, path in ALL.items()
        if starts(name, ("mayi_site",)) and name not in ROOT_MODULES
        for imp in imports_of(path)
        if imp.module.split(".")[0] in apps
    }
    new = sorted(found - set(HELPERS_IMPORTING_AN_APP))
    assert not new, "a site-wide helper imports an app:\n" + "\n".join(map(str, new))
    gone = sorted(set(HELPERS_IMPORTING_AN_APP) - found)
    assert not gone, f"no longer imported: remove them from HELPERS_IMPORTING_AN_APP: {gone}"


def test_nothing_imports_the_root_of_the_site():
    bad = [
        f"{path.relative_to(ROOT)}:{imp.line} imports {imp.module}"
        for name, path in ALL.items()
        if name not in ROOT_MODULES
        for imp in imports_of(path)
        if any(starts(m, ROOT_MODULES) for m in (imp.module, *targets(imp)))
    ]
    assert not bad, "the root mounts the apps, never the other way:\n" + "\n".join(bad)


def test_only_the_root_mounts_the_bench_app():
    """benchapp/ (the bench's table and endpoint) is installed only when a setting turns it on:
    an import of it from the product would load its models without it."""
    bad = [
        f"{path.relative_to(ROOT)}:{imp.line} imports {imp.module}"
        for name, path in ALL.items()
        if name not in ROOT_MODULES and not starts(name, ("benchapp",))
        for imp in imports_of(path)
        if any(starts(m, ("benchapp",)) for m in (imp.module, *targets(imp)))
    ]
    assert not bad, "only mayi_site/api.py mounts the bench's app:\n" + "\n".join(bad)


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


def test_mypy_checks_every_package():
    """pyproject's ``files`` (what a bare ``mypy`` checks) is every package of the site, as
    ./scripts/test's list is: stats was left out once."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert sorted(config["tool"]["mypy"]["files"]) == sorted(PACKAGES)


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
