"""Garbage on the table websocket gets an error frame and the socket stays open; an oversized
frame closes with 4413; ids no table can have close with 4404 (issue 14)."""

from __future__ import annotations

import contextlib
import json

import pytest
from channels.db import database_sync_to_async
from django.db import OperationalError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import consumers, services
from games.ws_guard import MAX_DEPTH, MAX_FRAME_CHARS, too_deep
from tests.live.wsutil import (  # noqa: F401 (close_db_pools: a fixture)
    TIMEOUT,
    close_db_pools,
    communicator,
    connect,
    run,
    session_for,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_db_pools")]

GARBAGE_TEXT = [
    "not json",
    "{",
    '{"type": ',
    "[" * 30_000 + "]" * 30_000,
    '{"a": ' * 5000 + "1" + "}" * 5000,
    "null",
    "42",
    '"a string"',
    "[]",
    '{"type": null}',
    '{"type": "action", "action": {"type": ' + "[" * 30 + "]" * 30 + "}}",
    '{"type": "action", "action": "discard", "expect_version": "x"}',
    "\x00\x01\x02",
    '{"type": "\\ud800"}',
]


def started_table(alice, bob, carol):
    table = services.table_create(host=alice, seats=3)
    services.table_join(user=bob, table_id=table.pk)
    services.table_join(user=carol, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed="garbage")
    table.refresh_from_db()
    return table


async def still_open(comm) -> None:
    """The socket answers a sync after the garbage: it stayed open."""
    await comm.send_json_to({"type": "sync", "version": -5})
    frame = await comm.receive_json_from(timeout=TIMEOUT)
    assert frame["type"] == "table", frame


def test_garbage_text_and_binary_frames_get_an_error_frame_and_the_socket_stays_open(
    alice, bob, carol
):
    table = started_table(alice, bob, carol)
    key = session_for(bob)

    async def scenario() -> None:
        comm, _ = await connect(table.pk, key)
        for text in GARBAGE_TEXT:
            await comm.send_to(text_data=text)
            answer = await comm.receive_json_from(timeout=TIMEOUT)
            assert answer["type"] == "error", (text[:40], answer)
            assert answer["error"]["code"] and answer["error"]["message"]
        await comm.send_to(bytes_data=b"\x00binary\xff")
        answer = await comm.receive_json_from(timeout=TIMEOUT)
        assert answer["error"]["code"] == "bad_frame"
        await still_open(comm)
        await comm.disconnect()

    run(scenario)


def test_a_move_the_database_cannot_take_is_answered_by_its_ref(alice, bob, carol, monkeypatch):
    # The database drops in the middle of a move sent over the socket: the page waiting on
    # the move's answer hears "unavailable" at once (its ref), and the socket stays open.
    table = started_table(alice, bob, carol)
    key = session_for(bob)

    def down(**kwargs: object) -> None:
        raise OperationalError("the server closed the connection unexpectedly")

    async def scenario() -> None:
        comm, _ = await connect(table.pk, key)
        monkeypatch.setattr(consumers, "_table_act", database_sync_to_async(down))
        await comm.send_json_to(
            {
                "type": "action",
                "action": {"type": "draw", "source": "stock"},
                "expect_version": table.version,
                "ref": "d1",
            }
        )
        answer = await comm.receive_json_from(timeout=TIMEOUT)
        assert answer["error"]["code"] == "unavailable" and answer["ref"] == "d1"
        await still_open(comm)
        await comm.disconnect()

    run(scenario)


def test_an_oversized_frame_closes_with_4413(alice, bob, carol):
    table = started_table(alice, bob, carol)
    key = session_for(bob)

    async def scenario() -> None:
        comm, _ = await connect(table.pk, key)
        await comm.send_to(text_data=json.dumps({"type": "ping", "pad": "x" * MAX_FRAME_CHARS}))
        closing = await comm.receive_output(TIMEOUT)
        assert closing == {"type": "websocket.close", "code": 4413}

    run(scenario)


def test_an_id_beyond_64_bits_closes_as_not_found(alice):
    key = session_for(alice)

    async def scenario() -> None:
        comm = communicator(2**63 + 1, key)
        connected, _ = await comm.connect(timeout=TIMEOUT)
        assert connected
        closing = await comm.receive_output(TIMEOUT)
        assert closing == {"type": "websocket.close", "code": 4404}

    run(scenario)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.text(alphabet='[]{}"\\ a1,:', max_size=200))
def test_the_depth_check_agrees_with_the_json_parser(text):
    """Whatever too_deep lets through parses (or fails) without recursion trouble, and what it
    stops does nest deeper than the limit."""
    if too_deep(text):
        depth = best = 0
        for char in text:  # no strings matter: a deep text needs that many brackets
            if char in "[{":
                depth += 1
                best = max(best, depth)
            elif char in "]}":
                depth -= 1
        assert best > MAX_DEPTH
    else:
        with contextlib.suppress(ValueError):
            json.loads(text)
