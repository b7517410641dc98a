"""The log in websocket frames: each frame carries the moves since the version that socket
was last sent (bots' moves included), a reconnect's ``?since=`` and a ``sync`` bound the first
log, and a socket's close records the version the player saw (not one sent to a tab in the
background)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings

from games.engine.public import public_events
from games.models import Move, Seat, Table
from tests.live.test_websocket import _act, started
from tests.live.wsutil import (  # noqa: F401 (close_db_pools: a fixture)
    ORIGIN,
    TIMEOUT,
    close_db_pools,
    connect,
    run,
    session_for,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_db_pools")]


def moves_of(table_id: int) -> list[Move]:
    return list(Move.objects.filter(table_id=table_id).order_by("seq"))


def connect_since(
    table_id: int,
    key: str,
    since: int | None,
    *,
    hidden: bool = False,
    client: str | None = None,
) -> WebsocketCommunicator:
    """A socket of ``key``'s session that says it has version ``since`` (None: says nothing, as
    a page opened afresh), from a tab ``hidden`` or not, named ``client`` by its page."""
    from mayi_site.asgi import application

    headers = [
        (b"host", b"testserver"),
        (b"origin", ORIGIN),
        (b"cookie", f"{settings.SESSION_COOKIE_NAME}={key}".encode()),
    ]
    params = [f"since={since}"] if since is not None else []
    params += ["hidden=1"] if hidden else []
    params += [f"client={client}"] if client else []
    return WebsocketCommunicator(application, f"/ws/tables/{table_id}/?{'&'.join(params)}", headers)


def test_each_frame_logs_the_moves_since_the_sockets_last_frame(alice, bob):
    # alice, bob and a bot: bob's move commits with the bot's replies, one frame for all.
    table = started(alice, bob, seats=3, public=False)
    key = session_for(alice)
    frames: list[dict] = []

    async def scenario() -> None:
        comm, first = await connect(table.pk, key)
        frames.append(first)
        for _ in range(14):
            state = await database_sync_to_async(lambda: Table.objects.get(pk=table.pk).state)()
            seats = await database_sync_to_async(
                lambda: {s.position: s.user for s in Seat.objects.filter(table=table)}
            )()
            from games.engine import seats_to_act

            people = [s for s in seats_to_act(state) if seats.get(s) is not None]
            if not people:
                break
            await database_sync_to_async(_act)(table.pk, seats[people[0]])
            frames.append(await comm.receive_json_from(timeout=TIMEOUT))
        await comm.disconnect()

    run(scenario)
    moves = moves_of(table.pk)
    assert len(frames) > 3
    # The first frame (no ?since): the whole recent log.
    assert [e["seq"] for e in frames[0]["log"]] == [
        m.seq for m in moves if m.version <= frames[0]["version"]
    ]
    several = False
    for before, frame in zip(frames, frames[1:], strict=False):
        expected = [m for m in moves if before["version"] < m.version <= frame["version"]]
        assert [e["seq"] for e in frame["log"]] == [m.seq for m in expected]
        assert [e["events"] for e in frame["log"]] == [public_events(m.events, 0) for m in expected]
        several |= any(e["by_bot"] for e in frame["log"])
    assert several, "no frame carried a bot's move"
    # The socket's close recorded the last version it showed.
    assert Seat.objects.get(table=table, user=alice).last_seen_version == frames[-1]["version"]


def test_a_reconnect_with_since_and_a_sync_get_only_the_moves_after_it(alice, bob):
    table = started(alice, bob, seats=3, public=False)
    for _ in range(3):
        state = Table.objects.get(pk=table.pk).state
        from games.engine import seats_to_act

        seat = next((s for s in seats_to_act(state) if s in (0, 1)), None)
        if seat is None:
            break
        _act(table.pk, [alice, bob][seat])
    table.refresh_from_db()
    moves = moves_of(table.pk)
    middle = moves[len(moves) // 2].version
    key = session_for(bob)

    async def scenario() -> None:
        comm = connect_since(table.pk, key, middle)
        connected, _ = await comm.connect(timeout=TIMEOUT)
        assert connected
        frame = await comm.receive_json_from(timeout=TIMEOUT)
        assert [e["seq"] for e in frame["log"]] == [m.seq for m in moves if m.version > middle]
        await comm.send_json_to({"type": "sync", "version": 1})
        synced = await comm.receive_json_from(timeout=TIMEOUT)
        assert [e["seq"] for e in synced["log"]] == [m.seq for m in moves if m.version > 1]
        await comm.send_json_to({"type": "sync", "version": table.version})
        assert (await comm.receive_json_from(timeout=TIMEOUT))["type"] == "current"
        await comm.disconnect()

    run(scenario)


def test_an_action_over_the_socket_answers_with_its_log(alice, bob):
    table = started(alice, bob, seats=3, public=False)
    key = session_for(alice)
    from games.engine import seats_to_act
    from games.engine.bots import choose_action

    def ready() -> tuple[Any, int] | None:
        t = Table.objects.get(pk=table.pk)
        if 0 in seats_to_act(t.state):
            return choose_action(t.state, 0), t.version
        _act(table.pk, bob)
        return None

    found = None
    for _ in range(6):
        found = ready()
        if found:
            break
    assert found is not None
    action, version = found

    async def scenario() -> None:
        comm, _ = await connect(table.pk, key)
        await comm.send_json_to({"type": "action", "action": action, "expect_version": version})
        frame = await comm.receive_json_from(timeout=TIMEOUT)
        assert frame["type"] == "table" and frame["log"]
        assert frame["log"][0]["seat"] == 0 and frame["log"][0]["version"] == version + 1
        await comm.disconnect()

    run(scenario)


def test_frames_to_a_tab_in_the_background_are_not_counted_as_seen(alice, bob):
    # A laptop closed overnight on the table's tab: its socket was sent every move and, as it
    # closed, recorded them all as seen, so "Since you last looked" said nothing the next day.
    from tests.live.test_websocket import _act_or_bump

    table = started(alice, bob, seats=3, public=False)
    key = session_for(alice)
    seen = database_sync_to_async(
        lambda: Seat.objects.get(table=table, user=alice).last_seen_version
    )
    others_move = database_sync_to_async(lambda: _act_or_bump(table.pk, bob))
    versions: dict[str, int] = {}

    async def scenario() -> None:
        comm = connect_since(table.pk, key, 0, hidden=True)
        assert (await comm.connect(timeout=TIMEOUT))[0]
        await comm.receive_json_from(timeout=TIMEOUT)
        assert await seen() is None  # opened in the background: nothing looked at yet
        await others_move()
        await comm.receive_json_from(timeout=TIMEOUT)
        await comm.send_json_to({"type": "looking", "visible": True})
        # The version the socket had as the tab came in sight, from its answer to a ping (the
        # frame just read may already be followed by another one, a timer's).
        await comm.send_json_to({"type": "ping"})
        versions["looked"] = await pong_version(comm)
        await comm.send_json_to({"type": "looking", "visible": False})
        for _ in range(2):
            await others_move()
            versions["last"] = (await comm.receive_json_from(timeout=TIMEOUT))["version"]
        await comm.disconnect()

    run(scenario)
    assert versions["last"] > versions["looked"]
    # The close records the version the tab showed when it went to the background.
    assert Seat.objects.get(table=table, user=alice).last_seen_version == versions["looked"]

    async def back() -> None:
        comm = connect_since(table.pk, key, 0)
        assert (await comm.connect(timeout=TIMEOUT))[0]
        await comm.receive_json_from(timeout=TIMEOUT)
        await comm.disconnect()

    run(back)  # opened in sight: seen at once, as before
    assert Seat.objects.get(table=table, user=alice).last_seen_version == versions["last"]


async def pong_version(comm: Any) -> int:
    """The version in the socket's answer to a ping (frames before it skipped)."""
    while True:
        frame = await comm.receive_json_from(timeout=TIMEOUT)
        if frame["type"] == "pong":
            return int(frame["version"])


