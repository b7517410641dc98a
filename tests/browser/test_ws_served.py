"""The table websocket as daphne really serves it (not Channels' in-process communicator): the
close codes a refusal sends must be ones its websocket library lets a server send."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from games import services
from games.ws_guard import CLOSE_TOO_BIG
from tests.live.wsutil import close_db_pools, session_for  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_db_pools")]


def _socket_url(base: str, table_id: int) -> str:
    return base.replace("http://", "ws://") + f"/ws/tables/{table_id}/"


def _gauge() -> tuple[float, float]:
    from mayi_site import metrics

    return metrics.websockets_open._value.get(), metrics.frames_sent._value.get()


async def _send_and_close_code(url: str, origin: str, cookie: str, frame: str) -> tuple[Any, int]:
    opened_before, frames_before = _gauge()
    async with websockets.connect(
        url,
        origin=origin,
        additional_headers={"Cookie": cookie},
        max_size=None,  # type: ignore[arg-type]
    ) as ws:
        first = json.loads(await asyncio.wait_for(ws.recv(), 10))
        # The socket counts as open, and its first frame as sent (mayi_site/metrics.py).
        opened, frames = _gauge()
        assert opened == opened_before + 1 and frames >= frames_before + 1
        await ws.send(frame)
        try:
            while True:
                await asyncio.wait_for(ws.recv(), 10)
        except ConnectionClosed as closed:
            assert closed.rcvd is not None, "the server closed without a close frame"
            return first, closed.rcvd.code
    raise AssertionError("unreachable")


def test_an_oversized_frame_closes_with_4413_served_by_daphne(asgi_server, alice, bob, carol):
    from django.conf import settings

    table = services.table_create(host=alice, seats=3)
    services.table_join(user=bob, table_id=table.pk)
    services.table_join(user=carol, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed="oversized")
    cookie = f"{settings.SESSION_COOKIE_NAME}={session_for(alice)}"
    frame = json.dumps({"type": "ping", "pad": "a" * 70000})
    open_before = _gauge()[0]
    first, code = asyncio.run(
        _send_and_close_code(_socket_url(asgi_server, table.pk), asgi_server, cookie, frame)
    )
    assert first["type"] == "table"
    # 1009 from the consumer reached the client as 1011 (internal error) with a traceback.
    assert code == CLOSE_TOO_BIG == 4413
    deadline = time.monotonic() + 5
    while _gauge()[0] != open_before and time.monotonic() < deadline:  # the close arrives
        time.sleep(0.05)
    assert _gauge()[0] == open_before
