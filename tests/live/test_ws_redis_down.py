"""A table socket with the channel layer's Redis gone: it still gets its frames on connect and
on request, and answers actions (issue 14); live pushes resume when Redis returns."""

from __future__ import annotations

import pytest

from games import services
from tests.live.wsutil import (  # noqa: F401 (close_db_pools: a fixture)
    TIMEOUT,
    close_db_pools,
    connect,
    run,
    session_for,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_db_pools")]


def test_a_socket_connects_and_syncs_with_redis_down(alice, bob, carol, redis_down):
    table = services.table_create(host=alice, seats=3)
    services.table_join(user=bob, table_id=table.pk)
    services.table_join(user=carol, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed="ws-redis-down")
    table.refresh_from_db()
    key = session_for(bob)

    async def scenario() -> None:
        comm, frame = await connect(table.pk, key)
        assert frame["version"] == table.version
        await comm.send_json_to({"type": "sync", "version": -1})
        again = await comm.receive_json_from(timeout=TIMEOUT)
        assert again["type"] == "table"
        await comm.send_json_to({"type": "ping"})
        assert (await comm.receive_json_from(timeout=TIMEOUT))["type"] == "pong"
        await comm.disconnect()

    run(scenario)


def test_a_socket_opened_while_redis_was_down_gets_pushes_once_it_is_back(
    alice, bob, carol, own_redis
):
    import asyncio

    from channels.db import database_sync_to_async

    from tests.live.test_websocket import _act

    table = services.table_create(host=alice, seats=3)
    services.table_join(user=bob, table_id=table.pk)
    services.table_join(user=carol, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed="ws-redis-back")
    table.refresh_from_db()
    key = session_for(bob)
    people = {0: alice, 1: bob, 2: carol}
    own_redis.stop()

    async def scenario() -> None:
        comm, frame = await connect(table.pk, key)
        own_redis.start()
        await asyncio.sleep(2.5)  # the layer retries its subscriptions every second
        state = await database_sync_to_async(lambda: type(table).objects.get(pk=table.pk).state)()
        from games import engine

        user = people[engine.seats_to_act(state)[0]]
        version = await database_sync_to_async(_act)(table.pk, user)
        pushed = await comm.receive_json_from(timeout=TIMEOUT)
        assert pushed["version"] == version
        await comm.disconnect()

    run(scenario)