def test_a_socket_in_sight_records_what_it_shows_while_it_stays_open(alice, bob, monkeypatch):
    # A phone left open on the table: the moves it showed counted as unseen on the laptop
    # ("Since you last looked: 73 moves"), since only its close recorded them.
    from games import seen_marks
    from tests.live.test_websocket import _act_or_bump

    monkeypatch.setattr(seen_marks, "SEEN_EVERY_SECONDS", 0.05)
    table = started(alice, bob, seats=3, public=False)
    key = session_for(alice)
    seen = database_sync_to_async(
        lambda: Seat.objects.get(table=table, user=alice).last_seen_version
    )
    others_move = database_sync_to_async(lambda: _act_or_bump(table.pk, bob))
    got: dict[str, Any] = {}

    async def scenario() -> None:
        comm = connect_since(table.pk, key, 0)
        assert (await comm.connect(timeout=TIMEOUT))[0]
        opened = await comm.receive_json_from(timeout=TIMEOUT)
        assert await seen() == opened["version"]
        for _ in range(3):
            await others_move()
            got["shown"] = (await comm.receive_json_from(timeout=TIMEOUT))["version"]
        for _ in range(100):
            if await seen() == got["shown"]:
                break
            await asyncio.sleep(0.02)
        got["open"] = await seen()  # still open
        await comm.disconnect()

    run(scenario)
    assert got["open"] == got["shown"] > 0
