"""Playwright driving Debian's chromium (/usr/bin/chromium); a browser is never downloaded.

Without chromium or Playwright the browser tests skip with a message, except in CI (CI=true),
where they must run.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from django.test.utils import modify_settings

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
def pool() -> Iterator[ThreadPoolExecutor]:
    """A thread for the services a test calls while the page is open: they (and their
    on-commit broadcast) must run off the thread of Playwright's event loop."""
    with ThreadPoolExecutor(1) as executor:
        yield executor


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()


class _InFlight:
    """The ASGI application, counting the connections it is serving (requests and sockets):
    after a test, before its database is flushed, they must all have ended (a page closed at a
    test's end may leave a request running or a socket reading; the flush would fail it half-way
    or, on SQLite, wait on its write lock)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.count = 0
        self.lock = threading.Lock()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        with self.lock:
            self.count += 1
        try:
            await self.app(scope, receive, send)
        finally:
            with self.lock:
                self.count -= 1

    def wait_idle(self, seconds: float = 10) -> None:
        deadline = time.monotonic() + seconds
        while self.count and time.monotonic() < deadline:
            time.sleep(0.02)


class _Daphne:
    """The site served by daphne in a thread of the test process, as pages see it in production:
    HTTP and the tables' websockets on one port (pytest-django's live server speaks WSGI only,
    so its pages could never open their sockets and said "reconnecting…")."""

    def __init__(self) -> None:
        from daphne.endpoints import build_endpoint_description_strings
        from daphne.server import Server
        from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

        from mayi_site.asgi import application

        self.app = _InFlight(ASGIStaticFilesHandler(application))
        self.server = Server(
            application=self.app,
            endpoints=build_endpoint_description_strings(host="127.0.0.1", port=0),
            signal_handlers=False,
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True, name="daphne")
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.listening_addresses:
            if time.monotonic() > deadline or not self.thread.is_alive():
                pytest.fail("daphne did not start")
            time.sleep(0.05)
        host, port = self.server.listening_addresses[0]
        self.url = f"http://{host}:{port}"
        # pytest-django's helper turns this on and off around each test that asks for
        # live_server; the test settings already allow the loopback host.
        self._live_server_modified_settings = modify_settings()

    def wait_idle(self, seconds: float = 10) -> None:
        """Until the server has answered every request and seen every socket close (a page
        closed by the test is gone from the browser at once, but its socket's close reaches the
        server a moment later, and records the version the socket showed as seen)."""
        self.app.wait_idle(seconds)

    def stop(self) -> None:
        from twisted.internet import reactor

        reactor.callFromThread(reactor.stop)
        self.thread.join(5)


@pytest.fixture(scope="session")
def _daphne() -> Iterator[_Daphne]:
    # Twisted's reactor runs once per process, so one server serves every test that needs it.
    server = _Daphne()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def asgi_server(_daphne: _Daphne) -> str:
    """The site's URL, served by daphne (HTTP and websockets)."""
    return _daphne.url


@pytest.fixture(scope="session")
def live_server(_daphne: _Daphne) -> _Daphne:
    """pytest-django's ``live_server`` (``.url``, the transactional database it brings), served
    by daphne: every browser test's page opens its socket and goes live."""
    return _daphne


@pytest.fixture(autouse=True)
def _server_idle_before_flush(request: pytest.FixtureRequest) -> Iterator[None]:
    """For a test on the server: after it (before its database is flushed), wait until the
    server serves no request and no socket."""
    if not {"live_server", "asgi_server"} & set(request.fixturenames):
        yield
        return
    server = request.getfixturevalue("_daphne")
    yield
    server.wait_idle()
