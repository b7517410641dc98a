"""Security headers and templates: a Content-Security-Policy on every page (issue 14), and no
template that would need ``'unsafe-inline'`` to work."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from games import services

TEMPLATES = Path(settings.BASE_DIR) / "templates"

# A <script> element with code in it (a src= or a JSON data block is fine), an inline event
# handler, a style attribute or element, a javascript: URL.
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>\s*\S", re.I)
INLINE_HANDLER = re.compile(r"\son[a-z]+\s*=", re.I)
STYLE_ATTRIBUTE = re.compile(r"\sstyle\s*=", re.I)
STYLE_ELEMENT = re.compile(r"<style\b", re.I)
JS_URL = re.compile(r"javascript:", re.I)


def template_files() -> list[Path]:
    return sorted(p for p in TEMPLATES.rglob("*") if p.suffix in {".html", ".txt"})


def test_no_template_has_inline_script_or_style():
    problems = []
    for path in template_files():
        text = path.read_text()
        for name, pattern in [
            ("inline <script>", INLINE_SCRIPT),
            ("inline event handler", INLINE_HANDLER),
            ('style="..."', STYLE_ATTRIBUTE),
            ("<style>", STYLE_ELEMENT),
            ("javascript: URL", JS_URL),
        ]:
            for match in pattern.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                problems.append(f"{path.relative_to(TEMPLATES)}:{line}: {name}")
    assert not problems, "move these to static files (CSP):\n" + "\n".join(problems)


def test_the_template_check_catches_what_it_should():
    assert INLINE_SCRIPT.search("<script>alert(1)</script>")
    assert INLINE_SCRIPT.search('<script type="module">import x</script>')
    assert not INLINE_SCRIPT.search('<script src="/static/js/table.js" defer></script>')
    assert not INLINE_SCRIPT.search('<script id="d" type="application/json">{"a": 1}</script>')
    assert STYLE_ATTRIBUTE.search('<div style="color: red">')
    assert INLINE_HANDLER.search('<button onclick="go()">')


def policy(response) -> dict[str, list[str]]:
    header = response.get("Content-Security-Policy", "")
    parts = [part.strip().split() for part in header.split(";") if part.strip()]
    return {part[0]: part[1:] for part in parts}


def assert_strict(response, path: str) -> None:
    directives = policy(response)
    assert directives, f"{path}: no Content-Security-Policy header"
    assert directives.get("script-src") == ["'self'"], (path, directives)
    assert directives.get("style-src") == ["'self'"], (path, directives)
    assert directives.get("object-src") == ["'none'"]
    assert directives.get("frame-ancestors") == ["'none'"]
    for values in directives.values():
        assert "'unsafe-inline'" not in values and "'unsafe-eval'" not in values, path


def page_paths(table_id: int, invite: str) -> list[str]:
    return [
        "/",
        f"/tables/{table_id}/",
        f"/join/{invite}/",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/profile/",
        "/accounts/password_reset/",
        "/accounts/password_change/",
        "/admin/",
        "/admin/login/",
        "/api/docs",
        "/api/openapi.json",
        "/api/tables",
        "/no/such/page/",
    ]


@pytest.mark.parametrize("signed_in", [False, True])
def test_every_page_carries_a_strict_content_security_policy(signed_in, alice, bob):
    table = services.table_create(host=alice, seats=3, public=False)
    client = Client()
    if signed_in:
        alice.is_staff = alice.is_superuser = True
        alice.save()
        client.force_login(alice)
    for path in page_paths(table.pk, table.invite_code):
        response = client.get(path)
        assert response.status_code < 500, path
        assert_strict(response, path)
