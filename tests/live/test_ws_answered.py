"""A page that sends its move by POST names its socket (``X-Table-Socket``, the socket's
``?client=``): the POST's answer is the new view, so that socket is not sent the same version
as a frame, while every other socket is; the next frame's log starts after the answered move,
and a page whose answer was lost gets the move back by ``sync``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games import fanout
from games.engine import choose_action
from games.models import Seat, Table
from tests.live.test_websocket import _act, _next_player, started
from tests.live.test_websocket_log import connect_since
from tests.live.wsutil import (  # noqa: F401 (close_db_pools: a fixture)
    TIMEOUT,
    as_get,
    close_db_pools,
    connect,
    fresh_get,
    run,
    session_for,
    steady,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_db_pools")]

NAME = "page0123abcd"


def named(table_id: int, key: str) -> WebsocketCommunicator:
    """A socket the page names ``NAME`` (``?client=``)."""
    return connect_since(table_id, key, None, client=NAME)


def post_move(api_for: Any, user: Any, table_id: int, name: str | None) -> dict[str, Any]:
    """The user's move as the heuristic bot would play it, by POST naming socket ``name``."""
    table = Table.objects.get(pk=table_id)
    seat = Seat.objects.get(table=table, user=user).position
    action = choose_action(table.state, seat, "heuristic")
    assert action is not None
    client = api_for(user)
    extra = {"HTTP_X_TABLE_SOCKET": name} if name else {}
    response = client.client.post(
        f"/api/tables/{table_id}/actions",
        json.dumps({**action, "expect_version": table.version}),
        content_type="application/json",
        **extra,
    )
    assert response.status_code == 200, response.content
    return response.json()


def test_the_socket_a_post_names_gets_no_frame_of_its_answer_and_the_others_do(
    alice, bob, carol, api_for
):
    table = started(alice, bob, carol, public=False)
    people = {0: alice, 1: bob, 2: carol}
    keys = {user.pk: session_for(user) for user in people.values()}

    async def scenario() -> None:
        mover = await database_sync_to_async(_next_player)(table.pk, people)
        page = named(table.pk, keys[mover.pk])
        connected, _ = await page.connect(timeout=TIMEOUT)
        assert connected
        first = await page.receive_json_from(timeout=TIMEOUT)
        others = [
            (await connect(table.pk, keys[user.pk]))[0] for user in people.values() if user != mover
        ]
        # Another tab of the mover's, without a name: a frame as before.
        tab, _ = await connect(table.pk, keys[mover.pk])

        answer = await database_sync_to_async(post_move)(api_for, mover, table.pk, NAME)
        version = answer["table"]["version"]
        assert version > first["version"]
        for comm in [*others, tab]:
            frame = await comm.receive_json_from(timeout=TIMEOUT)
            assert frame["version"] == version
        assert await page.receive_nothing(timeout=0.3)
        # What the page holds from its answer is what a GET answers it.
        assert steady(answer) == await fresh_get(api_for, mover, table.pk)

        # The next change: the named socket's frame carries the moves after the answered one
        # (its answer had those), and equals a GET.
        nxt = await database_sync_to_async(_next_player)(table.pk, people)
        after = await database_sync_to_async(_act)(table.pk, nxt)
        frame = await page.receive_json_from(timeout=TIMEOUT)
        assert frame["version"] == after
        assert all(entry["version"] > version for entry in frame["log"]), frame["log"]
        assert as_get(frame) == await fresh_get(api_for, mover, table.pk)

        # A page whose answer was lost asks by the version it shows: the moves come back.
        await page.send_json_to({"type": "sync", "version": first["version"]})
        again = await page.receive_json_from(timeout=TIMEOUT)
        assert again["version"] == after
        assert {e["version"] for e in again["log"]} >= {version, after}
        for comm in [page, *others, tab]:
            await comm.disconnect()

    run(scenario)


def test_a_name_of_another_users_socket_changes_nothing_for_it(alice, bob, carol, api_for):
    """Only the mover's own socket of that name is spared its frame."""
    table = started(alice, bob, carol, public=False)
    people = {0: alice, 1: bob, 2: carol}
    mover = _next_player(table.pk, people)
    watcher = next(user for user in people.values() if user != mover)
    key = session_for(watcher)

    async def scenario() -> None:
        comm = named(table.pk, key)
        connected, _ = await comm.connect(timeout=TIMEOUT)
        assert connected
        await comm.receive_json_from(timeout=TIMEOUT)
        answer = await database_sync_to_async(post_move)(api_for, mover, table.pk, NAME)
        frame = await comm.receive_json_from(timeout=TIMEOUT)
        assert frame["version"] == answer["table"]["version"]
        await comm.disconnect()

    run(scenario)


def test_a_move_over_the_socket_is_answered_and_its_socket_left_out_of_the_batch(
    alice, bob, carol, monkeypatch
):
    # The socket opened without a name: the server names it, so its own move is answered
    # only (its process's batch of frames for the version is built for the others).
    table = started(alice, bob, carol, public=False)
    people = {0: alice, 1: bob, 2: carol}
    keys = {user.pk: session_for(user) for user in people.values()}
    batches: list[list[str | None]] = []
    build = fanout._changed_frames

    async def counted(table_id: int, sockets: list[Any], version: int | None = None) -> Any:
        batches.append([key for key, _ in sockets])
        return await build(table_id, sockets, version)

    monkeypatch.setattr(fanout, "_changed_frames", counted)

    async def scenario() -> None:
        mover = await database_sync_to_async(_next_player)(table.pk, people)
        comms = {user.pk: (await connect(table.pk, keys[user.pk]))[0] for user in people.values()}
        current = await database_sync_to_async(Table.objects.get)(pk=table.pk)
        seat = next(p for p, u in people.items() if u == mover)
        action = choose_action(current.state, seat, "heuristic")
        await comms[mover.pk].send_json_to(
            {"type": "action", "action": action, "expect_version": current.version, "ref": "m1"}
        )
        for user in people.values():
            frame = await comms[user.pk].receive_json_from(timeout=TIMEOUT)
            assert frame["type"] == "table" and frame["version"] == current.version + 1
            assert frame.get("ref") == ("m1" if user == mover else None)
            assert await comms[user.pk].receive_nothing(0.05)
        assert len(batches) == 1
        assert sorted(batches[0]) == sorted(k for u, k in keys.items() if u != mover.pk)
        for comm in comms.values():
            await comm.disconnect()

    run(scenario)
