"""One registry of error codes (games/errors.py): every code the sources raise is registered,
with its status and a description, and the OpenAPI schema lists them all.

The sources are read, not run: ``IllegalMove("code", ...)``, ``SomeError(..., code="code")``,
``code = "code"`` in an error class, ``ApiError(status, "code", ...)`` (or any call with an
HTTP status and a code first), the API's ``error(status, "code", ...)`` and the socket's
``self.error("code", ...)``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from games.errors import CODE_NAMES, CODES, status_of

from .test_layers import ALL, ROOT


def strings(node: ast.AST) -> list[str]:
    """The string constants an expression can be: ``"a"``, or ``"a" if x else "b"``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return strings(node.body) + strings(node.orelse)
    return []


def status(node: ast.AST) -> int | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, int) else None


def raised(path: Path) -> Iterator[tuple[str, int | None, str]]:
    """(code, the status written beside it or None, where) for each code in the file."""
    tree = ast.parse(path.read_text(), filename=str(path))
    rel = path.relative_to(ROOT)
    for node in ast.walk(tree):
        where = f"{rel}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            args = node.args
            if name == "IllegalMove" and args:
                yield from ((c, None, where) for c in strings(args[0]))
            if isinstance(func, ast.Name) and name in ("ApiError", "error") and len(args) >= 2:
                yield from ((c, status(args[0]), where) for c in strings(args[1]))
            elif len(args) >= 2 and 400 <= (status(args[0]) or 0) < 600:
                # Any other refusal built as (status, code, ...), e.g. ReplayRefused(404, ...).
                yield from ((c, status(args[0]), where) for c in strings(args[1]))
            if (
                name in ("error", "send_error")  # the socket's one error function (ws_guard)
                and isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id == "self"
                and args
            ):
                yield from ((c, None, where) for c in strings(args[0]))
            for keyword in node.keywords:
                if keyword.arg == "code":
                    yield from ((c, None, where) for c in strings(keyword.value))
        elif isinstance(node, ast.ClassDef):
            attrs: dict[str, ast.AST] = {}
            for statement in node.body:
                if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
                    target = statement.targets[0]
                    if isinstance(target, ast.Name):
                        attrs[target.id] = statement.value
            if "code" in attrs:
                code_status = status(attrs["status"]) if "status" in attrs else None
                yield from (
                    (c, code_status, f"{where} {node.name}") for c in strings(attrs["code"])
                )


FOUND = [hit for path in ALL.values() for hit in raised(path)]


def test_the_scan_finds_the_codes_of_every_layer():
    codes = {code for code, _, _ in FOUND}
    # The engine, the services, the API's edge, the socket, and an error class's default.
    assert {"not_your_turn", "table_full", "bad_token", "bad_request", "busy"} <= codes
    assert len(codes) > 60


def test_every_code_raised_is_registered_and_described():
    missing = sorted({f"{code} ({where})" for code, _, where in FOUND if code not in CODES})
    assert not missing, (
        "codes raised but not registered in games/errors.py (add each with its status and a "
        "one-line description):\n" + "\n".join(missing)
    )
    assert all(entry.description.strip() for entry in CODES.values())


def test_the_status_written_beside_a_code_is_the_registered_one():
    wrong = sorted(
        f"{code}: {given} at {where}, registered {status_of(code)}"
        for code, given, where in FOUND
        if given is not None and code in CODES and given != status_of(code)
    )
    assert not wrong, "\n".join(wrong)


def test_every_registered_code_is_raised_somewhere():
    raised_codes = {code for code, _, _ in FOUND}
    dead = sorted(set(CODES) - raised_codes)
    assert not dead, f"registered but never raised (remove them, or raise them): {dead}"


def test_the_openapi_schema_lists_every_code(client):
    schema = client.get("/api/openapi.json").json()
    body = schema["components"]["schemas"]["ErrorBody"]["properties"]["code"]
    assert body["enum"] == list(CODE_NAMES)
    # The documented refusals of an endpoint use that schema.
    actions = schema["paths"]["/api/tables/{table_id}/actions"]["post"]["responses"]
    assert "400" in actions and "409" in actions


def test_a_refusal_answers_with_its_registered_status(alice, api_for):
    response = api_for(alice).get("/api/tables/999999")
    assert response.status_code == status_of("table_not_found") == 404
    assert response.json()["error"]["code"] == "table_not_found"
