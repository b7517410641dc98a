"""Redis carries messages and timers, never state: with it gone the site goes on serving pages
and applying moves (issue 14). Cache, presence, channel layer, Celery broker and axes each
degrade; broadcasts and timers catch up when it returns (the sweep finds the deadlines)."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games import live, presence, services
from games.models import Table
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)


def signed_in(user: Any) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def test_signed_in_requests_answer_with_redis_down(alice, api_for, redis_down):
    presence.mark_offline(alice.pk)
    api = api_for(alice)
    api.client.raise_request_exception = False
    started = time.monotonic()
    assert api.get("/api/tables").status_code == 200
    page = signed_in(alice)
    for path in ("/", "/accounts/profile/"):
        assert page.get(path).status_code == 200, path
    assert time.monotonic() - started < 5
    assert presence.is_online(alice.pk) is False  # a miss, not an error


def test_tables_are_created_joined_and_played_with_redis_down(
    alice, bob, carol, api_for, redis_down
):
    for user in (alice, bob, carol):
        presence.mark_offline(user.pk)
    host = api_for(alice)
    for user in (alice, bob, carol):
        api_for(user).client.raise_request_exception = False
    created = host.post("/api/tables", {"seats": 3, "window_seconds": 30, "turn_seconds": 60})
    assert created.status_code == 201, created.content
    table_id = created.json()["table"]["id"]
    for user in (bob, carol):
        assert api_for(user).post(f"/api/tables/{table_id}/join").status_code == 200
    started = host.post(f"/api/tables/{table_id}/start")
    assert started.status_code == 200, started.content
    table = Table.objects.get(pk=table_id)
    seats = {s.position: s.user for s in table.seats.select_related("user")}
    active = started.json()["view"]["active_seat"]
    t0 = time.monotonic()
    moved = api_for(seats[active]).act(table_id, table.version, type="draw", source="stock")
    # Applied, answered 200, and quickly: the broadcast and the timer's task both failed.
    assert moved.status_code == 200, moved.content
    assert time.monotonic() - t0 < 3
    table.refresh_from_db()
    assert (
        moved.json()["table"]["version"] == table.version == started.json()["table"]["version"] + 1
    )
    # The window's deadline is in the row: the sweep fires it once Redis (or a worker) is back.
    assert table.window_deadline is not None


def test_queueing_a_timer_with_the_broker_down_neither_blocks_nor_raises(redis_down):
    from games.services import enqueue

    soon = timezone.now() + timedelta(seconds=10)
    t0 = time.monotonic()
    assert enqueue.queue_deadlines(1, 1, soon, soon) == 0
    assert time.monotonic() - t0 < 3


def test_sign_in_works_with_redis_down(alice, redis_down):
    """django-axes keeps its attempts in the database (AxesDatabaseHandler), not the cache."""
    client = Client(raise_request_exception=False)
    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302, response.content[:300]
    wrong = client.post("/accounts/login/", {"username": "alice", "password": "nope"})
    assert wrong.status_code == 200


def test_a_socket_frame_is_built_with_redis_down(alice, bob, carol, redis_down):
    table = services.table_create(host=alice, seats=3)
    services.table_join(user=bob, table_id=table.pk)
    services.table_join(user=carol, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed="frame")
    presence.mark_offline(bob.pk)
    read, seats = services.table_read(table_id=table.pk)
    frame = live.frame_for(read, seats, bob)
    assert frame["view"]["hand"] == read.state["hands"][1]


def test_redis_stopped_mid_game_then_back(alice, bob, carol, api_for, own_redis):
    """Presence works, Redis stops (requests still answer), Redis returns (presence again)."""
    table = services.table_create(host=alice, seats=3)
    services.table_join(user=bob, table_id=table.pk)
    services.table_join(user=carol, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed="mid-game")
    table.refresh_from_db()
    presence.mark_offline(alice.pk)
    api = api_for(alice)
    api.client.raise_request_exception = False
    assert api.get(f"/api/tables/{table.pk}").status_code == 200
    assert presence.is_online(alice.pk)

    own_redis.stop()
    presence.mark_offline(alice.pk)
    for _ in range(3):
        assert api.get(f"/api/tables/{table.pk}").status_code == 200
    seats = {s.position: s.user for s in table.seats.select_related("user")}
    active = services.table_payload(table, list(table.seats.all()), alice)["view"]["active_seat"]
    mover = api_for(seats[active])
    mover.client.raise_request_exception = False
    moved = mover.act(table.pk, table.version, type="draw", source="stock")
    assert moved.status_code == 200, moved.content

    own_redis.start()
    presence.mark_offline(alice.pk)
    assert api.get(f"/api/tables/{table.pk}").status_code == 200
    assert presence.is_online(alice.pk)


def test_a_broadcast_from_a_thread_reaches_the_group_and_fails_soft(own_redis, monkeypatch):
    """Outside a server (a Celery task) games.broadcast publishes from the committing thread
    with a blocking client (mayi_site/channel_layer.py ``group_send_blocking``): a member of
    the group receives it as a group_send; with Redis stopped it is dropped with a warning,
    never raised."""
    import asyncio

    from channels.layers import get_channel_layer

    from games import broadcast
    from mayi_site.channel_layer import FailSoftRedisPubSubChannelLayer as Layer

    blocking, sent = Layer.group_send_blocking, []

    def counted(self: Layer, group: str, message: dict) -> None:
        sent.append(group)
        blocking(self, group, message)

    monkeypatch.setattr(Layer, "group_send_blocking", counted)

    async def receive_one() -> dict:
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(broadcast.group_name(7), channel)
        # A plain thread, as a worker's: no server loop for the broadcast to hand the send to.
        await asyncio.get_running_loop().run_in_executor(None, broadcast.table_changed, 7, 42)
        return await asyncio.wait_for(layer.receive(channel), 5)

    got = asyncio.run(receive_one())
    assert (got["type"], got["table"], got["version"]) == ("table.changed", 7, 42)
    own_redis.stop()
    broadcast.table_changed(7, 43)  # logged, not raised
    assert sent == ["table-7", "table-7"]
