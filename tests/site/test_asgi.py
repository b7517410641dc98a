"""The ASGI application daphne serves: the sync middleware chain behind one thread hop."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from games import services

pytestmark = pytest.mark.django_db(transaction=True)


def call(
    method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
) -> tuple[int, bytes]:
    from mayi_site.asgi import application

    raw_headers = [(b"host", b"testserver")] + [
        (k.lower().encode(), v.encode()) for k, v in (headers or {}).items()
    ]
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": raw_headers,
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    sent: list[dict[str, Any]] = []

    async def run() -> None:
        delivered = False
        done = asyncio.Event()

        async def receive() -> dict[str, Any]:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            await done.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        await application(scope, receive, send)
        done.set()

    asyncio.run(run())
    status = sent[0]["status"]
    content = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, content


async def get(handler: Any, path: str) -> list[dict[str, Any]]:
    """A GET of ``path`` straight to an ASGI ``handler``: the messages it sent."""
    sent: list[dict[str, Any]] = []
    scope = {"type": "http", "method": "GET", "path": path, "query_string": b""}
    scope["headers"] = [(b"host", b"testserver")]

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await handler(scope, receive, send)
    return sent


def test_pages_api_and_static_files_over_asgi(alice, bob, carol, api_for):
    table = services.table_create(host=alice, seats=3)
    services.table_join(user=bob, table_id=table.pk)
    services.table_join(user=carol, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed="asgi")
    table.refresh_from_db()
    from games import engine
    from games.engine.bots import choose_action
    from games.models import Seat

    seat = engine.seats_to_act(table.state)[0]
    user = Seat.objects.get(table=table, position=seat).user
    auth = {"Authorization": f"Bearer {api_for(user).token}", "Content-Type": "application/json"}

    status, content = call("GET", "/")
    assert status == 200 and b"May I?" in content
    status, content = call("GET", "/static/css/site.css")
    assert status == 200 and b".card" in content
    status, content = call("GET", f"/api/tables/{table.pk}", headers=auth)
    assert status == 200 and json.loads(content)["table"]["version"] == table.version
    action = {**choose_action(table.state, seat), "expect_version": table.version}
    status, content = call(
        "POST", f"/api/tables/{table.pk}/actions", json.dumps(action).encode(), auth
    )
    assert status == 200, content
    assert json.loads(content)["table"]["version"] == table.version + 1
    status, content = call("POST", f"/api/tables/{table.pk}/actions", b"{", auth)
    assert status == 400 and json.loads(content)["error"]["code"] == "bad_json"
    status, content = call("GET", "/api/tables")
    assert status == 401


def test_requests_run_side_by_side_in_a_fixed_set_of_request_threads(settings, monkeypatch):
    """With request threads (the default on PostgreSQL), requests run side by side (two that
    can only finish together do), always in the same few threads, each keeping its pooled
    database connection warm, instead of a new thread per request."""
    import threading

    from django.http import HttpResponse

    from mayi_site.handlers import SyncChainASGIHandler

    settings.MAYI_HTTP_THREADS = 2
    handler = SyncChainASGIHandler()
    both_in = threading.Barrier(2, timeout=5)

    def get_response(request: Any) -> HttpResponse:
        if request.path == "/together":
            both_in.wait()  # raises unless the other request is in a thread at the same time
        return HttpResponse(threading.current_thread().name)

    monkeypatch.setattr(handler, "get_response", get_response)

    async def one(path: str) -> tuple[int, bytes]:
        sent = await get(handler, path)
        return sent[0]["status"], sent[1]["body"]

    async def run() -> list[tuple[int, bytes]]:
        together = await asyncio.gather(one("/together"), one("/together"))
        return [*together, *[await one("/one") for _ in range(10)]]

    answers = asyncio.run(run())
    assert {status for status, _ in answers} == {200}
    assert len({name for _, name in answers[:2]}) == 2
    threads = {name for _, name in answers}
    assert len(threads) == 2 and all(name.startswith(b"http") for name in threads)


def test_a_finished_request_is_freed_without_the_cycle_collector(alice, api_for):
    """The middleware ties each request into reference cycles; the handler breaks them when
    the response is done, so a busy server does not pile up garbage for the collector (whose
    pauses stall every request in flight). The API is the hot path; a rendered page's template
    context still keeps its request in a cycle of Django's own."""
    import gc

    from django.core.handlers.asgi import ASGIRequest

    auth = {"Authorization": f"Bearer {api_for(alice).token}"}
    call("GET", "/api/tables", headers=auth)  # warm: lazy imports, the connection pool
    gc.collect()
    # Only this test's requests count: an earlier test in the same process may have left one
    # alive on purpose or not (a half-built request held by a stored traceback, say).
    before = {id(o) for o in gc.get_objects() if isinstance(o, ASGIRequest)}
    gc.disable()
    try:
        for _ in range(20):
            status, _ = call("GET", "/api/tables", headers=auth)
            assert status == 200
        alive = [
            type(o).__name__
            for o in gc.get_objects()
            if isinstance(o, ASGIRequest) and id(o) not in before
        ]
    finally:
        gc.enable()
    assert alive == []


def test_daphne_leaves_form_bodies_to_django():
    """Twisted would parse every POST's Content-Type (building an email message) and decode form
    bodies into ``request.args``, which daphne never reads: the site turns that off, and the body
    reaches Django untouched."""
    import io
    from types import SimpleNamespace

    from daphne.http_protocol import WebRequest
    from twisted.web.test.requesthelper import DummyChannel

    import mayi_site.asgi  # noqa: F401 (sets daphne's requests up)

    channel = DummyChannel()
    channel.factory = SimpleNamespace(server=SimpleNamespace(protocol_connected=lambda r: None))
    request = WebRequest(channel)
    request.process = lambda: None  # daphne's hand-off to the application is not under test
    body = b"username=alice&password=secret"
    request.requestHeaders.setRawHeaders(b"content-type", [b"application/x-www-form-urlencoded"])
    request.content = io.BytesIO(body)
    request.content.seek(0, io.SEEK_END)
    request.requestReceived(b"POST", b"/accounts/login/", b"HTTP/1.1")
    assert request.args == {}
    assert request.content.read() == body


@pytest.mark.parametrize("on", [False, True])
def test_server_timing_says_how_long_a_request_queued_and_worked_only_when_asked(
    settings, monkeypatch, on
):
    """bench/load.py turns MAYI_SERVER_TIMING on to split a slow answer into the wait for a
    request thread and Django's work; off (the default) no answer carries server times."""
    import time

    from django.http import HttpResponse

    from bench.harness import server_timing
    from games.services.timing import measured
    from mayi_site.handlers import SyncChainASGIHandler

    settings.MAYI_HTTP_THREADS = 2
    settings.MAYI_SERVER_TIMING = on
    handler = SyncChainASGIHandler()

    def get_response(request: Any) -> HttpResponse:
        time.sleep(0.03)  # Django's work
        with measured("lock"):  # as lock_table_with_seats times the table's row lock
            time.sleep(0.02)
        return HttpResponse("ok")

    monkeypatch.setattr(handler, "get_response", get_response)
    sent = asyncio.run(get(handler, "/"))
    headers = {k.decode().lower(): v.decode() for k, v in sent[0]["headers"]}
    if not on:
        assert "server-timing" not in headers
        return
    timing = server_timing(headers["server-timing"])
    assert set(timing) == {"queue", "app", "lock"}
    assert 50 <= timing["app"] < 5000 and 0 <= timing["queue"] < 5000
    assert 20 <= timing["lock"] <= timing["app"]
