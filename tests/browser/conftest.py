"""Playwright driving Debian's chromium (/usr/bin/chromium); a browser is never downloaded.

Without chromium or Playwright the browser tests skip with a message, except in CI (CI=true),
where they must run.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _unavailable(reason: str) -> None:
    if os.environ.get("CI", "").lower() in {"1", "true"}:
        pytest.fail(f"browser tests must run in CI: {reason}")
    pytest.skip(f"browser tests skipped: {reason}")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        _unavailable(f"{CHROMIUM} not found (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed")
    # Playwright's sync API runs an event loop in this thread; the ORM calls the tests make
    # between browser steps are still synchronous, so Django may allow them.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            yield browser
            browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()


@pytest.fixture(scope="session")
def asgi_server() -> Iterator[str]:
    """The ASGI application (HTTP and websockets) served by daphne in a thread of the test
    process: pytest-django's live_server speaks WSGI only. Twisted's reactor runs once per
    process, so one server serves every module that needs it."""
    from daphne.endpoints import build_endpoint_description_strings
    from daphne.server import Server
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from twisted.internet import reactor

    from mayi_site.asgi import application

    server = Server(
        application=ASGIStaticFilesHandler(application),
        endpoints=build_endpoint_description_strings(host="127.0.0.1", port=0),
        signal_handlers=False,
    )
    thread = threading.Thread(target=server.run, daemon=True, name="daphne")
    thread.start()
    deadline = time.monotonic() + 10
    while not server.listening_addresses:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("daphne did not start")
        time.sleep(0.05)
    host, port = server.listening_addresses[0]
    yield f"http://{host}:{port}"
    reactor.callFromThread(reactor.stop)
    thread.join(5)


class _InFlight:
    """Counts the live server's requests being answered: a page closed at a test's end may
    have left one running, and the database must not be flushed under it (the request would
    then fail half-way, or on SQLite hold the flush on its write lock)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.count = 0
        self.lock = threading.Lock()

    def __call__(self, environ: Any, start_response: Any) -> Any:
        with self.lock:
            self.count += 1
        try:
            # The body is made here, in full, and closed (Django's request_finished: the
            # thread's database connection goes), so the count covers every database use.
            body = self.app(environ, start_response)
            try:
                return list(body)
            finally:
                close = getattr(body, "close", None)
                if close is not None:
                    close()
        finally:
            with self.lock:
                self.count -= 1

    def wait_idle(self, seconds: float = 10) -> None:
        deadline = time.monotonic() + seconds
        while self.count and time.monotonic() < deadline:
            time.sleep(0.02)


@pytest.fixture(autouse=True)
def _live_server_idle_before_flush(request: pytest.FixtureRequest) -> Iterator[None]:
    """For a test on pytest-django's live_server: after it (before its database is flushed),
    wait until the server answers no request."""
    if "live_server" not in request.fixturenames:
        yield
        return
    server = request.getfixturevalue("live_server")
    httpd = server.thread.httpd
    counter = httpd.get_app()
    if not isinstance(counter, _InFlight):
        counter = _InFlight(counter)
        httpd.set_app(counter)
    yield
    counter.wait_idle()
