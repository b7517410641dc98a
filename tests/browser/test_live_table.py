"""Two players' pages of one table, in two browser contexts: one acts, the other page follows
over the websocket without a reload.

pytest-django's live_server speaks WSGI only, so this module serves the ASGI application with
daphne in a thread of the test process (the in-memory SQLite test database is shared between
threads, and so is the in-memory channel layer; on pass 2 they are PostgreSQL and Redis).
Twisted's reactor runs once per process: the server is module-scoped and this is its only user.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from games import engine, services
from games.models import Table
from tests.live.wsutil import close_db_pools, session_for  # noqa: F401 (a fixture)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_pools"),
]


@pytest.fixture(scope="module")
def asgi_server() -> Iterator[str]:
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


def _signed_in_page(browser: Any, url: str, user: Any) -> Any:
    context = browser.new_context()
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session_for(user), "url": url}]
    )
    page = context.new_page()
    page.set_default_timeout(15000)
    return page


def _start_table(alice: Any, bob: Any) -> Table:
    try:
        table = services.table_create(host=alice, seats=3)
        services.table_join(user=bob, table_id=table.pk)
        services.table_fill_with_bots(user=alice, table_id=table.pk)
        services.table_start(user=alice, table_id=table.pk, seed="browser-live")
        table.refresh_from_db()
        return table
    finally:
        connection.close()


def test_one_player_acts_and_the_others_page_follows(asgi_server, browser, alice, bob):
    # In a thread of its own: this one runs Playwright's event loop, where the services'
    # on-commit broadcast (sync code that sends through the channel layer) cannot run.
    with ThreadPoolExecutor(1) as pool:
        table = pool.submit(_start_table, alice, bob).result()
    pages = {0: _signed_in_page(browser, asgi_server, alice)}
    pages[1] = _signed_in_page(browser, asgi_server, bob)
    try:
        for page in pages.values():
            page.goto(f"{asgi_server}/tables/{table.pk}/")
            page.wait_for_selector("#live-status.live")
            # Set on this document only: a reload would lose it.
            page.evaluate("window.__sameDocument = true")

        view = engine.view(table.state, None)
        active, window = view["active_seat"], view["buy_window"]
        if window and set(window["waiting"]) & {0, 1}:
            actor = min(set(window["waiting"]) & {0, 1})
            pages[actor].click("text=No thanks")
        else:
            assert active in (0, 1) and view["phase"] == "draw", view
            actor = active
            pages[actor].click("text=Draw from stock")
        watcher = pages[1 - actor]

        watcher.wait_for_function(
            f"Number(document.getElementById('table').dataset.version) > {table.version}"
        )
        assert watcher.evaluate("window.__sameDocument") is True
        table.refresh_from_db()
        # The watcher's page shows the committed state: the actor's card count, the log line.
        shown = watcher.inner_text(f"#players tr[data-seat='{actor}'] td:nth-child(3)")
        assert int(shown) == len(table.state["hands"][actor])
        assert watcher.locator("#log li").count() >= 1
        assert "reconnecting" not in watcher.inner_text("#live-status")
        assert Table.objects.get(pk=table.pk).version == int(
            watcher.evaluate("document.getElementById('table').dataset.version")
        )
    finally:
        for page in pages.values():
            page.context.close()
