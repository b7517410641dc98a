"""Helpers for the websocket tests: sessions, communicators and frames.

The tests are plain functions that run one coroutine with asgiref's ``async_to_sync``: the
database work inside it (``database_sync_to_async``) then runs in the test's own thread, on the
test's own connection, so the in-memory SQLite database and PostgreSQL behave alike.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connections
from django.test import Client

ORIGIN = b"http://testserver"
TIMEOUT = 5


@pytest.fixture(autouse=False)
def close_db_pools() -> Iterator[None]:
    """Close the PostgreSQL connection pool after a test: the consumers read from the loop's
    worker threads, whose pooled connections would otherwise outlive the test database."""
    yield
    for conn in connections.all(initialized_only=True):
        if getattr(conn, "pool", None) is not None:
            conn.close()
            conn.close_pool()


def run(fn: Callable[..., Awaitable[Any]], *args: Any) -> Any:
    return async_to_sync(fn)(*args)


def session_for(user: Any) -> str:
    """A signed-in browser session for ``user``: the key its cookie carries."""
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def communicator(
    table_id: int, session_key: str | None = None, *, origin: bytes | None = ORIGIN
) -> WebsocketCommunicator:
    from mayi_site.asgi import application

    headers = [(b"host", b"testserver")]
    if origin is not None:
        headers.append((b"origin", origin))
    if session_key is not None:
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={session_key}".encode()))
    return WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)


async def connect(table_id: int, session_key: str | None) -> tuple[WebsocketCommunicator, dict]:
    """Open a socket that must be accepted, and return it with its first frame."""
    comm = communicator(table_id, session_key)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    frame = await comm.receive_json_from(timeout=TIMEOUT)
    assert frame["type"] == "table", frame
    return comm, frame


async def refused_code(comm: WebsocketCommunicator) -> int:
    """The close code of a socket the server refuses (after its "refused" message)."""
    message = json.loads((await comm.receive_output(TIMEOUT))["text"])
    assert message["type"] == "refused", message
    closing = await comm.receive_output(TIMEOUT)
    assert closing["type"] == "websocket.close", closing
    assert closing["code"] == message["error"]["code"]
    return closing["code"]


async def fresh_get(api_for: Callable[[Any], Any], user: Any, table_id: int) -> dict:
    """What ``GET /api/tables/<id>`` answers ``user`` now (``api_for`` is the fixture)."""

    def get() -> dict:
        response = api_for(user).get(f"/api/tables/{table_id}")
        assert response.status_code == 200, response.content
        return steady(response.json())

    return await database_sync_to_async(get)()


def as_get(frame: dict) -> dict:
    """The part of a frame a GET answers (a frame adds type, version, committed_at, and the
    client's ref on the answer to its action)."""
    assert set(frame) <= {"type", "version", "committed_at", "ref", "table", "view", "log"}, set(
        frame
    )
    assert frame["version"] == frame["table"]["version"]
    return steady({"table": frame["table"], "view": frame["view"]})


def steady(payload: dict) -> dict:
    """The payload less what only the wall clock changes: the running clock's seconds left is
    computed at each read, so a frame and a GET a moment later may differ by a second. The
    log is left out: a frame's holds the moves since that socket's last frame, a GET's those
    since its ``since`` (tests/live/test_websocket_log.py compares them)."""
    payload = copy.deepcopy(payload)
    payload.pop("log", None)
    # What the player had seen before this read: a socket opening and a GET each move it on.
    payload["table"].pop("last_seen_version", None)
    for seat in (payload["table"].get("clocks") or {}).get("seats", []):
        if seat.get("running"):
            seat["seconds_left"] = None
    return payload


def strings_in(value: Any) -> set[str]:
    """Every string anywhere in a JSON value (card ids included)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()
